@testable import CatalogStore

/// What the schema-agreement test compares between the engines: per table, its columns (name,
/// nullability, type family), primary key, unique constraints and foreign keys — read from each
/// engine's catalogue, not from the SQL text.
///
/// Indexes that are not constraints are left out: they are each engine's business (SQLite's
/// `COLLATE NOCASE` index is PostgreSQL's `lower()` one, and SQLite keeps one-host unique indexes
/// until the writer names hosts, see Migrations/0008_host.sql). CHECK constraints and defaults are
/// left out too: their text differs by engine even where they mean the same.
struct SchemaShape: Equatable, CustomStringConvertible {
    struct Column: Hashable, Comparable, CustomStringConvertible {
        var name: String
        var family: String
        var nullable: Bool
        static func < (a: Column, b: Column) -> Bool { a.name < b.name }
        var description: String { "\(name) \(family)\(nullable ? "" : " NOT NULL")" }
    }

    struct ForeignKey: Hashable, CustomStringConvertible {
        var columns: [String]
        var table: String
        var referenced: [String]
        var onDelete: String
        var description: String {
            "(\(columns.joined(separator: ", "))) → \(table) (\(referenced.joined(separator: ", "))) ON DELETE \(onDelete)"
        }
    }

    struct Table: Equatable {
        var columns: Set<Column> = []
        var primaryKey: [String] = []
        /// Each unique constraint's columns, sorted: a key is a set of columns, and the order inside it
        /// only decides which lookups its index serves, where the engines may differ (SQLite's keys
        /// lead with the path since 0013_path_first_keys).
        var uniques: Set<[String]> = []
        var foreignKeys: Set<ForeignKey> = []
    }

    var tables: [String: Table] = [:]

    var description: String {
        tables.keys.sorted().map { name in
            let table = tables[name]!
            return "\(name): \(table.columns.sorted().map(\.description)) pk \(table.primaryKey) "
                + "unique \(table.uniques.sorted { $0.lexicographicallyPrecedes($1) }) fk \(table.foreignKeys.map(\.description).sorted())"
        }.joined(separator: "\n")
    }

    /// SQLite's storage classes and PostgreSQL's types, by family.
    static func family(_ declared: String) -> String {
        let type = declared.uppercased()
        if type.contains("INT") { return "integer" }
        if type.contains("CHAR") || type.contains("TEXT") || type.contains("CLOB") { return "text" }
        if type.contains("BLOB") || type == "BYTEA" { return "blob" }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") || type.contains("NUMERIC") {
            return "real"
        }
        if type == "BOOLEAN" { return "boolean" }
        return "other: \(declared)"
    }

    // MARK: SQLite

    init(sqlite connection: Connection) throws {
        let names = try connection.query("""
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            """).compactMap { $0.string("name") }
        for name in names {
            var table = Table()
            let columns = try connection.query(#"SELECT name, type, "notnull", pk FROM pragma_table_info(?)"#, [.text(name)])
            for column in columns {
                let isKey = (column.int("pk") ?? 0) > 0
                table.columns.insert(Column(name: column.string("name") ?? "", family: Self.family(column.string("type") ?? ""),
                                            nullable: column.int("notnull") == 0 && !isKey))
            }
            table.primaryKey = columns.filter { ($0.int("pk") ?? 0) > 0 }.sorted { $0.int("pk")! < $1.int("pk")! }
                .compactMap { $0.string("name") }
            for index in try connection.query("SELECT name FROM pragma_index_list(?) WHERE origin = 'u'", [.text(name)]) {
                table.uniques.insert(try connection.query("SELECT name FROM pragma_index_info(?) ORDER BY seqno",
                                                          [index["name"]]).compactMap { $0.string("name") }.sorted())
            }
            let references = try connection.query(#"""
                SELECT id, seq, "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq
                """#, [.text(name)])
            for id in Set(references.compactMap { $0.int("id") }) {
                let parts = references.filter { $0.int("id") == id }
                table.foreignKeys.insert(ForeignKey(columns: parts.compactMap { $0.string("from") },
                                                    table: parts[0].string("table") ?? "",
                                                    referenced: parts.compactMap { $0.string("to") },
                                                    onDelete: parts[0].string("on_delete") ?? ""))
            }
            tables[name] = table
        }
    }

    // MARK: PostgreSQL

    init(postgreSQL connection: PostgreSQLConnection) throws {
        let names = try connection.query("SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema()")
            .compactMap { $0.string("tablename") }
        let actions = ["a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"]
        for name in names {
            var table = Table()
            for column in try connection.query("""
                SELECT column_name, data_type, is_nullable FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = $1
                """, [.text(name)]) {
                table.columns.insert(Column(name: column.string("column_name") ?? "",
                                            family: Self.family(column.string("data_type") ?? ""),
                                            nullable: column.string("is_nullable") == "YES"))
            }
            let constraints = try connection.query("""
                SELECT c.contype::text AS kind, fc.relname::text AS foreign_table, c.confdeltype::text AS on_delete,
                       (SELECT string_agg(a.attname::text, ',' ORDER BY k.ord)
                        FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
                        JOIN pg_catalog.pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS columns,
                       (SELECT string_agg(a.attname::text, ',' ORDER BY k.ord)
                        FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord)
                        JOIN pg_catalog.pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS referenced
                FROM pg_catalog.pg_constraint c
                JOIN pg_catalog.pg_class t ON t.oid = c.conrelid
                LEFT JOIN pg_catalog.pg_class fc ON fc.oid = c.confrelid
                WHERE t.relname = $1 AND t.relnamespace = current_schema()::regnamespace AND c.contype IN ('p', 'u', 'f')
                """, [.text(name)])
            for constraint in constraints {
                let columns = (constraint.string("columns") ?? "").split(separator: ",").map(String.init)
                switch constraint.string("kind") {
                case "p": table.primaryKey = columns
                case "u": table.uniques.insert(columns.sorted())
                default:
                    table.foreignKeys.insert(ForeignKey(
                        columns: columns, table: constraint.string("foreign_table") ?? "",
                        referenced: (constraint.string("referenced") ?? "").split(separator: ",").map(String.init),
                        onDelete: actions[constraint.string("on_delete") ?? ""] ?? "?"))
                }
            }
            tables[name] = table
        }
    }
}
