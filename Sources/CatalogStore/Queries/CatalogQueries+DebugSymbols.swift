import Foundation

extension CatalogQueries {
    /// The dSYMs kept outside archives with a slice of `uuid` (upper case with dashes), present
    /// first; with `host`, that host's only.
    package func debugSymbols(uuid: String, host: String? = nil) throws -> [DebugSymbolsMatch] {
        let (onHost, hosts) = self.onHost("host", host)
        return try db.rows("""
            SELECT path, member, bundle_id, short_version, build, arch, uuid, NULLIF(host, '') AS host,
                   first_seen, last_seen, removed_at
            FROM debug_symbols WHERE uuid = ?\(onHost)
            ORDER BY removed_at IS NOT NULL, path, member, host
            """, [.text(uuid)] + hosts).map { row in
            let path = row.string("path") ?? ""
            return DebugSymbolsMatch(path: path, member: row.string("member") ?? "", isZip: !path.hasSuffix(".dSYM"),
                                     bundleID: row.string("bundle_id"), shortVersion: row.string("short_version"),
                                     build: row.string("build"), arch: row.string("arch"), uuid: row.string("uuid") ?? uuid,
                                     host: row.string("host"), firstSeen: row.date("first_seen"), lastSeen: row.date("last_seen"),
                                     removedAt: row.date("removed_at"))
        }
    }
}
