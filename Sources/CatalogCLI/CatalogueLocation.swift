import CatalogStore
import Foundation

/// Where the catalogue lives: `--db PATH`, else `$CATALOG_DB`, else the platform's data folder
/// (`$XDG_DATA_HOME/catalog/catalog.sqlite`, `~/.local/share/catalog/…`; on macOS
/// `~/Library/Application Support/catalog/…`).
enum CatalogueLocation {
    static let option = OptionSpec(name: "db", value: "path",
                                   help: "The catalogue file (default: $CATALOG_DB, else the user's data folder).")

    static func path(_ arguments: ParsedArguments, _ environment: [String: String]) -> String {
        if let path = arguments.value("db"), !path.isEmpty { return absolute(path) }
        if let path = environment["CATALOG_DB"], !path.isEmpty { return absolute(path) }
        let home = environment["HOME"] ?? NSHomeDirectory()
        #if os(macOS)
        return home + "/Library/Application Support/catalog/catalog.sqlite"
        #else
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        return data + "/catalog/catalog.sqlite"
        #endif
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Opens the catalogue to read it. A missing file is a clear error that suggests `catalog ingest`.
    static func openForReading(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Connection {
        let path = path(arguments, context.environment)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError("no catalogue at \(path); run 'catalog ingest PATH...' first (or pass --db)")
        }
        // Opened read-write when the file allows it, so SQLite can recover a WAL left by a killed
        // ingest and set up shared memory; but never migrated or written by a query command.
        let connection: Connection
        if access(path, W_OK) == 0 {
            connection = try Connection(path: path, readOnly: false, wal: false)
            let migrator = try Migrator()
            try migrator.checkCompatible(connection)
            let found = try migrator.currentVersion(of: connection)
            guard found == migrator.latestVersion else {
                throw StoreError.outdatedSchema(path: path, found: found, known: migrator.latestVersion)
            }
        } else {
            connection = try Connection.openCatalogue(path: path, readOnly: true)
        }
        return connection
    }
}

extension CatalogueLocation {
    /// How long a command that wrote the catalogue waits for other processes to close it, so it can
    /// leave WAL mode (``Connection/leaveWAL(waitingUpTo:)``).
    static let shareWaitSeconds = 5.0

    /// Ends a command that wrote the catalogue (ingest, prune): leaves WAL mode so that whoever may
    /// only read the file can query it (README, "Sharing a catalogue"), or says why it stays in WAL.
    static func leaveReadableByReaders(_ connection: Connection, _ context: CommandContext, clearLine: Bool = false) {
        let stillWAL: String?
        do {
            stillWAL = try connection.leaveWAL(waitingUpTo: shareWaitSeconds)
                ? nil : "another process has it open, so it stays in WAL mode"
        } catch {
            stillWAL = "it stays in WAL mode (\(error))"
        }
        guard let stillWAL else { return }
        context.err((clearLine ? "\r\u{1B}[K" : "") + "note: \(TextSanitizer.terminalSafe(connection.path)): \(stillWAL); "
                    + "readers without write access to its folder cannot query it until an ingest ends with no other process using it\n")
    }
}
