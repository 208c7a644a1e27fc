import CatalogCore

/// Renders records in the chosen format.
struct RecordPrinter {
    var format: OutputFormat
    var columns: [Column]
    var terminalWidth: Int?
    var color: Bool

    func render(_ records: [JSONValue]) -> String {
        switch format {
        case .json:
            return JSONValue.array(records).serialized(pretty: true) + "\n"
        case .ndjson:
            return records.map { $0.serialized() + "\n" }.joined()
        case .csv:
            return CSVRenderer.render(records, columns: columns, terminalSafe: terminalWidth != nil)
        case .table:
            return TableRenderer(columns: columns, width: terminalWidth, color: color).render(records)
        }
    }
}
