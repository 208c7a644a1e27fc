/// The fragments of the read side's SQL that SQLite and PostgreSQL spell differently. Everything
/// else is written once: dates are ISO-8601 text, booleans 0/1 integers and text compared byte by
/// byte on both (Migrations/postgresql/0008_initial.sql says why), so the same statement returns
/// the same rows in the same order.
enum SQLDialect: Sendable {
    case sqlite
    case postgreSQL

    /// SQLite's spelling or PostgreSQL's, whichever this dialect is.
    private func pick<T>(_ sqlite: @autoclosure () -> T, _ postgreSQL: @autoclosure () -> T) -> T {
        switch self {
        case .sqlite: return sqlite()
        case .postgreSQL: return postgreSQL()
        }
    }

    /// What ends an upsert whose row id the writer needs: PostgreSQL returns it. SQLite does not,
    /// since `RETURNING` gathers the rows in a temporary table it opens and closes each time it runs,
    /// which nearly doubles the cost of a small upsert; the writer reads the connection's last
    /// inserted row id instead
    /// (``CatalogWriter``'s `runReturningID`).
    var returningID: String { pick("", "RETURNING id") }

    /// `column` equals the bound text ignoring ASCII case (SQLite's NOCASE; PostgreSQL's lower()
    /// indexes).
    func equalsIgnoringCase(_ column: String) -> String {
        pick("\(column) = ? COLLATE NOCASE",
             "lower(\(column)) = lower(?)")
    }

    /// An ORDER BY term sorting `column` ignoring ASCII case, as people read names; callers follow it
    /// with the column itself so the order stays total.
    func ignoringCase(_ column: String) -> String {
        pick("\(column) COLLATE NOCASE", "lower(\(column))")
    }

    /// `column` is one of the strings of the bound JSON array, ignoring ASCII case.
    func inJSONArrayIgnoringCase(_ column: String) -> String {
        pick("\(column) COLLATE NOCASE IN (SELECT value FROM json_each(?))",
             "lower(\(column)) IN (SELECT lower(value) FROM json_array_elements_text(CAST(? AS json)))")
    }

    /// The strings of a JSON array (a bound parameter `?` or a column) as a table named `alias`
    /// with one column, `value`: a FROM item.
    func jsonArrayTable(_ array: String, as alias: String) -> String {
        pick("json_each(\(array)) AS \(alias)",
             "json_array_elements_text(CAST(\(array) AS json)) AS \(alias)(value)")
    }

    /// The members of a JSON object (a bound parameter `?`) whose values are strings, as a table
    /// named `alias` with columns `key` and `value`: a FROM item.
    func jsonObjectTable(_ object: String, as alias: String) -> String {
        pick("json_each(\(object)) AS \(alias)",
             "json_each_text(CAST(\(object) AS json)) AS \(alias)(key, value)")
    }

    /// The integers of a JSON array of row ids (a column such as `profiles.device_ids` and
    /// `device_profiles.profile_ids`, or a bound `?`) as a subquery with one bigint column, `v`
    /// (migration 0017).
    func jsonIDs(_ array: String) -> String {
        "SELECT CAST(ids.value AS bigint) AS v FROM \(jsonArrayTable(array, as: "ids"))"
    }

    /// A JSON array of the bigint column `v` of `source` (a FROM item with that column), ascending:
    /// '[]' when it has no rows. A list of ids as `device_profiles.profile_ids` keeps them.
    func jsonIDArray(from source: String) -> String {
        pick("(SELECT json_group_array(v) FROM (SELECT v FROM \(source) ORDER BY v))",
             "(SELECT coalesce(json_agg(v ORDER BY v)::text, '[]') FROM \(source))")
    }

    /// The number of elements of a JSON array (a column).
    func jsonArrayLength(_ array: String) -> String {
        pick("json_array_length(\(array))", "json_array_length(CAST(\(array) AS json))")
    }

    /// The strings of a JSON array as a subquery, for `x IN (…)`.
    func jsonArrayElements(_ array: String) -> String {
        "SELECT elements.value FROM \(jsonArrayTable(array, as: "elements"))"
    }

    /// Text `a` equals text `b`, NULL equal to NULL (`a` and `b` are columns, not parameters).
    /// PostgreSQL cannot search an index for `IS NOT DISTINCT FROM`, so there it is spelled as
    /// equality of the expressions its supersession index holds (migration 0012): the supersession
    /// search per row was a scan of every profile, and listings of 1M profiles did not finish.
    func nullSafeEquals(_ a: String, _ b: String) -> String {
        pick("\(a) IS \(b)",
             "coalesce(\(a), '') = coalesce(\(b), '') AND (\(a) IS NULL) = (\(b) IS NULL)")
    }

    /// `a` differs from `b`, NULL equal to NULL.
    func nullSafeDiffers(_ a: String, _ b: String) -> String {
        pick("\(a) IS NOT \(b)",
             "\(a) IS DISTINCT FROM \(b)")
    }

    /// The later of two non-NULL values (ISO-8601 dates compare as text): SQLite's scalar max().
    func later(_ a: String, _ b: String) -> String {
        pick("max(\(a), \(b))",
             "GREATEST(\(a), \(b))")
    }

    /// The earlier of two non-NULL values.
    func earlier(_ a: String, _ b: String) -> String {
        pick("min(\(a), \(b))",
             "LEAST(\(a), \(b))")
    }

    /// `column` contains the bound text, ignoring ASCII case.
    func containsIgnoringCase(_ column: String) -> String {
        pick("instr(lower(\(column)), lower(?)) > 0",
             "strpos(lower(\(column)), lower(?)) > 0")
    }

    /// An entitlement row `e` whose JSON value is the bound literal or quoted string (parameters:
    /// value, quoted value, value, quoted value, value), or has it as one member of an array.
    var entitlementValueMatches: String {
        switch self {
        case .sqlite:
            return """
                e.value_json = ? OR e.value_json = ?
                OR (json_type(e.value_json) = 'array' AND EXISTS (
                    SELECT 1 FROM json_each(e.value_json) m
                    WHERE m.type NOT IN ('object', 'array') AND (json_quote(m.value) = ? OR json_quote(m.value) = ?
                          OR (m.type IN ('true', 'false') AND m.type = ?))))
                """
        case .postgreSQL:
            // A member's JSON text is the literal (`true`, `42`) or the quoted string itself.
            return """
                e.value_json = ? OR e.value_json = ?
                OR (json_typeof(CAST(e.value_json AS json)) = 'array' AND EXISTS (
                    SELECT 1 FROM json_array_elements(CAST(e.value_json AS json)) m
                    WHERE json_typeof(m) NOT IN ('object', 'array') AND (CAST(m AS text) = ? OR CAST(m AS text) = ?
                          OR CAST(m AS text) = ?)))
                """
        }
    }

    /// A LEFT JOIN making `alias` the first `profile_locations` row `l` that `condition` selects in
    /// `order` (NULLs when none): one lookup per outer row whose columns are all at hand, where two
    /// scalar subqueries would look the same location up twice. SQLite finds the row's id and joins
    /// on it; PostgreSQL joins the subquery LATERAL.
    func firstLocationJoin(where condition: String, orderBy order: String, as alias: String) -> String {
        switch self {
        case .sqlite:
            return """
                LEFT JOIN profile_locations \(alias) ON \(alias).id = (
                    SELECT l.id FROM profile_locations l WHERE \(condition) ORDER BY \(order) LIMIT 1)
                """
        case .postgreSQL:
            return """
                LEFT JOIN LATERAL (
                    SELECT l.* FROM profile_locations l WHERE \(condition) ORDER BY \(order) LIMIT 1) \(alias) ON true
                """
        }
    }

    /// ``equalsIgnoringCase(_:)`` etc. as a ``QueryFilter`` fragment.
    func fragment(_ sql: String) -> SQLFragment { SQLFragment(sql: sql) }

    /// After an ascending ORDER BY term that may be NULL: NULLs first, as SQLite sorts them.
    var nullsFirst: String { self == .postgreSQL ? " NULLS FIRST" : "" }
    /// After a descending ORDER BY term that may be NULL: NULLs last, as SQLite sorts them.
    var nullsLast: String { self == .postgreSQL ? " NULLS LAST" : "" }

    /// `LIMIT` for at most `limit` rows, or all of them: the parameter to bind.
    func limit(_ limit: Int?) -> SQLValue {
        pick(SQLValue.integer(Int64(limit ?? -1)),
             limit.map { SQLValue.integer(Int64($0)) } ?? .null)
    }

    /// `sql` with named parameters (`:name`, as SQLite binds them) numbered PostgreSQL's way (`$N`,
    /// in order of first use), and the values in that order. A cast (`::type`) and quoted text are
    /// copied as they are; a name missing from `values` is an error (SQLSTATE 42P02).
    static func numberedNames(_ sql: String, _ values: [String: SQLValue]) throws -> (String, [SQLValue]) {
        var numbers: [String: Int] = [:]
        var ordered: [SQLValue] = []
        func isNameCharacter(_ character: Character, first: Bool) -> Bool {
            character == "_" || (character.isASCII && (character.isLetter || (!first && character.isNumber)))
        }
        let out = try rewritingParameters(sql) { character, previous, index in
            guard character == ":", previous != ":", index < sql.endIndex, isNameCharacter(sql[index], first: true) else {
                return nil
            }
            var name = ":"
            while index < sql.endIndex, isNameCharacter(sql[index], first: false) {
                name.append(sql[index])
                index = sql.index(after: index)
            }
            if let known = numbers[name] { return "$\(known)" }
            guard let value = values[name] else {
                throw PostgreSQLError(sqlState: "42P02", message: "no value for parameter \(name)", sql: sql)
            }
            ordered.append(value)
            numbers[name] = ordered.count
            return "$\(ordered.count)"
        }
        return (out, ordered)
    }

    /// `sql` with SQLite's parameters (`?`, `?NNN`) numbered PostgreSQL's way (`$N`), as SQLite
    /// numbers them: `?NNN` is parameter NNN, a bare `?` one more than the largest so far. Quoted
    /// text ('…', "…") is copied as it is.
    static func numberedPlaceholders(_ sql: String) -> String {
        var largest = 0
        return rewritingParameters(sql) { character, _, index in
            guard character == "?" else { return nil }
            var digits = ""
            while index < sql.endIndex, sql[index].isASCII, sql[index].isNumber {
                digits.append(sql[index])
                index = sql.index(after: index)
            }
            let number = Int(digits) ?? largest + 1
            largest = max(largest, number)
            return "$\(number)"
        }
    }

    /// `sql` copied with each parameter outside quoted text ('…', "…") rewritten: `parameter` gets
    /// each such character, the one before it and the index after it; it returns the text that
    /// replaces the parameter (having moved `index` past it), or nil to copy the character.
    private static func rewritingParameters(
        _ sql: String,
        _ parameter: (_ character: Character, _ previous: Character, _ index: inout String.Index) throws -> String?
    ) rethrows -> String {
        var out = ""
        out.reserveCapacity(sql.utf8.count + 16)
        var quote: Character?
        var previous: Character = " "
        var index = sql.startIndex
        while index < sql.endIndex {
            let character = sql[index]
            index = sql.index(after: index)
            defer { previous = character }
            if let open = quote {
                out.append(character)
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
                out.append(character)
            } else if let replacement = try parameter(character, previous, &index) {
                out += replacement
            } else {
                out.append(character)
            }
        }
        return out
    }
}
