import CatalogCore
import Foundation

/// What a catalogue holds (`catalog stats`).
package struct CatalogueStats: Sendable, Equatable {
    package var schemaVersion: Int
    package var profiles: Int
    package var profilesPresent: Int
    package var profilesInstalled: Int
    package var profileLocations: Int
    /// Profiles per signature status; nil counts those never verified (`unchecked`).
    package var profilesBySignature: [ProfileSignature.Status?: Int]
    package var certificates: Int
    package var devices: Int
    package var presentBuilds: Int
    package var removedBuilds: Int
    package var runs: Int
    package var lastRun: LastRun?
    /// When the last `ok` run finished; every answer is as old as that.
    package var lastSuccessfulIngest: Date?
    /// Each host that has run an ingest, by name: which build host of a fleet stopped ingesting.
    package var hosts: [HostIngests] = []

    /// One host's ingest runs.
    package struct HostIngests: Sendable, Equatable {
        /// nil for a SQLite catalogue's unnamed host ('').
        package var host: String?
        package var runs: Int
        /// The status of its newest run.
        package var lastStatus: RunStatus
        /// When its last `ok` run finished.
        package var lastSuccessfulIngest: Date?
    }

    /// The newest run, whatever its status.
    package struct LastRun: Sendable, Equatable {
        package var runID: Int64
        package var startedAt: Date?
        package var finishedAt: Date?
        package var status: RunStatus
        /// Why a `failed` or `partial` run failed.
        package var reason: String?
        package var filesScanned: Int
        package var errors: Int
    }
}
