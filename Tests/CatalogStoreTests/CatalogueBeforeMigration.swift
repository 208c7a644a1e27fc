import Testing
@testable import CatalogStore

/// For the tests of one migration: a catalogue at `path` migrated up to the migration named `name`
/// (not included), holding the one profile their rows refer to — 'P-1', id 7, seen at `now`.
func catalogue(before name: String, at path: String, now: String) throws -> Connection {
    let migration = try #require(Migration.all.firstIndex { $0.name == name })
    let old = try Connection(path: path)
    try Migrator(migrations: Array(Migration.all.prefix(migration))).migrate(old)
    try old.execute("""
        INSERT INTO profiles (id, uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
                              expiry_cause, sha256, raw_plist, first_seen, last_seen)
        VALUES (7, 'P-1', 'Profile', 'development', ?1, ?1, ?1, 'profile', 'AB', x'00', ?1, ?1)
        """, [.text(now)])
    return old
}

/// For the tests of one migration: the catalogue at `path` migrated up to and including the
/// migration named `name`, and no further (a later migration may change what the test compares).
func catalogue(through name: String, at path: String) throws -> Connection {
    let migration = try #require(Migration.all.firstIndex { $0.name == name })
    let connection = try Connection(path: path)
    try Migrator(migrations: Array(Migration.all.prefix(through: migration))).migrate(connection)
    return connection
}
