import CatalogCore
import CatalogStore
import Foundation

/// `catalog crash REPORT...`: which catalogued build and dSYM each crash report came from.
enum CrashCommand: Command {
    static let name = "crash"
    static let abstract = "Find the build and dSYMs a crash report (.ips or .crash) came from."
    static let discussion: String? = """
        Reads each report (told by content: the JSON .ips of iOS 15 and macOS 12 and later, or the
        text .crash; a folder: every .ips and .crash under it, Xcode Organizer's .xccrashpoint bundles
        included; - reads stdin), and looks its main image's UUID up in the catalogue: the builds that
        hold that binary (where they are or were, host, first and last seen), the dSYMs with that UUID,
        and the same for the app's other images (its frameworks and extensions). System images are
        counted, not listed. Warns when the catalogue has the same bundle id and version under another
        UUID (a rebuild) and when the crash's version is not the catalogued build's.
        Exits 0 when every report's main image is found, 1 otherwise (a report that cannot be read
        is an error naming its file and line; the others are still answered). With --symbolicate, a
        missing symbolizer or a dSYM it cannot read is a warning and leaves the exit status as it is.
        """
    static let arguments = [ArgumentSpec(name: "report", help: "A crash report, a folder of them, or - for stdin.", variadic: true)]
    static let examples = [
        "catalog crash ~/Downloads/Signed-2026-11-20-104610.ips",
        "catalog crash ~/Library/Developer/Xcode/Products --format json",
    ]

    static let columns: [Column] = [
        Column(key: "process", header: "PROCESS"),
        Column(key: "version", header: "VERSION"),
        Column(key: "main_image", header: "UUID", display: { nested($0, "uuid") }),
        Column(key: "found", header: "BUILD", display: plainOrDash),
        Column(key: "dsym", header: "DSYM", display: plainOrDash),
        Column(key: "warnings", header: "WARNINGS", display: { value in
            guard case .array(let items) = value else { return "" }
            return items.compactMap { if case .string(let text) = $0 { text } else { nil } }.joined(separator: "; ")
        }),
        Column(key: "path", header: "REPORT"),
    ].ranked(["process", "version", "found", "main_image", "dsym", "warnings", "path"])

    @Sendable static func nested(_ value: JSONValue, _ key: String) -> String {
        if case .string(let text)? = value[key] { return text }
        return ""
    }

    @Sendable static func plainOrDash(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return "–"
    }

    static func run(_ options: CrashOptions, _ context: CommandContext) throws -> Int32 {
        let queries = try QuerySupport.queries(options.query, context)
        var records: [JSONValue] = []
        var allFound = true
        var symbolizer: Symbolizer?
        var frameTexts: [(String, [CrashSymbolication.SymbolicatedThread])] = []
        if options.symbolicate {
            symbolizer = Symbolizer.find(path: context.environment["PATH"])
            if symbolizer == nil { context.err("warning: \(Symbolizer.installHint)\n") }
        }
        for (path, read) in reports(options.inputs, context) {
            let report: CrashReport
            do {
                report = try CrashReport(bytes: try read(), path: path)
            } catch let error as DecodeError {
                context.err("error: \(error.at(path: path))\n")
                allFound = false
                continue
            } catch {
                context.err("error: \(path): \(error)\n")
                allFound = false
                continue
            }
            var (record, found, dwarfs) = try answer(report, path: path, queries: queries, options: options)
            if options.symbolicate {
                let symbolicated = CrashSymbolication(report: report, dwarfs: dwarfs, symbolizer: symbolizer)
                let threads = symbolicated.threads(all: options.allThreads) { context.err("warning: \(path): \($0)\n") }
                if case .object(var fields) = record {
                    let crashed = threads.first { $0.crashed }
                    fields.append(("crashed_thread", crashed.map { $0.json } ?? .null))
                    if options.allThreads { fields.append(("threads", .array(threads.map(\.json)))) }
                    record = .object(fields)
                }
                if options.query.format == .table { frameTexts.append((path, threads)) }
            }
            records.append(record)
            allFound = allFound && found
        }
        QuerySupport.print(records, columns: columns, options.query, context)
        for (path, threads) in frameTexts {
            context.out("\n" + CrashSymbolication.text(path: path, threads: threads))
        }
        return allFound ? ExitStatus.success : ExitStatus.failure
    }

    /// Each report named: a file, `-` (stdin), or the `.ips` and `.crash` files under a folder.
    static func reports(_ inputs: [String], _ context: CommandContext) -> [(String, () throws -> [UInt8])] {
        var found: [(String, () throws -> [UInt8])] = []
        for input in inputs {
            if input == "-" {
                found.append(("-", { Array(FileHandle.standardInput.readDataToEndOfFile()) }))
            } else if FileBytes.isDirectory(input) {
                let walker = FileManager.default.enumerator(atPath: input)
                var names: [String] = []
                while let name = walker?.nextObject() as? String {
                    if name.hasSuffix(".ips") || name.hasSuffix(".crash") { names.append(name) }
                }
                for name in names.sorted() {
                    let file = input + "/" + name
                    found.append((file, { try FileBytes.read(file, limit: CrashReport.maximumSize) }))
                }
            } else {
                found.append((input, { try FileBytes.read(input, limit: CrashReport.maximumSize) }))
            }
        }
        return found
    }

    /// The report's row, whether its main image was found, and the DWARF file of each image UUID
    /// a catalogued dSYM has (for `--symbolicate`).
    static func answer(_ report: CrashReport, path: String, queries: CatalogQueries,
                       options: CrashOptions) throws -> (JSONValue, Bool, [String: String]) {
        let now = options.query.asOf
        var warnings: [String] = []
        var dwarfs: [String: String] = [:]
        // A dSYM only in a zip is read from it when --symbolicate asks (see ``CrashSymbolication``).
        var zipped: [String: DebugSymbolsMatch] = [:]
        func lookup(_ image: CrashReport.Image) throws -> (builds: [BuildSummary], dsyms: [JSONValue]) {
            guard let uuid = image.uuid else { return ([], []) }
            var filter = CatalogQueries.BuildFilter()
            filter.binaryUUID = uuid
            filter.presence = .any
            filter.host = options.query.host
            let builds = try queries.builds(filter)
            let dsyms: [JSONValue] = builds.compactMap { build in
                guard let match = build.binaryMatch, let dsym = match.dsymPath else { return nil }
                let file = build.path + "/" + dsym
                if dwarfs[uuid] == nil, build.removedAt == nil, FileManager.default.isReadableFile(atPath: file) { dwarfs[uuid] = file }
                return .object([("path", .string(file)), ("uuid", .string(uuid)), ("arch", .optional(match.arch))])
            }
            // And those kept outside archives: a .dSYM folder, a zip of one or many.
            var loose: [JSONValue] = []
            for match in try queries.debugSymbols(uuid: uuid, host: options.query.host) {
                loose.append(match.crashJSON)
                if dwarfs[uuid] == nil, match.removedAt == nil, !match.isZip,
                   FileManager.default.isReadableFile(atPath: match.dwarfPath) { dwarfs[uuid] = match.dwarfPath }
                if dwarfs[uuid] == nil, match.removedAt == nil, match.isZip { zipped[uuid] = zipped[uuid] ?? match }
            }
            return (builds.filter { $0.binaryMatch?.executablePath != nil }, dsyms + loose)
        }
        func imageObject(_ image: CrashReport.Image, withPath: Bool) throws -> (JSONValue, [BuildSummary]) {
            let (builds, dsyms) = try lookup(image)
            var fields: [(String, JSONValue)] = [("name", .string(image.name)), ("uuid", .optional(image.uuid)),
                                                 ("arch", .optional(image.arch))]
            if withPath { fields.append(("path", .optional(image.path))) }
            fields += [("builds", .array(builds.map { $0.output(now: now) })), ("dsyms", .array(dsyms))]
            return (.object(fields), builds)
        }

        let main = report.mainImage
        var mainObject: JSONValue = .null
        var mainBuilds: [BuildSummary] = []
        var mainDSYMs: [JSONValue] = []
        if let main {
            (mainObject, mainBuilds) = try imageObject(main, withPath: false)
            if case .array(let list)? = mainObject["dsyms"] { mainDSYMs = list }
            if main.uuid == nil { warnings.append("the report gives no UUID for its main image") }
        } else {
            warnings.append("the report lists no main image")
        }
        // The app's own images: those inside the bundle the main executable is in.
        let bundle = main?.path.flatMap { path in path.range(of: ".app/", options: .backwards).map { String(path[..<$0.upperBound]) } }
        var own: [JSONValue] = []
        var system = 0
        for image in report.images where !image.isMain {
            if let bundle, image.path?.hasPrefix(bundle) == true {
                own.append(try imageObject(image, withPath: true).0)
            } else {
                system += 1
            }
        }

        let crashVersion = [report.shortVersion, report.build.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        if let build = mainBuilds.first, build.shortVersion != report.shortVersion || build.build != report.build,
           report.shortVersion != nil || report.build != nil {
            warnings.append("the crash says \(crashVersion); the catalogued build with its UUID is \(build.formattedVersion)")
        }
        if mainBuilds.isEmpty, let bundleID = report.bundleID, let version = report.shortVersion {
            var filter = CatalogQueries.BuildFilter()
            filter.bundleID = bundleID
            filter.shortVersion = version
            filter.build = report.build
            filter.presence = .any
            let others = try queries.builds(filter)
            let uuids = Set(others.flatMap { build in
                (build.signing?.executables.filter { $0.role == .main } ?? []).flatMap { $0.architectures.compactMap(\.uuid) }
            }).sorted()
            if let other = others.first {
                let listed = uuids.prefix(3).joined(separator: ", ") + (uuids.count > 3 ? ", … (\(uuids.count))" : "")
                warnings.append("rebuilt? the catalogued \(other.formattedVersion) has UUID " + (uuids.isEmpty ? "unknown" : listed))
            }
        }

        let found = !mainBuilds.isEmpty
        let first = mainBuilds.first
        let record = JSONValue.object([
            ("type", .string("crash")),
            ("path", .string(path)),
            ("format", .string(report.format.rawValue)),
            ("incident_id", .optional(report.incidentID)),
            ("process", .optional(report.process)),
            ("bundle_id", .optional(report.bundleID)),
            ("short_version", .optional(report.shortVersion)),
            ("build", .optional(report.build)),
            ("version", crashVersion.isEmpty ? .null : .string(crashVersion)),
            ("os_version", .optional(report.osVersion)),
            ("crashed_at", .optional(report.crashedAt)),
            ("main_image", mainObject),
            ("found", first.map { .string("\($0.bundleID ?? "?") \($0.formattedVersion) \($0.sourceKind.rawValue) \($0.path)") } ?? .null),
            ("dsym", mainDSYMs.first.flatMap { $0["path"] } ?? .null),
            ("images", .array(own)),
            ("system_image_count", .int(Int64(system))),
            ("warnings", .strings(warnings)),
        ])
        for (uuid, match) in zipped where dwarfs[uuid] == nil { dwarfs[uuid] = match.dwarfPath }
        return (record, found, dwarfs)
    }
}
