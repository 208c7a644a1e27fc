import Testing
@testable import CatalogStore

/// Passwords never appear in what is shown of a connection string, however they are written.
@Suite(.timeLimit(.minutes(10))) struct ConnectionStringTests {
    // MARK: URIs

    @Test(arguments: [
        ("postgresql://ingest:s3cret@db.example.com:5432/catalog",
         "postgresql://ingest:***@db.example.com:5432/catalog"),
        ("postgres://ingest:s3cret@db/catalog", "postgres://ingest:***@db/catalog"),
        ("POSTGRESQL://ingest:s3cret@db/catalog", "POSTGRESQL://ingest:***@db/catalog"),
        // Percent-encoded '@', ':' and '/' inside the password.
        ("postgresql://ingest:p%40ss%3Aw%2Frd@db/catalog", "postgresql://ingest:***@db/catalog"),
        // A raw '@' in the password (libpq would misread it): everything up to the last '@' goes.
        ("postgresql://ingest:p@ss@db/catalog", "postgresql://ingest:***@db/catalog"),
        // ':' in the password.
        ("postgresql://ingest:a:b:c@db/catalog", "postgresql://ingest:***@db/catalog"),
        // Empty password.
        ("postgresql://ingest:@db/catalog", "postgresql://ingest:***@db/catalog"),
        // Several hosts.
        ("postgresql://ingest:pw@h1:5432,h2:5433/catalog?target_session_attrs=read-write",
         "postgresql://ingest:***@h1:5432,h2:5433/catalog?target_session_attrs=read-write"),
        // Query-string passwords, in any position and with a percent-encoded key.
        ("postgresql://db/catalog?user=ingest&password=s3cret&sslmode=require",
         "postgresql://db/catalog?user=ingest&password=***&sslmode=require"),
        ("postgresql:///catalog?password=s3cret", "postgresql:///catalog?password=***"),
        ("postgresql://db?%70assword=s3cret", "postgresql://db?%70assword=***"),
        ("postgresql://db/catalog?PASSWORD=a%26b#frag", "postgresql://db/catalog?PASSWORD=***#frag"),
        // Both places at once.
        ("postgresql://u:one@db/c?password=two", "postgresql://u:***@db/c?password=***"),
    ])
    func redactsURIs(input: String, expected: String) {
        #expect(ConnectionString.redacted(input) == expected)
    }

    @Test(arguments: [
        "postgresql://db.example.com/catalog",
        "postgresql://ingest@db.example.com:5432/catalog?sslmode=verify-full",
        "postgresql:///catalog?host=/tmp/sockets&port=5433",
        "postgresql://",
        "postgres://[::1]:5432/catalog",
    ])
    func leavesURIsWithoutPasswordsAlone(input: String) {
        #expect(ConnectionString.redacted(input) == input)
    }

    // MARK: Keyword strings

    @Test(arguments: [
        ("host=db password=s3cret dbname=catalog", "host=db password=*** dbname=catalog"),
        ("host=db password = s3cret dbname=catalog", "host=db password = *** dbname=catalog"),
        // libpq has no SQL-style '' inside quotes: it ends the value at "it" and cannot parse the
        // rest, which is then hidden too.
        ("password='it''s' host=db", "password=******"),
        (#"password='it\'s a \\ secret' host=db"#, "password=*** host=db"),
        (#"password=back\ slash host=db"#, "password=*** host=db"),
        ("host=db password='never closed", "host=db password=***"),
        ("host=db password", "host=db ***"),
        ("host=db\tPassword=tab\nuser=x", "host=db\tPassword=***\nuser=x"),
        // A dbname that is itself a connection string is expanded by libpq: redacted too.
        ("dbname='postgresql://u:pw@db/c' connect_timeout=5", "dbname='postgresql://u:***@db/c' connect_timeout=5"),
        ("dbname='host=db password=pw'", "dbname='host=db password=***'"),
    ])
    func redactsKeywordStrings(input: String, expected: String) {
        #expect(ConnectionString.redacted(input) == expected)
    }

    @Test func leavesKeywordStringsWithoutPasswordsAlone() {
        for input in ["host=db dbname=catalog", "service=fleet", "", "host='/tmp/a b' port=5432",
                      "dbname=passwords user=password"] {
            #expect(ConnectionString.redacted(input) == input)
        }
    }

    // MARK: Messages and recognition

    @Test func removesThePasswordFromAMessageQuotingIt() {
        let uri = "postgresql://u:b%zzad@db/catalog"
        let message = #"invalid percent-encoded token: "b%zzad""#
        #expect(ConnectionString.redacted(message: message, connectionString: uri)
                == #"invalid percent-encoded token: "***""#)
        let decoded = ConnectionString.redacted(message: "password for p@ss rejected",
                                                connectionString: "postgresql://u:p%40ss@db")
        #expect(decoded == "password for *** rejected")
    }

    @Test func recognisesURIsByScheme() {
        #expect(ConnectionString.isURI("postgresql://x"))
        #expect(ConnectionString.isURI("Postgres://x"))
        #expect(!ConnectionString.isURI("postgresql:x"))
        #expect(!ConnectionString.isURI("/var/db/postgresql://x"))
        #expect(!ConnectionString.isURI("host=db"))
    }
}
