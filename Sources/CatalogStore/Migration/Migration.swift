/// One schema step, from `Migrations/NNNN_name.sql`. The SQL is compiled into the binary
/// (see `Migrations+Generated.swift`), so a copied `catalog` needs no resource bundle.
package struct Migration: Equatable, Sendable {
    /// `NNNN` from the file name; migrations run in increasing id order.
    package let id: Int
    /// `name` from the file name.
    package let name: String
    package let sql: String

    package init(id: Int, name: String, sql: String) {
        self.id = id
        self.name = name
        self.sql = sql
    }
}
