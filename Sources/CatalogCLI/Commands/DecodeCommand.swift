import CatalogCore
import Foundation

/// `catalog decode FILE...`: decodes profiles, Info.plists, .app, .xcarchive and .ipa and prints
/// them — one JSON object for one file, an array for several, or a readable summary.
enum DecodeCommand: Command {
    static let name = "decode"
    static let abstract = "Decode profiles, Info.plists, .app bundles, .xcarchives and .ipas."
    static let discussion: String? = """
        Detects what each path is from its content and layout. Prints one JSON object per file
        (an array when several), or a summary with --format table. Exits 1 when any file failed.
        """
    static let arguments = [ArgumentSpec(name: "file", help: "A file or bundle folder to decode.", variadic: true)]
    static let options = [
        OptionSpec(name: "format", value: "format", help: "json (default) or table.", choices: ["json", "table"]),
        OptionSpec(name: "json", help: "Shorthand for --format json."),
    ]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let format = try arguments.choice("format", among: ["json", "table"]) ?? "json"
        if arguments.flag("json"), format != "json" { throw UsageError(message: "--json conflicts with --format \(format)") }
        var objects: [JSONValue] = []
        var failed = false
        for path in arguments.positionals {
            do {
                objects.append(try FileDecoder.decode(path: path).json(path: path))
            } catch let error as DecodeError {
                failed = true
                context.err("error: \(path): \(TextSanitizer.terminalSafe(error.message))\n")
            }
        }
        if format == "table" {
            context.out(objects.map(DecodeSummary.render).joined(separator: "\n"))
        } else if arguments.positionals.count == 1 {
            if let object = objects.first { context.out(object.serialized(pretty: true) + "\n") }
        } else {
            context.out(JSONValue.array(objects).serialized(pretty: true) + "\n")
        }
        return failed ? 1 : 0
    }
}

/// The `--format table` view of one decoded file: `key: value` lines, nested objects indented.
enum DecodeSummary {
    static let skipped: Set<String> = ["entitlements", "unknown_keys", "devices"]

    static func render(_ object: JSONValue) -> String {
        var out = ""
        write(object, indent: 0, to: &out)
        return out
    }

    private static func write(_ value: JSONValue, indent: Int, to out: inout String) {
        guard case .object(let pairs) = value else { return }
        let pad = String(repeating: " ", count: indent)
        for (key, field) in pairs {
            switch field {
            case .object where key == "profile":
                out += "\(pad)\(key):\n"
                write(field, indent: indent + 2, to: &out)
            case .array(let items) where key == "certificates":
                out += "\(pad)\(key):\n"
                for item in items {
                    write(item, indent: indent + 4, to: &out)
                    out += "\n"
                }
            case .object where skipped.contains(key), .array where skipped.contains(key):
                if case .object(let inner) = field { out += "\(pad)\(key): \(inner.count) keys\n" }
                if case .array(let inner) = field { out += "\(pad)\(key): \(inner.count)\n" }
            default:
                out += "\(pad)\(key): \(TextSanitizer.terminalSafe(Column.plain(field)))\n"
            }
        }
    }
}
