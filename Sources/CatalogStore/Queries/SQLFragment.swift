/// SQL an ``SQLDialect`` composed from constant text for one engine: like the `StaticString`
/// fragments of ``QueryFilter``, it never holds a value (values are bound parameters).
struct SQLFragment {
    let sql: String
}
