import CatalogCore
import Foundation

extension CatalogWriter {
    /// The columns of `build_binaries` the writer fills, in the order of ``binaryRows(_:)``'s values.
    static let binaryColumns = ["build_id", "kind", "role", "path", "bundle_id", "arch", "uuid", "cdhash", "team_id",
                                "certificate_sha1", "certificate_name", "identifier", "entitlements", "error"]

    /// The columns of `build_signing_problems` the writer fills.
    static let signingProblemColumns = ["build_id", "ordinal", "code", "executable", "message", "effective_at"]

    /// Replaces the binaries and signing problems recorded for the build `buildID` with `artifact`'s:
    /// a row per slice of each executable and dSYM (one row without arch or UUID for a file that is
    /// not readable), and a row per problem ``CatalogWriter/signingProblems(_:)`` finds.
    func replaceBinaries(of buildID: Int64, _ artifact: BuildArtifact, isNew: Bool) throws {
        if !isNew {
            try db.write("DELETE FROM build_binaries WHERE build_id = ?", [.integer(buildID)])
            try db.write("DELETE FROM build_signing_problems WHERE build_id = ?", [.integer(buildID)])
        }
        try insert(into: "build_binaries", Self.binaryColumns, buildID: buildID, Self.binaryRows(artifact))
        let problems = Self.signingProblems(artifact).enumerated().map { index, problem -> [SQLValue] in
            [.integer(Int64(index)), .text(problem.code.rawValue), .text(problem.executable), .text(problem.message),
             SQLValue(problem.date)]
        }
        try insert(into: "build_signing_problems", Self.signingProblemColumns, buildID: buildID, problems)
    }

    /// Every problem the build may have at any date: the dated ones carry the date from which they
    /// hold, so a query keeps them only at a later date.
    static func signingProblems(_ artifact: BuildArtifact) -> [SigningProblem] {
        artifact.signingProblems(asOf: .distantFuture)
    }

    /// Inserts `rows` (each row's values after `build_id`) into `table`.
    private func insert(into table: String, _ columns: [String], buildID: Int64, _ rows: [[SQLValue]]) throws {
        // A statement per batch keeps a build with many frameworks to a few round trips on PostgreSQL.
        for start in stride(from: 0, to: rows.count, by: 50) {
            let batch = rows[start..<min(start + 50, rows.count)]
            let placeholders = Array(repeating: "(" + Array(repeating: "?", count: columns.count)
                .joined(separator: ", ") + ")", count: batch.count).joined(separator: ", ")
            try db.write("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(placeholders)",
                         batch.flatMap { [SQLValue.integer(buildID)] + $0 })
        }
    }

    /// Each row's values after `build_id`.
    static func binaryRows(_ artifact: BuildArtifact) -> [[SQLValue]] {
        func rows(kind: String, role: String?, path: String, bundleID: String?, binary: MachOFile?,
                  error: DecodeError?) -> [[SQLValue]] {
            let slices = binary?.slices ?? []
            let error = SQLValue((binary?.firstError(error) ?? error)?.message)
            guard !slices.isEmpty else {
                return [[.text(kind), SQLValue(role), .text(path), SQLValue(bundleID), .null, .null, .null, .null, .null,
                         .null, .null, .null, error]]
            }
            return slices.map { slice in
                // A universal binary signs each slice on its own.
                let signature = kind == "executable" ? slice.codeSignature : nil
                let entitlements = signature.map { signedEntitlementsJSON($0.claimedEntitlements ?? PlistDictionary()) }
                return [.text(kind), SQLValue(role), .text(path), SQLValue(bundleID), .text(slice.architecture),
                        SQLValue(slice.uuid), SQLValue(signature?.cdhash),
                        SQLValue(signature?.teamID), SQLValue(signature?.signingCertificate?.sha1),
                        SQLValue(signature?.signingCertificate?.commonName), SQLValue(signature?.identifier),
                        SQLValue(entitlements), error]
            }
        }
        return artifact.executables.flatMap {
            rows(kind: "executable", role: $0.role.rawValue, path: $0.path, bundleID: $0.bundleID, binary: $0.binary,
                 error: $0.error)
        } + artifact.dsyms.flatMap {
            rows(kind: "dsym", role: nil, path: $0.path, bundleID: nil, binary: $0.binary, error: $0.error)
        }
    }

    /// A signature's entitlements as the JSON object decode prints.
    private static func signedEntitlementsJSON(_ entitlements: PlistDictionary) -> String {
        var out: [UInt8] = []
        entitlements.json.write(to: &out, pretty: false, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }
}
