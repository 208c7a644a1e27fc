import CCatalogSQLite

/// A prepared statement. Finalized when the last reference goes away.
///
/// Not `Sendable`: it belongs to its ``Connection``, which is used from one isolation domain.
package final class Statement {
    package let sql: String
    private let handle: OpaquePointer
    /// The connection's handle, for error messages. SQLite keeps the connection alive until every
    /// statement is finalized (the connection is closed with `sqlite3_close_v2`).
    private let db: OpaquePointer
    /// Set while a caller iterates rows, so the connection's cache hands out a fresh statement to
    /// a nested use of the same SQL instead of resetting this one under the caller's feet.
    var isBusy = false
    /// Parameter name (with its prefix) → index, read from SQLite once: a cached statement with many
    /// named parameters is bound for every row, and asking SQLite by name scans them all each time.
    private lazy var parameterIndexes: [String: Int] = {
        var indexes: [String: Int] = [:]
        for index in 0..<Int(sqlite3_bind_parameter_count(handle)) {
            if let name = sqlite3_bind_parameter_name(handle, Int32(index + 1)) {
                indexes[String(cString: name)] = index + 1
            }
        }
        return indexes
    }()

    init(db: OpaquePointer, sql: String, persistent: Bool) throws {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        // `tail` points into the C string passed to prepare, so it is only read inside withCString:
        // an implicitly bridged String argument is a temporary freed as soon as the call returns.
        let (code, hasTail) = sql.withCString { text -> (Int32, Bool) in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(db, text, -1, flags, &statement, &tail)
            guard code == SQLITE_OK, let tail, tail.pointee != 0 else { return (code, false) }
            return (code, !String(cString: tail).allSatisfy(\.isWhitespace))
        }
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(db: db, code: code, sql: sql)
        }
        if hasTail {
            sqlite3_finalize(statement)
            throw SQLiteError(extendedCode: SQLITE_MISUSE,
                              message: "more than one statement; use executeScript for scripts", sql: sql)
        }
        self.sql = sql
        self.handle = statement
        self.db = db
    }

    deinit {
        sqlite3_finalize(handle)
        arena.deallocate()
    }

    /// Where ``bind(_:)-([SQLValue])`` copies the text and blob parameters of one run, back to
    /// back, to bind them with `SQLITE_STATIC`: SQLite then reads them in place instead of making
    /// its own copy of each, a malloc and a free per parameter (74 a profile at ingest). They stay
    /// valid until the next `bind(_:)` of an array, which clears every binding before it writes
    /// the arena again (as `reset()` does after each run), and the statement is finalized before
    /// the arena is freed.
    private var arena = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 16)

    // MARK: Binding (indexes are 1-based, as in SQLite)

    package var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    package func bind(_ value: SQLValue, at index: Int) throws {
        let index = Int32(index)
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            // Bound with its byte count so the text round-trips exactly. An empty buffer may have
            // no base address, and a NULL pointer would bind NULL rather than ''.
            var text = text
            code = text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    guard let base = chars.baseAddress, !chars.isEmpty else {
                        return sqlite3_bind_text64(handle, index, "", 0, ccatalog_sqlite_transient(),
                                                   UInt8(SQLITE_UTF8))
                    }
                    return sqlite3_bind_text64(handle, index, base, UInt64(chars.count),
                                               ccatalog_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { raw in
                raw.isEmpty
                    ? sqlite3_bind_zeroblob(handle, index, 0)
                    : sqlite3_bind_blob64(handle, index, raw.baseAddress, UInt64(raw.count),
                                          ccatalog_sqlite_transient())
            }
        }
        try check(code)
    }

    /// Binds a named parameter. `name` may carry its prefix (`:uuid`, `@uuid`, `$uuid`) or not (`uuid`).
    package func bind(_ value: SQLValue, named name: String) throws {
        let candidates = name.first.map { ":@$".contains($0) } == true ? [name] : [":", "@", "$"].map { $0 + name }
        for candidate in candidates {
            if let index = parameterIndexes[candidate] { return try bind(value, at: index) }
        }
        throw SQLiteError(extendedCode: SQLITE_RANGE, message: "no parameter named \(name)", sql: sql)
    }

    /// Binds every positional parameter; the count must match the statement's. Text and blobs are
    /// copied into the statement's arena and bound from there without SQLite copying them again.
    package func bind(_ values: [SQLValue]) throws {
        guard values.count == parameterCount else {
            throw SQLiteError(extendedCode: SQLITE_RANGE,
                              message: "expected \(parameterCount) parameters, got \(values.count)", sql: sql)
        }
        var needed = 0
        for value in values {
            switch value {
            case .text(let text): needed += text.utf8.count
            case .blob(let bytes): needed += bytes.count
            default: break
            }
        }
        // No binding may point into the arena while it is rewritten or replaced (reset() cleared
        // them after a run; a second bind without a reset would not have).
        sqlite3_clear_bindings(handle)
        if needed > arena.count {
            arena.deallocate()
            arena = .allocate(byteCount: max(needed, arena.count * 2), alignment: 16)
        }
        let base = arena.baseAddress!
        var offset = 0
        for (position, value) in values.enumerated() {
            let index = Int32(position + 1)
            let code: Int32
            switch value {
            case .text(let text):
                var text = text
                let count = text.withUTF8 { bytes -> Int in
                    if let source = bytes.baseAddress, !bytes.isEmpty {
                        (base + offset).copyMemory(from: source, byteCount: bytes.count)
                    }
                    return bytes.count
                }
                // An empty text still gets a pointer (a NULL one would bind NULL, not '').
                code = sqlite3_bind_text64(handle, index, (base + offset).assumingMemoryBound(to: CChar.self),
                                           UInt64(count), ccatalog_sqlite_static(), UInt8(SQLITE_UTF8))
                offset += count
            case .blob(let bytes):
                if bytes.isEmpty {
                    code = sqlite3_bind_zeroblob(handle, index, 0)
                } else {
                    bytes.withUnsafeBytes { (base + offset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                    code = sqlite3_bind_blob64(handle, index, base + offset, UInt64(bytes.count), ccatalog_sqlite_static())
                    offset += bytes.count
                }
            default:
                try bind(value, at: position + 1)
                continue
            }
            try check(code)
        }
    }

    /// Binds named parameters; every parameter of the statement must be given.
    package func bind(_ values: [String: SQLValue]) throws {
        guard values.count == parameterCount else {
            throw SQLiteError(extendedCode: SQLITE_RANGE,
                              message: "expected \(parameterCount) parameters, got \(values.count)", sql: sql)
        }
        for (name, value) in values { try bind(value, named: name) }
    }

    /// Makes the statement ready to run again with new bindings.
    package func reset() {
        // sqlite3_reset repeats the last step's error, which was already thrown from step().
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Stepping

    /// Runs the statement to its next row: true when a row is ready, false when done.
    package func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            throw SQLiteError(db: db, code: code, sql: sql)
        }
    }

    // MARK: Columns (0-based)

    package var columnCount: Int { Int(sqlite3_column_count(handle)) }

    package var columnNames: [String] { names.names }

    /// Made on the first row and shared by every row after it (the statement is prepared once).
    private lazy var names = ColumnNames((0..<columnCount).map { index in
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    })

    package func value(at index: Int) -> SQLValue {
        let index = Int32(index)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            // Ask for the text before its length (SQLite's documented order).
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let blob = sqlite3_column_blob(handle, index) else { return .blob([]) }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default:
            return .null
        }
    }

    package func int64(at index: Int) -> Int64? { value(at: index).int64 }
    package func string(at index: Int) -> String? { value(at: index).string }
    package func double(at index: Int) -> Double? { value(at: index).double }
    package func blob(at index: Int) -> [UInt8]? { value(at: index).blob }

    /// The current row, copied.
    package func row() -> Row {
        Row(names: names, values: (0..<columnCount).map(value(at:)))
    }

    // MARK: Private

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw SQLiteError(db: db, code: code, sql: sql) }
    }
}

extension SQLiteError {
    /// The connection's current error, or the bare code's text when the connection has none.
    init(db: OpaquePointer?, code: Int32, sql: String?) {
        let extended = db.map { sqlite3_extended_errcode($0) } ?? code
        // Trust the connection's code only when it agrees with the call's primary code.
        let useExtended = (extended & 0xFF) == (code & 0xFF)
        let message = useExtended ? db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } : nil
        self.init(extendedCode: useExtended ? extended : code,
                  message: message ?? String(cString: sqlite3_errstr(code)), sql: sql)
    }
}
