import CatalogStore
import Foundation

/// Where the catalogue lives: `--db PATH`, else `$CATALOG_DB`, else the platform's data folder
/// (`$XDG_DATA_HOME/catalog/catalog.sqlite`, `~/.local/share/catalog/…`; on macOS
/// `~/Library/Application Support/catalog/…`).
enum CatalogueLocation {
    static let option = ValueOption(name: "db", value: "path",
                                   help: "The catalogue: a SQLite file, or postgresql://… (a fleet's, see README)\n(default: $CATALOG_DB, else the user's data folder).")

    static func path(_ arguments: ParsedArguments, _ environment: [String: String]) -> String {
        if let path = arguments.value(option), !path.isEmpty { return absolute(path) }
        if let path = environment["CATALOG_DB"], !path.isEmpty { return absolute(path) }
        return UserFolder.data.path(environment) + "/catalog.sqlite"
    }

    /// A path made absolute; a PostgreSQL connection string (`postgresql://…`) is left as it is.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") || CatalogueEngine(path).isPostgreSQL { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }
}

extension CatalogueLocation {
    /// How long a command that wrote the catalogue waits for other processes to close it, so it can
    /// leave WAL mode (``Catalogue/leaveWAL(waitingUpTo:)``).
    static let shareWaitSeconds = 5.0

    /// Ends a command that wrote the catalogue (ingest, prune): leaves WAL mode so that whoever may
    /// only read the file can query it (docs/catalogue-file.md, "Sharing a catalogue"), or says why it stays in WAL.
    static func leaveReadableByReaders(_ catalogue: Catalogue, _ context: CommandContext, clearLine: Bool = false) {
        let stillWAL: String?
        do {
            stillWAL = try catalogue.leaveWAL(waitingUpTo: shareWaitSeconds)
                ? nil : "another process has it open, so it stays in WAL mode"
        } catch {
            stillWAL = "it stays in WAL mode (\(error))"
        }
        guard let stillWAL else { return }
        context.err((clearLine ? "\r\u{1B}[K" : "") + "note: \(TextSanitizer.terminalSafe(catalogue.path)): \(stillWAL); "
                    + "readers without write access to its folder cannot query it until an ingest ends with no other process using it\n")
    }
}
