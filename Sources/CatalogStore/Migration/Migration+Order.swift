extension Migration {
    /// Throws unless `migrations` have positive, strictly increasing ids: what both engines'
    /// migrators require of their lists.
    static func checkOrder(_ migrations: [Migration]) throws {
        for (previous, next) in zip(migrations, migrations.dropFirst()) where next.id <= previous.id {
            throw StoreError.invalidMigrations(
                reason: "migration \(next.id)_\(next.name) does not follow \(previous.id)_\(previous.name)")
        }
        if let first = migrations.first, first.id <= 0 {
            throw StoreError.invalidMigrations(reason: "migration ids start at 1, found \(first.id)")
        }
    }
}
