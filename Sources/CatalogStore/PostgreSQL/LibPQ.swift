#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// The libpq functions the PostgreSQL engine calls, resolved with `dlopen`/`dlsym` the first time a
/// PostgreSQL catalogue is named — never at link time. A `catalog` binary therefore has no libpq in
/// its dynamic dependencies: copied alone to a machine without libpq it still serves SQLite, and
/// only a `postgresql://` catalogue needs the library (``LibPQError/libraryNotFound(tried:reason:)``
/// says what to install). No header is needed to build either: the signatures below are libpq's
/// stable C API (`libpq-fe.h`, unchanged since PostgreSQL 9.x) written as `@convention(c)` types.
///
/// The table is immutable and made of C function pointers, so it is `Sendable`; ``shared`` is
/// loaded once, thread-safely (a lazily initialised global), and every connection uses it.
package struct LibPQ: Sendable {
    // Opaque handles: `PGconn *` and `PGresult *`.
    /// `PQconnectdbParams(keywords, values, expand_dbname)`.
    typealias ConnectDBParams = @convention(c) (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?,
                                                Int32) -> OpaquePointer?
    typealias ConnectionInt = @convention(c) (OpaquePointer?) -> Int32
    typealias ConnectionText = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    typealias Finish = @convention(c) (OpaquePointer?) -> Void
    typealias Exec = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
    /// `PQexecParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)`.
    typealias ExecParams = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt32>?,
                                           UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
                                           UnsafePointer<Int32>?, Int32) -> OpaquePointer?
    /// `PQprepare(conn, stmtName, query, nParams, paramTypes)`.
    typealias Prepare = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32,
                                        UnsafePointer<UInt32>?) -> OpaquePointer?
    /// `PQexecPrepared(conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)`.
    typealias ExecPrepared = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32,
                                             UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
                                             UnsafePointer<Int32>?, Int32) -> OpaquePointer?
    typealias ResultInt = @convention(c) (OpaquePointer?) -> Int32
    typealias ResultText = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    typealias ResultField = @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?
    typealias ResultType = @convention(c) (OpaquePointer?, Int32) -> UInt32
    typealias ResultCell = @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    typealias ResultCellInt = @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    typealias Clear = @convention(c) (OpaquePointer?) -> Void
    typealias NoticeProcessor = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void
    typealias SetNoticeProcessor = @convention(c) (OpaquePointer?, NoticeProcessor?, UnsafeMutableRawPointer?)
        -> NoticeProcessor?
    package typealias LibraryVersion = @convention(c) () -> Int32

    /// Where the library was found (the name or path given to `dlopen`).
    package let location: String

    let connectdbParams: ConnectDBParams
    let status: ConnectionInt
    let errorMessage: ConnectionText
    let transactionStatus: ConnectionInt
    let serverVersion: ConnectionInt
    let finish: Finish
    let exec: Exec
    let execParams: ExecParams
    let prepare: Prepare
    let execPrepared: ExecPrepared
    let resultStatus: ResultInt
    let resultErrorMessage: ResultText
    let resultErrorField: ResultField
    let ntuples: ResultInt
    let nfields: ResultInt
    let fname: ResultField
    let ftype: ResultType
    let getvalue: ResultCell
    let getlength: ResultCellInt
    let getisnull: ResultCellInt
    let cmdTuples: ResultText
    let clear: Clear
    let setNoticeProcessor: SetNoticeProcessor
    /// `PQlibVersion`: e.g. 150004 for 15.4.
    package let libraryVersion: LibraryVersion

    /// libpq as found on this machine, loaded on first use; the same answer for the process's life.
    package static let shared: Result<LibPQ, LibPQError> =
        load(candidates: candidates(environment: ProcessInfo.processInfo.environment))

    /// The library or the reason it cannot be used.
    package static func loaded() throws(LibPQError) -> LibPQ {
        try shared.get()
    }

    /// The environment variable naming libpq's path, for a library outside the places searched.
    package static let overrideVariable = "CATALOG_LIBPQ"

    /// What `dlopen` is asked for, in order: `$CATALOG_LIBPQ` alone when set, else the platform's
    /// soname (found through the loader's search path) and then the usual install locations.
    package static func candidates(environment: [String: String]) -> [String] {
        if let path = environment[overrideVariable], !path.isEmpty { return [path] }
        #if canImport(Darwin)
        return ["libpq.5.dylib",
                "/opt/homebrew/opt/libpq/lib/libpq.5.dylib",     // Homebrew on Apple silicon
                "/usr/local/opt/libpq/lib/libpq.5.dylib",        // Homebrew on Intel
                "/Applications/Postgres.app/Contents/Versions/latest/lib/libpq.5.dylib"]
        #else
        return ["libpq.so.5", "libpq.so"]
        #endif
    }

    /// Loads the first candidate that opens and resolves every function.
    package static func load(candidates: [String]) -> Result<LibPQ, LibPQError> {
        var reasons: [String] = []
        for candidate in candidates {
            guard let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? "\(candidate): cannot be opened")
                continue
            }
            do {
                return .success(try LibPQ(handle: handle, location: candidate))
            } catch {
                dlclose(handle)
                return .failure(error)
            }
        }
        return .failure(.libraryNotFound(tried: candidates, reason: reasons.last ?? "no candidates"))
    }

    /// Resolves every function from an opened library; the handle stays open for the process's life.
    private init(handle: UnsafeMutableRawPointer, location: String) throws(LibPQError) {
        func symbol<F>(_ name: String, as type: F.Type) throws(LibPQError) -> F {
            guard let address = dlsym(handle, name) else {
                throw LibPQError.missingFunction(name: name, library: location)
            }
            return unsafeBitCast(address, to: type)
        }
        self.location = location
        connectdbParams = try symbol("PQconnectdbParams", as: ConnectDBParams.self)
        status = try symbol("PQstatus", as: ConnectionInt.self)
        errorMessage = try symbol("PQerrorMessage", as: ConnectionText.self)
        transactionStatus = try symbol("PQtransactionStatus", as: ConnectionInt.self)
        serverVersion = try symbol("PQserverVersion", as: ConnectionInt.self)
        finish = try symbol("PQfinish", as: Finish.self)
        exec = try symbol("PQexec", as: Exec.self)
        execParams = try symbol("PQexecParams", as: ExecParams.self)
        prepare = try symbol("PQprepare", as: Prepare.self)
        execPrepared = try symbol("PQexecPrepared", as: ExecPrepared.self)
        resultStatus = try symbol("PQresultStatus", as: ResultInt.self)
        resultErrorMessage = try symbol("PQresultErrorMessage", as: ResultText.self)
        resultErrorField = try symbol("PQresultErrorField", as: ResultField.self)
        ntuples = try symbol("PQntuples", as: ResultInt.self)
        nfields = try symbol("PQnfields", as: ResultInt.self)
        fname = try symbol("PQfname", as: ResultField.self)
        ftype = try symbol("PQftype", as: ResultType.self)
        getvalue = try symbol("PQgetvalue", as: ResultCell.self)
        getlength = try symbol("PQgetlength", as: ResultCellInt.self)
        getisnull = try symbol("PQgetisnull", as: ResultCellInt.self)
        cmdTuples = try symbol("PQcmdTuples", as: ResultText.self)
        clear = try symbol("PQclear", as: Clear.self)
        setNoticeProcessor = try symbol("PQsetNoticeProcessor", as: SetNoticeProcessor.self)
        libraryVersion = try symbol("PQlibVersion", as: LibraryVersion.self)
    }
}

// MARK: - libpq constants (libpq-fe.h, postgres_ext.h)

extension LibPQ {
    /// `ConnStatusType.CONNECTION_OK`.
    static let connectionOK: Int32 = 0
    /// `ExecStatusType` values.
    static let emptyQuery: Int32 = 0
    static let commandOK: Int32 = 1
    static let tuplesOK: Int32 = 2
    /// `PGTransactionStatusType` values.
    static let transactionIdle: Int32 = 0
    static let transactionActive: Int32 = 1
    static let transactionInBlock: Int32 = 2
    static let transactionInError: Int32 = 3
    /// `PG_DIAG_*` field codes for ``resultErrorField``.
    static let diagnosticSQLState = Int32(UInt8(ascii: "C"))
    static let diagnosticPrimaryMessage = Int32(UInt8(ascii: "M"))
    static let diagnosticDetail = Int32(UInt8(ascii: "D"))
    static let diagnosticConstraint = Int32(UInt8(ascii: "n"))
}
