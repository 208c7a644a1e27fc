import Foundation

/// How old the last successful ingest may be before a query refuses to answer (`--max-age`,
/// `$CATALOG_MAX_AGE`): a whole number and a unit, `90m`, `36h`, `2d`, `1w` (or `s`).
struct MaxAge: Equatable {
    var seconds: Int
    var text: String

    static let option = ValueOption(name: "max-age", value: "duration",
                                   help: "Fail (exit 1) when the last successful ingest (with --host, that host's) is older than\nthis: 90m, 36h, 2d, 1w (default $CATALOG_MAX_AGE; unset: no limit).")

    /// Tables on a terminal get a one-line notice on stderr past this age.
    static let noticeAfter: TimeInterval = 7 * 86_400

    init?(_ text: String) {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        guard let unit = text.last.flatMap({ units[Character($0.lowercased())] }),
              let number = Int(text.dropLast()), number > 0 else { return nil }
        let (product, overflow) = number.multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        seconds = product
        self.text = text
    }

    /// `--max-age` as given, or nil.
    static func from(_ arguments: ParsedArguments) throws -> MaxAge? {
        guard let text = arguments.value(option) else { return nil }
        guard let age = MaxAge(text) else {
            throw UsageError(message: "--max-age expects a number and a unit (s, m, h, d, w), like 36h or 2d, got '\(text)'")
        }
        return age
    }

    /// `option` (`--max-age`), else `$CATALOG_MAX_AGE`, else none.
    static func resolve(_ option: MaxAge?, _ environment: [String: String]) throws -> MaxAge? {
        if let option { return option }
        guard let text = environment["CATALOG_MAX_AGE"], !text.isEmpty else { return nil }
        guard let age = MaxAge(text) else {
            throw CLIError("CATALOG_MAX_AGE expects a number and a unit (s, m, h, d, w), like 36h or 2d, got '\(text)'")
        }
        return age
    }

    /// "3 days", "5 hours", "12 minutes": how long ago, for messages.
    static func describe(_ interval: TimeInterval) -> String {
        let seconds = Int(interval)
        func plural(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }
        if seconds >= 2 * 86_400 { return plural(seconds / 86_400, "day") }
        if seconds >= 2 * 3_600 { return plural(seconds / 3_600, "hour") }
        return plural(max(0, seconds / 60), "minute")
    }
}
