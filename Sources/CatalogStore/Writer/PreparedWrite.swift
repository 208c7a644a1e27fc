/// A statement of ``WriteExecutor/prepareWrite(_:)``.
protocol PreparedWrite: AnyObject {
    /// Runs the statement with `values`; returns the first column of its first row, if it has one.
    @discardableResult
    func run(_ values: [SQLValue]) throws -> Int64?
}
