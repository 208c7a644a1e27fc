import Testing
@testable import CatalogStore

@Suite(.timeLimit(.minutes(10))) struct CatalogueEngineTests {
    @Test func urisSelectPostgreSQLAndEverythingElseIsASQLitePath() {
        #expect(CatalogueEngine("postgresql://db/catalog") == .postgreSQL(connectionString: "postgresql://db/catalog"))
        #expect(CatalogueEngine("postgres://db/catalog").isPostgreSQL)
        #expect(CatalogueEngine("POSTGRES://db").isPostgreSQL)
        #expect(CatalogueEngine("postgresql://").isPostgreSQL)
        for path in ["catalog.sqlite", "/var/db/catalog.sqlite", "./postgresql://x", "postgresql:/x",
                     "host=db dbname=catalog", "", ":memory:"] {
            #expect(CatalogueEngine(path) == .sqlite(path: path), "\(path)")
        }
    }

    @Test func showsPostgreSQLCataloguesWithoutTheirPassword() {
        #expect(CatalogueEngine("postgresql://u:secret@db/c").description == "postgresql://u:***@db/c")
        #expect(CatalogueEngine("/tmp/a:secret@b").description == "/tmp/a:secret@b")
    }
}
