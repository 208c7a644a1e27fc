import CatalogCore

extension CatalogWriter {
    /// The columns of `build_binaries` the writer fills, in the order of ``binaryRows(_:)``'s values.
    static let binaryColumns = ["build_id", "kind", "role", "path", "bundle_id", "arch", "uuid", "cdhash", "team_id",
                                "certificate_sha1", "certificate_name", "identifier"]

    /// Replaces the binaries recorded for the build `buildID` with `artifact`'s: a row per slice of
    /// each executable and dSYM (one row without arch or UUID for a file that is not readable).
    func replaceBinaries(of buildID: Int64, _ artifact: BuildArtifact, isNew: Bool) throws {
        if !isNew { try db.write("DELETE FROM build_binaries WHERE build_id = ?", [.integer(buildID)]) }
        let rows = Self.binaryRows(artifact)
        // A statement per batch keeps a build with many frameworks to a few round trips on PostgreSQL.
        for start in stride(from: 0, to: rows.count, by: 50) {
            let batch = rows[start..<min(start + 50, rows.count)]
            let placeholders = Array(repeating: "(" + Array(repeating: "?", count: Self.binaryColumns.count)
                .joined(separator: ", ") + ")", count: batch.count).joined(separator: ", ")
            try db.write("INSERT INTO build_binaries (\(Self.binaryColumns.joined(separator: ", "))) VALUES \(placeholders)",
                         batch.flatMap { [SQLValue.integer(buildID)] + $0 })
        }
    }

    /// Each row's values after `build_id`.
    static func binaryRows(_ artifact: BuildArtifact) -> [[SQLValue]] {
        func rows(kind: String, role: String?, path: String, bundleID: String?, binary: MachOFile?) -> [[SQLValue]] {
            let slices = binary?.slices ?? []
            guard !slices.isEmpty else {
                return [[.text(kind), SQLValue(role), .text(path), SQLValue(bundleID), .null, .null, .null, .null, .null, .null, .null]]
            }
            return slices.map { slice in
                // A universal binary signs each slice on its own.
                let signature = kind == "executable" ? slice.codeSignature : nil
                return [.text(kind), SQLValue(role), .text(path), SQLValue(bundleID), .text(slice.architecture),
                        SQLValue(slice.uuid), SQLValue(signature?.cdhash),
                        SQLValue(signature?.teamID), SQLValue(signature?.signingCertificate?.sha1),
                        SQLValue(signature?.signingCertificate?.commonName), SQLValue(signature?.identifier)]
            }
        }
        return artifact.executables.flatMap {
            rows(kind: "executable", role: $0.role.rawValue, path: $0.path, bundleID: $0.bundleID, binary: $0.binary)
        } + artifact.dsyms.flatMap {
            rows(kind: "dsym", role: nil, path: $0.path, bundleID: nil, binary: $0.binary)
        }
    }
}
