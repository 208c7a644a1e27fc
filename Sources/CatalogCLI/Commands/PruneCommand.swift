import CatalogCore
import CatalogIngest
import CatalogStore
import Foundation

/// `catalog prune`: the clean-up of installed profiles that are expired or superseded — the job
/// `fastlane sigh manage -e` and `mprovision clean` exist for — dry by default.
enum PruneCommand: Command {
    static let name = "prune"
    static let abstract = "List (and with --apply, trash) installed profiles that are expired or superseded."
    static let discussion: String? = """
        Looks at the catalogue's standalone profile files under each PATH (default: Xcode's profile
        folders) that are expired (--expired) and/or superseded by a present renewal (--superseded);
        with neither flag, both. Prints each file and why; changes nothing unless --apply (move to
        the trash) or --delete. Never touches a profile inside an .app, .ipa or .xcarchive, a file
        outside the PATHs, the newest profile of a team's app id, or a file whose bytes changed since
        it was catalogued (run 'catalog ingest' first). A pruned file is recorded as removed.
        Exit 1 when a file could not be moved or deleted.
        """
    static let arguments = [ArgumentSpec(name: "path", help: "Folders to prune (default: Xcode's profile folders).",
                                         optional: true, variadic: true)]
    static let examples = [
        "catalog prune",
        "catalog prune --expired --apply",
    ]

    static let columns: [Column] = [
        Column(key: "action", header: "ACTION"),
        Column(key: "reason", header: "WHY"),
        Column(key: "effective_expiration_date", header: "EXPIRES", display: RelativeTime.day),
        Column(key: "name", header: "NAME"),
        Column(key: "path", header: "PATH"),
        Column(key: "message", header: "NOTE"),
    ].ranked(["action", "path", "reason", "message", "effective_expiration_date", "name"])

    enum Mode { case dryRun, trash, delete }

    static func run(_ options: PruneOptions, _ context: CommandContext) throws -> Int32 {
        let mode = options.mode
        let wantExpired = options.expired
        let wantSuperseded = options.superseded
        let now = options.query.asOf
        // Catalogued paths are stored under each root's on-disk spelling (symlinks resolved, the
        // file system's case): compare in that spelling too.
        let roots = RootResolver.resolve(try self.roots(options.paths, context), using: SystemPathResolver()).map(\.path)

        // This machine's host, as its ingests name it: only its files are candidates.
        let host = options.host ?? HostName.defaultHost(for: options.query.database)
        let catalogue = mode == .dryRun ? nil : try Catalogue.openForWriting(path: options.query.database, host: host,
                                                                           mustExist: true)
        // A prune that writes opened the catalogue in WAL mode: leave it readable by readers after.
        defer { if let catalogue { CatalogueLocation.leaveReadableByReaders(catalogue, context) } }
        let queries = try catalogue?.queries ?? Catalogue.openQueries(options.query.database)
        // Expired by the day rule (README, "Days"): from the UTC day after the effective expiry.
        let candidates = try queries.pruneCandidates(now: DaysLeft.start(now), host: host).filter { candidate in
            roots.contains { candidate.path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
                && ((wantExpired && candidate.expired) || (wantSuperseded && candidate.supersededBy != nil))
        }
        var records: [JSONValue] = []
        var pruned: [String] = []
        var failed = false
        for candidate in candidates {
            var reasons: [String] = []
            if wantSuperseded, let newer = candidate.supersededBy { reasons.append("superseded by \(newer)") }
            if wantExpired, candidate.expired { reasons.append("expired") }
            var action: String
            var message: String?
            // The newest profile of an app id stays unless asked for, and then only for having expired.
            if candidate.isNewestOfAppID && !(options.includeNewest && wantExpired && candidate.expired) {
                action = "kept"
                message = "the newest profile of its app id"
            } else if let changed = changedSinceCatalogued(candidate) {
                action = "kept"
                message = changed
            } else {
                switch mode {
                case .dryRun:
                    action = "would-trash"
                case .trash, .delete:
                    do {
                        if mode == .trash {
                            message = "moved to " + (try Trash.move(candidate.path, environment: context.environment))
                            action = "trashed"
                        } else {
                            guard unlink(candidate.path) == 0 else {
                                throw Trash.Failure(description: String(cString: strerror(errno)))
                            }
                            action = "deleted"
                        }
                        pruned.append(candidate.path)
                    } catch {
                        action = "failed"
                        message = String(describing: error)
                        failed = true
                        context.err("warning: \(TextSanitizer.terminalSafe(candidate.path)): not pruned: \(TextSanitizer.terminalSafe(String(describing: error)))\n")
                    }
                }
            }
            records.append(.object([
                ("action", .string(action)),
                ("reason", .string(reasons.joined(separator: ", "))),
                ("path", .string(candidate.path)),
                ("uuid", .string(candidate.uuid)),
                ("name", .string(candidate.name)),
                ("team_id", .optional(candidate.teamID)),
                ("kind", .string(candidate.kind)),
                ("effective_expiration_date", .string(candidate.effectiveExpirationDate)),
                ("superseded_by", .optional(candidate.supersededBy)),
                ("message", .optional(message)),
            ]))
        }
        if !pruned.isEmpty, let catalogue {
            try catalogue.recordPruned(pruned, at: Date())
        }
        QuerySupport.print(records, columns: columns, options.query, context)
        return failed ? ExitStatus.failure : ExitStatus.success
    }

    /// Nil when the file still holds the bytes the catalogue read; else why it is left alone.
    static func changedSinceCatalogued(_ candidate: CatalogQueries.PruneCandidate) -> String? {
        guard let bytes = try? FileBytes.read(candidate.path, limit: 16 << 20) else {
            return "cannot be read now"
        }
        guard let recorded = candidate.contentSHA256, Digest.sha256Hex(bytes) == recorded else {
            return "changed since it was catalogued; run 'catalog ingest' first"
        }
        return nil
    }

    /// The given folders made absolute, or Xcode's profile folders that exist.
    static func roots(_ paths: [String], _ context: CommandContext) throws -> [String] {
        if !paths.isEmpty {
            return try paths.map { path in
                let absolute = URL(fileURLWithPath: CatalogueLocation.absolute(path)).standardizedFileURL.path
                guard FileBytes.isDirectory(absolute) else { throw UsageError(message: "not a folder: \(path)") }
                return absolute
            }
        }
        return try XcodeFolders.existing(XcodeFolders.profiles(home: XcodeFolders.home(context)),
                                         described: "Xcode's profile folders")
    }
}
