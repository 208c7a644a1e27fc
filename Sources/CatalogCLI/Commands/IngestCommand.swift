import CatalogCore
import CatalogIngest
import CatalogStore
import Foundation

/// `catalog ingest [PATH...]`: the nightly job. Walks the paths, decodes what changed since the
/// last run and records it in the catalogue in one transaction.
enum IngestCommand: Command {
    static let name = "ingest"
    static let abstract = "Index profiles and builds under the given folders into the catalogue."
    static let discussion: String? = """
        Walks each PATH for .mobileprovision/.provisionprofile files, .app bundles, .xcarchive folders,
        .ipa archives, zips holding one .app (or dSYMs), .dSYM folders and app Info.plists; bundles
        nested in an app (extensions, watch apps, App Clips) are builds of their own. Files unchanged since the last run (same size and mtime) are
        not read again; paths no longer found are marked removed, never deleted. With no PATH, the
        standard Xcode profile folders and ~/Library/Developer/Xcode/Archives that exist are used.
        Bad files are reported as warnings and recorded; the run goes on. A PATH that does not exist or
        cannot be read is an error: the other paths are ingested, nothing under it is marked removed,
        and the command exits 1. So is a PATH that yields no file while the catalogue holds files
        under it (an unmounted share is an empty folder), unless --allow-empty; a PATH that never
        held any and yields none is a warning.

        Each run belongs to a build host: --host NAME (else $CATALOG_HOST). A SQLite catalogue is one
        machine's, unnamed unless given one; a PostgreSQL catalogue (--db postgresql://…) gathers a
        fleet, and names this machine by its short host name unless told otherwise. A run marks removed
        only its own host's paths; profiles, certificates and devices are shared by every host.

        --exclude takes patterns as .gitignore does: a pattern without a slash matches a name at any
        depth ('*.dSYM', 'malformed'); with a slash it matches the path relative to the walked PATH
        ('malformed/*', 'ci/old/**'); '*' does not match '/', '**' matches any number of folders, and a
        trailing slash matches folders only.
        """
    static let arguments = [ArgumentSpec(name: "path", help: "A folder or file to index.", optional: true, variadic: true)]
    static let examples = [
        "catalog ingest",
        "catalog ingest --db /var/lib/catalog.sqlite ~/Library/MobileDevice ~/Builds",
        "catalog ingest --exclude 'DerivedData/' --strict ~/Builds",
    ]

    static func run(_ options: IngestCommandOptions, _ context: CommandContext) throws -> Int32 {
        let roots = try resolveRoots(options.paths, context)
        let dbPath = options.database
        // A missing folder is created (the store's business); a second ingest (of the same host, on
        // PostgreSQL) waits for the first rather than failing at once, and says so there.
        let host = options.host ?? HostName.defaultHost(for: dbPath)
        let catalogue = try Catalogue.openForWriting(path: dbPath, host: host, busyTimeout: 120, onWait: {
            context.err("waiting for another ingest of host '\(TextSanitizer.terminalSafe(host))' to finish…\n")
            context.flush()
        })
        var ingestOptions = IngestOptions(roots: roots, excludes: options.excludes, full: options.full)
        ingestOptions.allowEmpty = options.allowEmpty
        #if CATALOG_TEST_HOOKS
        if let text = context.environment["CATALOG_TEST_KILL_AFTER_WRITES"], let limit = Int(text) {
            ingestOptions.crashAfterWrites = limit
        }
        if let text = context.environment["CATALOG_TEST_STOP_AFTER_WRITES"], let limit = Int(text) {
            ingestOptions.stopAfterWrites = limit
        }
        #endif
        let showProgress = context.stderrIsTerminal && !options.quiet
        let ingester = Ingester(catalogue: catalogue, options: ingestOptions)
        let outcome = Result { () throws -> IngestReport in
            try ingester.run(warning: { path, message in
                    context.err((showProgress ? "\r\u{1B}[K" : "") + "warning: \(TextSanitizer.terminalSafe(path)): \(TextSanitizer.terminalSafe(message))\n")
                    context.flush()
                }, progress: { progress in
                    guard showProgress else { return }
                    let rate = progress.elapsed > 0 ? Double(progress.decoded) / progress.elapsed : 0
                    context.err(String(format: "\r\u{1B}[Kscanned %d, decoded %d (%.0f/s)", progress.scanned, progress.decoded, rate))
                    context.flush()
                })
        }
        // Whether the run succeeded or not, leave the catalogue readable by whoever may only read it
        // (docs/catalogue-file.md, "Sharing a catalogue"): no WAL, so a reader needs no -shm file beside it.
        CatalogueLocation.leaveReadableByReaders(catalogue, context, clearLine: showProgress)
        let report = try outcome.get()
        if showProgress { context.err("\r\u{1B}[K") }
        for root in emptyRootsToWarnAbout(report, defaultRoots: options.paths.isEmpty) {
            context.err("warning: \(TextSanitizer.terminalSafe(root)): found no profiles or builds\n")
        }
        if !options.quiet { context.err(report.summary + "\n") }
        // Said last, after the summary, so a cron mail ends with why the run failed.
        let refused = Set(report.emptyRoots.filter(\.refused).map(\.path))
        for (root, message) in report.failedRoots {
            context.err("error: \(TextSanitizer.terminalSafe(root)): \(TextSanitizer.terminalSafe(message)); "
                        + "nothing under it was marked removed"
                        + (refused.contains(root) ? " (is it unmounted? if it was emptied on purpose, run with --allow-empty)" : "")
                        + "\n")
        }
        if !report.failedRoots.isEmpty { return ExitStatus.failure }
        return options.strict && !report.errors.isEmpty ? ExitStatus.failure : ExitStatus.success
    }

    /// The roots that yielded no file and held none before: each given PATH; of the standard Xcode
    /// folders, which often exist empty (no archives yet, the folder an older Xcode used), only when
    /// all of them are empty.
    static func emptyRootsToWarnAbout(_ report: IngestReport, defaultRoots: Bool) -> [String] {
        let empty = report.emptyRoots.filter { !$0.hadHistory }.map(\.path)
        return !defaultRoots || report.filesScanned == 0 ? empty : []
    }

    /// The given paths made absolute, or the standard folders that exist. A given path that does not
    /// exist is kept: the run records it as an error of that root and ingests the others.
    static func resolveRoots(_ paths: [String], _ context: CommandContext) throws -> [String] {
        if !paths.isEmpty {
            return paths.map { URL(fileURLWithPath: CatalogueLocation.absolute($0)).standardizedFileURL.path }
        }
        let home = XcodeFolders.home(context)
        return try XcodeFolders.existing(XcodeFolders.profiles(home: home) + [XcodeFolders.archives(home: home)],
                                         described: "the standard Xcode profile or archive folders")
    }
}
