import CatalogCore
import Foundation

extension CatalogWriter {
    /// Records the dSYMs read at `path` (a `.dSYM` folder or a zip of them) as present now: one row
    /// per slice of each DWARF file; a slice read before and not now is marked removed.
    package func recordDebugSymbols(path: String, _ bundles: [LooseDebugSymbols], at now: Date) throws {
        try db.write("UPDATE debug_symbols SET removed_at = ? WHERE host = ? AND path = ? AND removed_at IS NULL",
                     [SQLValue(now), .text(host), .text(path)])
        for bundle in bundles {
            for file in bundle.files {
                // A DWARF file that did not read is an error of the ingest, with no slice to record.
                for slice in file.binary?.slices ?? [] {
                    try db.write("""
                        INSERT INTO debug_symbols (host, path, member, bundle_id, short_version, build, arch, uuid,
                            first_seen, last_seen, removed_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
                        ON CONFLICT (host, path, member, arch) DO UPDATE SET bundle_id = excluded.bundle_id,
                            short_version = excluded.short_version, build = excluded.build, uuid = excluded.uuid,
                            last_seen = excluded.last_seen, removed_at = NULL
                        """, [.text(host), .text(path), .text(file.path), SQLValue(bundle.bundleID), SQLValue(bundle.shortVersion),
                              SQLValue(bundle.build), .text(slice.architecture), SQLValue(slice.uuid), SQLValue(now), SQLValue(now)])
                }
            }
        }
    }
}
