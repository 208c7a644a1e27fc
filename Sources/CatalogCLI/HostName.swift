import Foundation
import CatalogStore

/// The build host an ingest writes as: `--host NAME`, else `$CATALOG_HOST`, else — on a
/// PostgreSQL catalogue, which gathers several hosts — this machine's name. A SQLite catalogue is one
/// machine's: without a name its rows belong to the unnamed host '' (README, "PostgreSQL"). Host
/// names are case-insensitive, as DNS names are: they are stored in lowercase, so `Build-07` and
/// `build-07` are one host's file index and lock.
enum HostName {
    static func option(help: String) -> ValueOption {
        ValueOption(name: "host", value: "name", help: help)
    }

    /// The host a writer of the catalogue `name` is without `--host`/`$CATALOG_HOST`: this machine
    /// on PostgreSQL, the unnamed host '' on SQLite.
    static func defaultHost(for name: String) -> String {
        CatalogueEngine(name).isPostgreSQL ? thisMachine : ""
    }

    /// `--host` or `$CATALOG_HOST` as given, checked and lowercased: a name is not empty and holds no
    /// whitespace or control characters (it is printed in tables and keys the host's rows).
    static func given(_ arguments: ParsedArguments, _ option: ValueOption, _ environment: [String: String]) throws -> String? {
        if let name = arguments.value(option) { return try checked(name, from: "--host") }
        if let name = environment["CATALOG_HOST"], !name.isEmpty { return try checked(name, from: "CATALOG_HOST") }
        return nil
    }

    static func checked(_ name: String, from source: String) throws -> String {
        guard !name.isEmpty else { throw UsageError(message: "\(source) needs a host name, not an empty one") }
        guard !name.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) else {
            throw UsageError(message: "\(source) '\(TextSanitizer.terminalSafe(name))' is not a host name (it holds spaces or control characters)")
        }
        return name.lowercased()
    }

    /// This machine's name as `hostname -s` prints it: up to the first dot, so "build-01.example.com"
    /// and macOS's "build-01.local" are both "build-01". "localhost" when the system has none.
    static var thisMachine: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let full = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let short = full.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        return short.isEmpty ? "localhost" : short.lowercased()
    }
}
