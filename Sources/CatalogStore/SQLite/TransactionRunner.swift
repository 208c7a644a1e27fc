/// A connection of either engine as far as transactions go: it runs statements and knows whether
/// it is inside one. Both engines nest the same way, so the logic is written once.
protocol TransactionRunner: AnyObject {
    var isInTransaction: Bool { get }
    /// How many savepoints are open inside the current transaction.
    var savepointDepth: Int { get set }
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> Int
}

extension TransactionRunner {
    /// Runs `body` in a transaction opened with `begin`: committed when it returns, rolled back when
    /// it throws. Inside another transaction it becomes a savepoint, rolling back only its own work.
    func runTransaction<T>(begin: String, _ body: () throws -> T) throws -> T {
        if isInTransaction {
            savepointDepth += 1
            defer { savepointDepth -= 1 }
            let name = "catalog_sp\(savepointDepth)"
            try execute("SAVEPOINT \(name)", [])
            do {
                let result = try body()
                try execute("RELEASE SAVEPOINT \(name)", [])
                return result
            } catch {
                _ = try? execute("ROLLBACK TO SAVEPOINT \(name)", [])
                _ = try? execute("RELEASE SAVEPOINT \(name)", [])
                throw error
            }
        }
        try execute(begin, [])
        do {
            let result = try body()
            try execute("COMMIT", [])
            return result
        } catch {
            if isInTransaction { _ = try? execute("ROLLBACK", []) }
            throw error
        }
    }
}
extension Connection: TransactionRunner {}
extension PostgreSQLConnection: TransactionRunner {}
