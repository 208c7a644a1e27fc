// swift-tools-version:6.0
import PackageDescription

// Dependency direction: CatalogCore (decoder) ← CatalogStore ← CatalogIngest ← CatalogCLI ← catalog.
// System C libraries come from the OS (Debian -dev packages on Linux, the SDK on macOS) through
// system-library targets with project-prefixed module names, so they never clash with other modules.
// The hooks tests use to kill or stop an ingest mid-run (`CATALOG_TEST_KILL_AFTER_WRITES`,
// `CATALOG_TEST_STOP_AFTER_WRITES`) and to name prune's trash (`CATALOG_TEST_TRASH`) exist only in
// debug builds, the ones `swift test` uses; a release build (`swift build -c release`, the
// benchmark) has neither the code nor the names.
let testHooks: [SwiftSetting] = [.define("CATALOG_TEST_HOOKS", .when(configuration: .debug))]

let package = Package(
    name: "catalog",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CatalogCore", targets: ["CatalogCore"]),
        .executable(name: "catalog", targets: ["catalog"]),
    ],
    targets: [
        .systemLibrary(name: "CCatalogZlib", path: "Sources/CCatalogZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCatalogCrypto", path: "Sources/CCatalogCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCatalogSQLite", path: "Sources/CCatalogSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),

        // Signature verification: libcrypto (CCatalogCrypto) off Apple platforms, the Security
        // framework (SecKeyVerifySignature) on them.
        .target(name: "CatalogCore", dependencies: [
            "CCatalogZlib",
            .target(name: "CCatalogCrypto", condition: .when(platforms: [.linux, .android, .windows])),
        ], linkerSettings: [
            .linkedFramework("Security", .when(platforms: [.macOS, .iOS, .tvOS, .watchOS])),
        ]),
        .target(name: "CatalogStore", dependencies: ["CatalogCore", "CCatalogSQLite"]),
        .target(name: "CatalogIngest", dependencies: ["CatalogCore", "CatalogStore"], swiftSettings: testHooks),
        .target(name: "CatalogCLI", dependencies: ["CatalogCore", "CatalogStore", "CatalogIngest"],
                swiftSettings: testHooks),
        .executableTarget(name: "catalog", dependencies: ["CatalogCLI"]),
        // Fills a large synthetic catalogue for the query benchmark (Benchmarks/bench.py).
        .executableTarget(name: "catalog-bench-fill", dependencies: ["CatalogCore", "CatalogStore"]),

        // Paths to the fixtures, the real corpus and the built binary, shared by the test targets.
        .target(name: "CatalogTestSupport", path: "Tests/CatalogTestSupport"),
        .testTarget(name: "CatalogCoreTests", dependencies: ["CatalogCore", "CatalogTestSupport"]),
        // Imports CatalogCore without @testable: proves the public decoding API is enough on its own.
        .testTarget(name: "CatalogCorePublicAPITests", dependencies: ["CatalogCore", "CatalogTestSupport"]),
        .testTarget(name: "CatalogStoreTests", dependencies: ["CatalogStore", "CatalogTestSupport"]),
        .testTarget(name: "CatalogIngestTests", dependencies: ["CatalogIngest", "CatalogStore", "CatalogTestSupport"]),
        .testTarget(name: "CatalogCLITests", dependencies: ["CatalogCLI", "CatalogStore", "CatalogTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
