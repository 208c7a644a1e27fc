import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

@Suite struct MigratorTests {
    static let tables = ["build_binaries", "build_signing_problems", "builds", "certificate_der", "certificates", "debug_symbols", "device_profiles", "devices", "entitlements", "files",
                         "ingest_errors", "ingest_runs", "profile_certificates", "profile_locations",
                         "profile_plists", "profile_undecodable_certificates", "profiles", "schema_migrations"]

    // MARK: Applying

    @Test func appliesTheInitialMigrationAndRecordsIt() throws {
        let directory = try Scratch()
        let path = directory.file("catalogue.sqlite")
        let connection = try Connection.openCatalogue(path: path)
        let migrator = try Migrator()
        #expect(try migrator.currentVersion(of: connection) == Migration.all.last?.id)
        let applied = try migrator.appliedMigrations(connection)
        #expect(applied.first?.id == 1)
        #expect(applied.first?.name == "initial")
        #expect(SQLDate.date(from: applied.first?.appliedAt ?? "") != nil)
        let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .compactMap { $0.string("name") }
        #expect(tables == Self.tables)
        // A new file waits for its first run in rollback-journal mode (issue 15); the next open for
        // writing switches it to WAL.
        #expect(try connection.queryFirst("PRAGMA journal_mode")?[0] == .text("delete"))
        #expect(try Connection.openCatalogue(path: path).queryFirst("PRAGMA journal_mode")?[0] == .text("wal"))
        #expect(try permissions(of: path) == 0o600)
    }

    @Test func everyQueriedColumnHasAnIndex() throws {
        let directory = try Scratch()
        let connection = try Connection.openCatalogue(path: directory.file("catalogue.sqlite"))
        let expected: [(table: String, firstColumn: String)] = [
            // profiles_supersession leads with team_id; no query searches the signed expiration date (0014).
            ("profiles", "effective_expiration_date"), ("profiles", "team_id"),
            ("profiles", "bundle_id"), ("profiles", "name"), ("device_profiles", "device_id"), ("devices", "udid"),
            ("profile_certificates", "certificate_sha1"), ("certificates", "not_after"),
            ("certificates", "team_id"), ("builds", "bundle_id"), ("builds", "profile_uuid"),
            ("builds", "team_id"), ("builds", "path"), ("profile_locations", "profile_uuid"),
            ("ingest_errors", "run_id"),
        ]
        for (table, column) in expected {
            let leading = try connection.query("SELECT name FROM pragma_index_list(?)", [.text(table)]).compactMap {
                try connection.queryFirst("SELECT name FROM pragma_index_info(?) WHERE seqno = 0",
                                          [$0["name"]])?.string("name")
            }
            #expect(leading.contains(column), "no index on \(table)(\(column))")
        }
        let plan = try connection.query("""
            EXPLAIN QUERY PLAN SELECT * FROM builds WHERE bundle_id = ? COLLATE NOCASE ORDER BY version_sort DESC, build_sort DESC
            """, ["com.example.app"]).compactMap { $0.string("detail") }
        #expect(plan.contains { $0.contains("builds_bundle_id_version") })
        #expect(!plan.contains { $0.contains("TEMP B-TREE") })
        // Bundle ids are looked up in any case, through the index (not a scan).
        let profilePlan = try connection.query("EXPLAIN QUERY PLAN SELECT uuid FROM profiles WHERE bundle_id = ? COLLATE NOCASE",
                                               ["com.example.app"]).compactMap { $0.string("detail") }
        #expect(profilePlan.contains { $0.contains("profiles_bundle_id") })
    }

    @Test func theSchemaEnforcesForeignKeys() throws {
        let directory = try Scratch()
        let connection = try Connection.openCatalogue(path: directory.file("catalogue.sqlite"))
        let error = try #require(throws: SQLiteError.self) {
            try connection.execute("""
                INSERT INTO profile_locations (path, profile_uuid, container_kind, first_seen, last_seen)
                VALUES (?, ?, 'standalone', ?, ?)
                """, ["/p.mobileprovision", "NO-SUCH-UUID", "2026-11-29T10:00:00Z", "2026-11-29T10:00:00Z"])
        }
        #expect(error.extendedCode == SQLiteError.constraintForeignKey)
    }

    @Test func reopeningIsANoOp() throws {
        let directory = try Scratch()
        let path = directory.file("catalogue.sqlite")
        let first = try Connection.openCatalogue(path: path)
        let recorded = try Migrator().appliedMigrations(first).map { "\($0.id) \($0.name) \($0.appliedAt)" }
        let second = try Connection.openCatalogue(path: path)
        #expect(try Migrator().migrate(second).isEmpty)
        #expect(try Migrator().appliedMigrations(second).map { "\($0.id) \($0.name) \($0.appliedAt)" } == recorded)
    }

    /// Builds a database at every schema version this binary knows (0 = empty) and upgrades it:
    /// the result must match a catalogue created from scratch.
    @Test func upgradesADatabaseCreatedAtEachEarlierVersion() throws {
        let directory = try Scratch()
        let reference = try Connection.openCatalogue(path: directory.file("reference.sqlite"))
        for version in 0..<Migration.all.count {
            let path = directory.file("at-\(version).sqlite")
            let old = try Connection(path: path)
            try Migrator(migrations: Array(Migration.all.prefix(version))).migrate(old)
            let upgraded = try Connection.openCatalogue(path: path)
            #expect(try Migrator().currentVersion(of: upgraded) == Migration.all.last?.id)
            #expect(try schema(of: upgraded) == schema(of: reference), "upgrading from schema \(version)")
        }
    }

    @Test func aFailingMigrationLeavesThePreviousVersion() throws {
        let directory = try Scratch()
        let path = directory.file("catalogue.sqlite")
        let broken = Migration(id: Migration.all.count + 1, name: "broken",
                               sql: "CREATE TABLE half_done (x);\nSELEC 1;")
        let connection = try Connection(path: path)
        #expect(throws: SQLiteError.self) { try Migrator(migrations: Migration.all + [broken]).migrate(connection) }
        #expect(try Migrator().currentVersion(of: connection) == Migration.all.count)
        #expect(try connection.queryFirst("SELECT 1 FROM sqlite_master WHERE name = 'half_done'") == nil)
    }

    /// The pending migrations share one transaction, each in its own savepoint: one that fails in
    /// the middle is rolled back, those before it are kept, and none after it runs.
    @Test func aFailingMigrationInTheMiddleKeepsTheOnesBefore() throws {
        let directory = try Scratch()
        let connection = try Connection(path: directory.file("catalogue.sqlite"))
        let broken = Migration(id: 3, name: "broken", sql: "CREATE TABLE half_done (x);\nSELEC 1;")
        let after = Migration(id: 4, name: "after", sql: "CREATE TABLE after_broken (x);")
        let migrations = Array(Migration.all.prefix(2)) + [broken, after]
        #expect(throws: SQLiteError.self) { try Migrator(migrations: migrations).migrate(connection) }
        #expect(try Migrator().currentVersion(of: connection) == 2)
        #expect(!connection.isInTransaction)
        for table in ["half_done", "after_broken"] {
            #expect(try connection.queryFirst("SELECT 1 FROM sqlite_master WHERE name = ?", [.text(table)]) == nil)
        }
        #expect(try connection.queryFirst("SELECT 1 FROM sqlite_master WHERE name = 'profiles'") != nil)
        // The next run applies the rest.
        #expect(try Migrator().migrate(connection) == Array(Migration.all.dropFirst(2).map(\.id)))
    }

    @Test func migrationsMustBeInOrder() {
        let one = Migration(id: 1, name: "a", sql: "")
        let two = Migration(id: 2, name: "b", sql: "")
        #expect(throws: StoreError.self) { try Migrator(migrations: [two, one]) }
        #expect(throws: StoreError.self) { try Migrator(migrations: [one, one]) }
        #expect(throws: StoreError.self) { try Migrator(migrations: [Migration(id: 0, name: "z", sql: "")]) }
    }

    // MARK: Refusing

    /// A catalogue from a newer binary, in either journal mode; refusing it must not even switch it to WAL.
    @Test(arguments: [false, true]) func aNewerSchemaIsRefusedAndLeftByteIdentical(wal: Bool) throws {
        let directory = try Scratch()
        let path = directory.file("future.sqlite")
        do {
            let connection = try Connection(path: path, wal: wal)
            try Migrator().migrate(connection)
            try connection.execute("INSERT INTO schema_migrations (id, name, applied_at) VALUES (9999, 'future', ?)",
                                   ["2030-01-01T00:00:00Z"])
        }
        let before = try bytes(of: path)
        let filesBefore = try directory.contents()
        let known = Migration.all.last?.id ?? 0
        // Read-only last: a read-only connection to a WAL database may leave empty -wal/-shm files
        // behind (SQLite cannot remove them without write access); the database itself is untouched.
        for readOnly in [false, true] {
            let error = try #require(throws: StoreError.self) {
                try Connection.openCatalogue(path: path, readOnly: readOnly)
            }
            #expect(error == .newerSchema(path: path, found: 9999, known: known))
            #expect(error.description
                    == "catalogue \(path) was written by a newer catalog (schema 9999, this binary knows \(known))")
            #expect(try bytes(of: path) == before)
            if !readOnly {
                let filesAfter = try directory.contents()
                #expect(filesAfter == filesBefore)
            }
        }
    }

    @Test func aFileThatIsNotSQLiteIsRefusedAndLeftUntouched() throws {
        let directory = try Scratch()
        let path = directory.file("notes.txt")
        let content = Array(String(repeating: "this is not a database\n", count: 300).utf8)
        try Data(content).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        for readOnly in [false, true] {
            let error = try #require(throws: StoreError.self) {
                try Connection.openCatalogue(path: path, readOnly: readOnly)
            }
            #expect(error == .notADatabase(path: path))
            #expect(error.description == "\(path) is not a SQLite database")
        }
        #expect(try bytes(of: path) == content)
        #expect(try permissions(of: path) == 0o644)
        #expect(try directory.contents() == ["notes.txt"])
    }

    @Test func someoneElsesDatabaseIsRefusedAndLeftUntouched() throws {
        let directory = try Scratch()
        let path = directory.file("other.sqlite")
        do { try Connection(path: path, wal: false).execute("CREATE TABLE notes (text)") }
        let before = try bytes(of: path)
        #expect(throws: StoreError.notACatalogue(path: path)) { try Connection.openCatalogue(path: path) }
        #expect(try bytes(of: path) == before)
    }

    @Test func readOnlyOpenNeedsAMigratedCatalogue() throws {
        let directory = try Scratch()
        let path = directory.file("catalogue.sqlite")
        do { _ = try Connection(path: path) }  // an empty database: schema 0
        let known = Migration.all.last?.id ?? 0
        #expect(throws: StoreError.outdatedSchema(path: path, found: 0, known: known)) {
            try Connection.openCatalogue(path: path, readOnly: true)
        }
        _ = try Connection.openCatalogue(path: path)
        let reader = try Connection.openCatalogue(path: path, readOnly: true)
        #expect(try reader.query("SELECT * FROM profiles").isEmpty)
    }

    // MARK: Helpers

    private func schema(of connection: Connection) throws -> [String] {
        try connection.query("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
            .map { "\($0.string("type") ?? "") \($0.string("name") ?? "") \($0.string("sql") ?? "")" }
    }
}
