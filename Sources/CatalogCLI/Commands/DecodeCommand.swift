import CatalogCore
import Foundation

/// `catalog decode FILE...`: decodes profiles, Info.plists, .app, .xcarchive and .ipa and prints
/// them — one JSON object for one file, an array for several, or a readable summary.
enum DecodeCommand: Command {
    static let name = "decode"
    static let abstract = "Decode profiles, Info.plists, .app bundles, .xcarchives, .ipas and app zips."
    static let discussion: String? = """
        Detects what each path is from its content and layout. Prints one JSON object per file
        (an array when several), or a summary with --format table. Exits 1 when any file failed.
        """
    static let arguments = [ArgumentSpec(name: "file", help: "A file or bundle folder to decode.", variadic: true)]
    static let examples = [
        "catalog decode App.mobileprovision",
        "catalog decode --format table MyApp.ipa",
    ]

    static func run(_ options: DecodeOptions, _ context: CommandContext) throws -> Int32 {
        var objects: [JSONValue] = []
        var failed = false
        for path in options.paths {
            do {
                let decoded = try FileDecoder.decode(path: path)
                for warning in decoded.warnings {
                    context.err("warning: \(TextSanitizer.terminalSafe(path)): \(TextSanitizer.terminalSafe(warning))\n")
                }
                objects.append(decoded.json(path: path))
            } catch let error as DecodeError {
                failed = true
                context.err("error: \(path): \(TextSanitizer.terminalSafe(error.message))\n")
            }
        }
        if options.format == .table {
            let view = InspectView(now: Date(), color: context.useColor)
            context.out(objects.map { view.render($0, width: context.terminalWidth) }.joined(separator: "\n"))
        } else if options.paths.count == 1 {
            if let object = objects.first { context.out(object.serialized(pretty: true) + "\n") }
        } else {
            context.out(JSONValue.array(objects).serialized(pretty: true) + "\n")
        }
        return failed ? 1 : 0
    }
}
