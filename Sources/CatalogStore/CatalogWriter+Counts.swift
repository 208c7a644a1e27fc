extension CatalogWriter {
    /// Profiles with a present location and present builds, for the run's summary.
    package func presentCounts() throws -> (profiles: Int, builds: Int) {
        let profiles = try db.queryFirst("""
            SELECT count(DISTINCT profile_uuid) AS n FROM profile_locations WHERE removed_at IS NULL
            """)?.int("n") ?? 0
        let builds = try db.queryFirst("SELECT count(*) AS n FROM builds WHERE removed_at IS NULL")?.int("n") ?? 0
        return (profiles, builds)
    }
}
