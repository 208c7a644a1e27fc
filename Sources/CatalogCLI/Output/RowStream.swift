import CatalogCore
import Foundation

/// Prints a listing's rows as they come: JSON, NDJSON and CSV write each row when it arrives (the
/// first is flushed at once, so a pipe sees it before the last row is read); a table, which sizes
/// its columns from every row, is printed at the end. An empty listing prints nothing, except
/// JSON's `[]` (a cron job mails whatever reaches stdout; a script parses `[]`), and tells a person
/// at a terminal `(no results)` on stderr. Every listing, streamed or collected, prints through it.
struct RowStream {
    private let format: OutputFormat
    /// A table's columns.
    private let columns: [Column]
    /// CSV's columns: the rows' JSON keys (``CSVRenderer``).
    private let keys: [String]
    private let context: CommandContext
    private var count = 0
    private var tableRows: [JSONValue] = []
    private var bytes: [UInt8] = []
    /// JSON and NDJSON rows of records, written member by member (``write(_:now:)``).
    private var objectBytes = JSONObjectBytes()

    /// CSV written to a terminal shows control characters escaped (asked once: it is an ioctl).
    private let terminalSafe: Bool

    init(format: OutputFormat, columns: [Column], keys: [String], context: CommandContext) {
        self.format = format
        self.columns = columns
        self.keys = keys
        self.context = context
        terminalSafe = context.terminalWidth != nil
    }

    /// How many rows were written.
    var rowCount: Int { count }

    mutating func write(_ row: JSONValue) {
        count += 1
        bytes.removeAll(keepingCapacity: true)
        switch format {
        case .json:
            // The bytes `JSONValue.array(rows).serialized(pretty: true)` would give, a row at a time.
            bytes.append(contentsOf: jsonSeparator.utf8)
            row.write(to: &bytes, pretty: true, indent: 2)
        case .ndjson:
            row.write(to: &bytes, pretty: false, indent: 0)
            bytes.append(UInt8(ascii: "\n"))
        case .csv:
            if count == 1 { bytes.append(contentsOf: CSVRenderer.header(keys, terminalSafe: terminalSafe).utf8) }
            bytes.append(contentsOf: CSVRenderer.line(row, keys: keys, terminalSafe: terminalSafe).utf8)
        case .table:
            tableRows.append(row)
            return
        }
        emit(bytes)
    }

    /// What precedes the current row of a JSON array: the bytes
    /// `JSONValue.array(rows).serialized(pretty: true)` would put there.
    private var jsonSeparator: String { count == 1 ? "[\n  " : ",\n  " }

    /// Writes a row's bytes; the first is flushed at once.
    private func emit(_ row: [UInt8]) {
        context.out(row)
        if count == 1 { context.flush() }
    }

    /// Writes a record's row: JSON and NDJSON straight from its members into bytes (a listing of
    /// 20,000 profiles made, wrote and freed a tree of 28 values for each), the same bytes as
    /// ``write(_:)`` of its ``StreamedRecord/output(now:)``, which tables and CSV still take.
    mutating func write<Record: StreamedRecord>(_ record: Record, now: Date) {
        switch format {
        case .json:
            count += 1
            objectBytes.start(after: jsonSeparator, pretty: true, indent: 2)
        case .ndjson:
            count += 1
            objectBytes.start(pretty: false, indent: 0)
        case .csv, .table:
            write(record.output(now: now))
            return
        }
        record.output(now: now, into: &objectBytes)
        objectBytes.finish()
        if format == .ndjson { objectBytes.appendLineFeed() }
        emit(objectBytes.bytes)
    }

    mutating func finish() {
        switch format {
        case .json: context.out(count == 0 ? "[]\n" : "\n]\n")
        case .table where count > 0:
            context.out(TableRenderer(columns: columns, width: context.tableWidth, color: context.useColor).render(tableRows))
        default: break
        }
        if count == 0, context.stderrIsTerminal, format != .json { context.err("(no results)\n") }
    }
}
