extension CatalogWriter {
    /// This host's profiles with a present location and its present builds, for the run's summary.
    package func presentCounts() throws -> (profiles: Int, builds: Int) {
        let profiles = try db.firstRow("""
            SELECT count(DISTINCT profile_uuid) AS n FROM profile_locations WHERE removed_at IS NULL AND host = ?
            """, [.text(host)])?.int("n") ?? 0
        let builds = try db.firstRow("SELECT count(*) AS n FROM builds WHERE removed_at IS NULL AND host = ?",
                                     [.text(host)])?.int("n") ?? 0
        return (profiles, builds)
    }
}
