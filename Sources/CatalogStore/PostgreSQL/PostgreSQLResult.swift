import Foundation

/// One `PGresult`, cleared when the value goes away, read into ``Row``s of ``SQLValue``s.
///
/// Values arrive in text format and are typed by their column's type OID, so rows from PostgreSQL
/// look like rows from SQLite: integers (`int2`, `int4`, `int8`, `oid`, and `bool` as 0/1) are
/// `.integer`, floating point and `numeric` are `.real` (a `numeric` without a fraction, as
/// `sum(bigint)` returns, is `.integer`), `bytea` is `.blob`, and everything else is `.text`.
final class PostgreSQLResult {
    private let pq: LibPQ
    let handle: OpaquePointer

    init(pq: LibPQ, handle: OpaquePointer) {
        self.pq = pq
        self.handle = handle
    }

    deinit {
        pq.clear(handle)
    }

    var status: Int32 { pq.resultStatus(handle) }
    var rowCount: Int { Int(pq.ntuples(handle)) }
    var columnCount: Int { Int(pq.nfields(handle)) }

    /// Rows an INSERT, UPDATE or DELETE changed (0 for other commands).
    var changes: Int {
        guard let text = pq.cmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    var columnNames: [String] { names.names }

    /// Shared by every row of the result.
    private lazy var names = ColumnNames((0..<columnCount).map { column in
        pq.fname(handle, Int32(column)).map { String(cString: $0) } ?? ""
    })

    func row(_ index: Int) -> Row {
        Row(names: names, values: (0..<columnCount).map { value(row: index, column: $0) })
    }

    var rows: [Row] { (0..<rowCount).map(row) }

    func value(row: Int, column: Int) -> SQLValue {
        let (row, column) = (Int32(row), Int32(column))
        if pq.getisnull(handle, row, column) != 0 { return .null }
        guard let pointer = pq.getvalue(handle, row, column) else { return .null }
        let length = Int(pq.getlength(handle, row, column))
        let text = String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
        switch pq.ftype(handle, column) {
        case Self.bool:
            return .integer(text == "t" ? 1 : 0)
        case Self.int2, Self.int4, Self.int8, Self.oid:
            return Int64(text).map(SQLValue.integer) ?? .text(text)
        case Self.float4, Self.float8:
            return Double(text).map(SQLValue.real) ?? .text(text)
        case Self.numeric:
            if let integer = Int64(text) { return .integer(integer) }
            return Double(text).map(SQLValue.real) ?? .text(text)
        case Self.bytea:
            return Self.decodeByteaHex(text).map(SQLValue.blob) ?? .text(text)
        default:
            return .text(text)
        }
    }

    /// The server's error fields for a failed result.
    func error(sql: String?) -> PostgreSQLError {
        func field(_ code: Int32) -> String? {
            pq.resultErrorField(handle, code).map { String(cString: $0) }
        }
        let message = field(LibPQ.diagnosticPrimaryMessage)
            ?? pq.resultErrorMessage(handle).map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines)
            ?? "unknown error"
        return PostgreSQLError(sqlState: field(LibPQ.diagnosticSQLState) ?? PostgreSQLError.internalError,
                               message: message, detail: field(LibPQ.diagnosticDetail), sql: sql)
    }

    /// `bytea` output in hex format (`\x0a1b…`, the default since PostgreSQL 9.0).
    static func decodeByteaHex(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x") else { return nil }
        return HexDigits.bytes(utf8[2...])
    }

    // Type OIDs (pg_type.dat), stable across PostgreSQL versions.
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let oid: UInt32 = 26
    static let float4: UInt32 = 700
    static let float8: UInt32 = 701
    static let numeric: UInt32 = 1700
}
