import CatalogCore
import Foundation

/// Writes decoded profiles and builds into the catalogue, on either engine. Every statement is
/// constant SQL with bound values; callers wrap a whole ingest run in one transaction.
///
/// Rows that belong to a host (its runs, the file index, profile locations, builds) are written as
/// `host`'s and only `host`'s are read back or marked removed. Rows every host shares (profiles,
/// certificates, devices and their links) are upserted on their natural keys with `first_seen` the
/// earliest and `last_seen` the latest of what each host saw. On SQLite they are written in the run's
/// transaction. On PostgreSQL, where hosts ingest at once, each profile's shared rows are committed
/// in a short transaction of their own on a second connection, taking their locks in one order
/// (certificate DER, the profile, certificates, devices, by key): two hosts meeting the same profile
/// wait for each other for one profile's worth of rows, not for each other's whole run, and cannot
/// deadlock. A failed run then leaves at most profiles no location of its host refers to; the
/// host's own rows are all stored or none.
package final class CatalogWriter {
    /// What an upsert did, for the run's summary.
    package enum ProfileChange: Equatable, Sendable {
        case new
        /// A UUID new to the catalogue that renews a profile an earlier run catalogued (README,
        /// "Renewals": same team, application identifier, kind and platforms, later effective expiry).
        case renewed
        case updated
        case unchanged
    }

    /// A profile that claims to renew a verified one (same team, application identifier, kind and
    /// platforms, a later effective expiry) but is not verified itself, so renews nothing of it
    /// (README, "Renewals"): the ingest warns.
    package struct RefusedRenewal: Equatable, Sendable {
        /// The profile that claims to renew.
        package var claimant: String
        /// Its signature's verdict; nil when never verified.
        package var claimantSignature: ProfileSignature.Status?
        /// The verified profile it claims to renew.
        package var verified: String
        /// Where this host found the claimant, when noted at the end of a run (nil: noted as the
        /// claimant or the verified profile was written, the file then being ingested).
        package var path: String? = nil
    }

    /// The incremental index entry of one path.
    package struct FileStamp: Equatable, Sendable {
        package var size: Int64
        package var mtimeNanoseconds: Int64
        package var status: FileStatus

        package init(size: Int64, mtimeNanoseconds: Int64, status: FileStatus) {
            self.size = size
            self.mtimeNanoseconds = mtimeNanoseconds
            self.status = status
        }
    }

    /// The connection of the run's transaction: the host's rows.
    let db: any WriteExecutor
    /// The connection shared rows are written on: `db` on SQLite, a second connection on PostgreSQL.
    let sharedDB: any WriteExecutor
    /// The connection that commits shared rows profile by profile (PostgreSQL); nil: inline.
    private let sharedConnection: PostgreSQLConnection?
    /// The host whose rows this writer writes: '' for a SQLite catalogue's own, unnamed machine.
    package let host: String
    /// Statements run once per device, certificate or entitlement, prepared once and bound
    /// positionally: looking a long SQL text up in the connection's cache per row showed in profiles.
    private var hot: [HotStatement: any PreparedWrite] = [:]
    /// Devices and certificates this writer has already inserted (or found): shared by many
    /// profiles, so each is looked up in its table once per run instead of once per profile.
    private var deviceIDs: [String: Int64] = [:]
    private var knownCertificates = Set<String>()
    /// Certificates whose DER this writer has stored in `certificate_der` (or found there).
    private var storedDER = Set<String>()
    /// UUIDs this run inserted: a profile met earlier in the same run is not what a new one renews,
    /// so the count does not depend on walk order and a first run into an empty catalogue has none.
    private var insertedThisRun = Set<String>()
    /// Device links of the profiles this run wrote, not yet in `device_profiles` (SQLite): profile
    /// ids by device id, written a row per device by ``flushDeviceLinks()`` — when there are
    /// ``deviceLinkBatch`` of them, before a profile is unlinked, and when the run finishes. A
    /// first ingest of 100,000 profiles links 2.7 million pairs: about 50 rows per device instead
    /// of a row and an index entry per pair (migration 0017).
    private var pendingDeviceLinks: [Int64: [Int64]] = [:]
    private var pendingDeviceLinkCount = 0
    /// At most this many links wait in memory (16 bytes or so each).
    static let deviceLinkBatch = 1 << 19
    /// Whether the catalogue held any profile when the run began: if not, no profile of the run can
    /// renew one catalogued before it, and the search is not made (a first ingest makes 10,000).
    private var hadProfilesBeforeRun = true
    /// Whether the catalogue holds a verified profile, and one that is not (nil: not looked up yet
    /// this run): a refused renewal needs one of each, so an ingest of test-signed profiles (or of
    /// Apple's only) looks for none.
    private var holdsVerified: Bool?
    private var holdsUnverified: Bool?
    /// Refused renewals met since the last ``takeRefusedRenewals()``.
    private var refusedRenewals: [RefusedRenewal] = []

    private enum HotStatement {
        case upsertProfile, upsertPlist, upsertBuild
        case insertCertificate, insertCertificateDER, linkCertificate, insertUndecodableCertificate
        case insertDevices, linkDevices, linkProfileToDevices, unlinkDevice, dropEmptyDeviceLists, insertEntitlements
        case touchProfile

        /// The conflict clause of both device-list inserts: a row already under the key takes the
        /// union of its list and the new one.
        private static func mergingDeviceLists(_ dialect: SQLDialect) -> String {
            """
            ON CONFLICT (device_id, first_profile_id) DO UPDATE SET profile_ids = \(dialect.jsonIDArray(from: """
                (\(dialect.jsonIDs("device_profiles.profile_ids")) UNION \(dialect.jsonIDs("excluded.profile_ids"))) AS merged
                """))
            """
        }

        /// Whether it writes the host's rows (on `db`) rather than shared ones (on `sharedDB`).
        var writesHostRows: Bool { self == .upsertBuild }

        func sql(_ dialect: SQLDialect) -> String {
            switch self {
            case .upsertBuild: return """
                INSERT INTO builds (host, bundle_id, name, display_name, short_version, build, version_sort, build_sort,
                    unresolved, platform, minimum_os_version, package_type, source_kind, path, app_path,
                    parent_build_id, profile_uuid, profile_error, team_id, signing_identity, scheme, archived_at,
                    size, mtime, content_sha256, first_seen, last_seen, removed_at, signing_checked,
                    launches_until, launches_until_cause, launches_until_executable, launches_until_reason)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                    COALESCE(?, (SELECT team_id FROM profiles WHERE uuid = ?)), ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?,
                    ?, ?, ?, ?)
                ON CONFLICT (host, path, app_path) DO UPDATE SET bundle_id = excluded.bundle_id, name = excluded.name,
                    display_name = excluded.display_name, short_version = excluded.short_version,
                    build = excluded.build, version_sort = excluded.version_sort, build_sort = excluded.build_sort,
                    unresolved = excluded.unresolved, platform = excluded.platform,
                    minimum_os_version = excluded.minimum_os_version, package_type = excluded.package_type,
                    source_kind = excluded.source_kind, parent_build_id = excluded.parent_build_id,
                    profile_uuid = excluded.profile_uuid, profile_error = excluded.profile_error,
                    team_id = excluded.team_id, signing_identity = excluded.signing_identity,
                    scheme = excluded.scheme, archived_at = excluded.archived_at, size = excluded.size,
                    mtime = excluded.mtime, content_sha256 = excluded.content_sha256,
                    last_seen = excluded.last_seen, removed_at = NULL, error = NULL,
                    signing_checked = excluded.signing_checked, launches_until = excluded.launches_until,
                    launches_until_cause = excluded.launches_until_cause,
                    launches_until_executable = excluded.launches_until_executable,
                    launches_until_reason = excluded.launches_until_reason
                \(dialect.returningID)
                """
            case .upsertProfile: return """
                INSERT INTO profiles (uuid, name, app_id_name, team_id, team_name, team_identifiers,
                    app_id_prefixes, platforms, kind, xcode_managed, ppq_check, creation_date, expiration_date,
                    effective_expiration_date, expiry_cause, application_identifier, bundle_id, aps_environment,
                    get_task_allow, provisions_all_devices, device_count, certificate_count, time_to_live,
                    version, sha256, first_seen, last_seen, signature, signature_reason, der_profile,
                    der_profile_differences, device_ids)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (uuid) DO UPDATE SET name = excluded.name, app_id_name = excluded.app_id_name,
                    team_id = excluded.team_id, team_name = excluded.team_name,
                    team_identifiers = excluded.team_identifiers, app_id_prefixes = excluded.app_id_prefixes,
                    platforms = excluded.platforms, kind = excluded.kind, xcode_managed = excluded.xcode_managed,
                    ppq_check = excluded.ppq_check, creation_date = excluded.creation_date,
                    expiration_date = excluded.expiration_date,
                    effective_expiration_date = excluded.effective_expiration_date,
                    expiry_cause = excluded.expiry_cause, application_identifier = excluded.application_identifier,
                    bundle_id = excluded.bundle_id, aps_environment = excluded.aps_environment,
                    get_task_allow = excluded.get_task_allow, provisions_all_devices = excluded.provisions_all_devices,
                    device_count = excluded.device_count, certificate_count = excluded.certificate_count,
                    time_to_live = excluded.time_to_live, version = excluded.version, sha256 = excluded.sha256,
                    first_seen = \(dialect.earlier("profiles.first_seen", "excluded.first_seen")),
                    last_seen = \(dialect.later("profiles.last_seen", "excluded.last_seen")), signature = excluded.signature,
                    signature_reason = excluded.signature_reason, der_profile = excluded.der_profile,
                    der_profile_differences = excluded.der_profile_differences, device_ids = excluded.device_ids
                \(dialect.returningID)
                """
            case .upsertPlist: return """
                INSERT INTO profile_plists (profile_id, raw_plist) VALUES (CAST(? AS bigint), ?)
                ON CONFLICT (profile_id) DO UPDATE SET raw_plist = excluded.raw_plist
                """
            case .insertCertificate: return """
                INSERT INTO certificates (sha1, sha256, common_name, team_id, organization, issuer_common_name,
                    serial, not_before, not_after, first_seen, type)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (sha1) DO UPDATE SET type = coalesce(excluded.type, certificates.type),
                    first_seen = \(dialect.earlier("certificates.first_seen", "excluded.first_seen"))
                WHERE (excluded.type IS NOT NULL AND \(dialect.nullSafeDiffers("certificates.type", "excluded.type")))
                    OR excluded.first_seen < certificates.first_seen
                """
            case .insertCertificateDER:
                return "INSERT INTO certificate_der (sha1, der) VALUES (?, ?) ON CONFLICT (sha1) DO NOTHING"
            case .linkCertificate: return """
                INSERT INTO profile_certificates (profile_id, certificate_sha1)
                SELECT CAST(? AS bigint), elements.value FROM \(dialect.jsonArrayTable("?", as: "elements")) WHERE true ON CONFLICT DO NOTHING
                """
            case .insertUndecodableCertificate: return """
                INSERT INTO profile_undecodable_certificates (profile_uuid, position, size, sha1, sha256, reason)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (profile_uuid, position) DO UPDATE SET size = excluded.size, sha1 = excluded.sha1,
                    sha256 = excluded.sha256, reason = excluded.reason
                """
            // Sorted, so two writers inserting the same devices take their locks in the same order.
            case .insertDevices: return """
                INSERT INTO devices (udid, first_seen)
                SELECT elements.value, CAST(? AS text) FROM \(dialect.jsonArrayTable("?", as: "elements"))
                WHERE true ORDER BY elements.value
                ON CONFLICT (udid) DO UPDATE SET first_seen = excluded.first_seen
                WHERE excluded.first_seen < devices.first_seen
                """
            // Values: device id, the least profile id of the list, the JSON array of profile ids
            // (ascending). A row already under that key (a profile linked again after an update,
            // or on PostgreSQL another host's write of the same profile) takes the union.
            case .linkDevices: return """
                INSERT INTO device_profiles (device_id, first_profile_id, profile_ids)
                VALUES (CAST(? AS bigint), CAST(? AS bigint), ?)
                \(Self.mergingDeviceLists(dialect))
                """
            // Values: profile id, its list ("[id]"), the JSON array of device ids (each once, sorted):
            // `linkDevices` for every device of one profile in one statement (one round trip on
            // PostgreSQL), its rows inserted in device order.
            case .linkProfileToDevices: return """
                INSERT INTO device_profiles (device_id, first_profile_id, profile_ids)
                SELECT CAST(elements.value AS bigint), CAST(? AS bigint), ? FROM \(dialect.jsonArrayTable("?", as: "elements"))
                WHERE true ORDER BY 1
                \(Self.mergingDeviceLists(dialect))
                """
            // Values: profile id, device id, profile id. Takes the profile out of the device's lists.
            case .unlinkDevice: return """
                UPDATE device_profiles SET profile_ids = \(dialect.jsonIDArray(from: """
                    (\(dialect.jsonIDs("device_profiles.profile_ids"))) AS kept WHERE v <> CAST(? AS bigint)
                    """))
                WHERE device_id = CAST(? AS bigint)
                  AND CAST(? AS bigint) IN (\(dialect.jsonIDs("device_profiles.profile_ids")))
                """
            case .dropEmptyDeviceLists:
                return "DELETE FROM device_profiles WHERE device_id = CAST(? AS bigint) AND profile_ids IN ('[]', '')"
            // Values: now, now, uuid, now, now.
            case .touchProfile: return """
                UPDATE profiles
                SET first_seen = \(dialect.earlier("first_seen", "?")), last_seen = \(dialect.later("last_seen", "?"))
                WHERE uuid = ? AND (last_seen < ? OR first_seen > ?)
                """
            // A JSON object of key → the value's JSON text: one statement per profile.
            case .insertEntitlements: return """
                INSERT INTO entitlements (profile_id, key, value_json)
                SELECT CAST(? AS bigint), members.key, members.value FROM \(dialect.jsonObjectTable("?", as: "members")) WHERE true
                ON CONFLICT (profile_id, key) DO UPDATE SET value_json = excluded.value_json
                """
            }
        }
    }

    /// A writer of `host`'s rows on a SQLite catalogue (and its shared rows, in the same transaction).
    package convenience init(_ db: Connection, host: String = "") {
        self.init(db: db, sharedDB: db, sharedConnection: nil, host: host)
    }

    /// A writer of `host`'s rows on a PostgreSQL catalogue: the run's rows on `db`, shared rows
    /// committed profile by profile on `shared` (another connection to the same database).
    package convenience init(_ db: PostgreSQLConnection, shared: PostgreSQLConnection, host: String) {
        self.init(db: db, sharedDB: shared, sharedConnection: shared, host: host)
    }

    private init(db: any WriteExecutor, sharedDB: any WriteExecutor,
                 sharedConnection: PostgreSQLConnection?, host: String) {
        self.db = db
        self.sharedDB = sharedDB
        self.sharedConnection = sharedConnection
        self.host = host
    }

    /// Runs a hot statement; returns the first column of its first row, if it has one.
    @discardableResult
    private func run(_ key: HotStatement, _ values: [SQLValue]) throws -> Int64? {
        let statement: any PreparedWrite
        if let prepared = hot[key] {
            statement = prepared
        } else {
            let executor = executor(of: key)
            statement = try executor.prepareWrite(key.sql(executor.dialect))
            hot[key] = statement
        }
        return try statement.run(values)
    }

    /// The connection a hot statement runs on.
    private func executor(of key: HotStatement) -> any WriteExecutor { key.writesHostRows ? db : sharedDB }

    /// Runs a hot upsert and returns the id of its row: the one PostgreSQL returns, or on SQLite
    /// the row id the statement inserted. Nil when SQLite updated a row that was there (the last
    /// inserted row id, set to 0 before, stays 0: every table's ids start at 1).
    private func runReturningID(_ key: HotStatement, _ values: [SQLValue]) throws -> Int64? {
        guard let connection = executor(of: key) as? Connection else { return try run(key, values) }
        connection.lastInsertRowID = 0
        try run(key, values)
        let id = connection.lastInsertRowID
        return id > 0 ? id : nil
    }

    /// Runs `body`, which writes shared rows: inline on SQLite, as a transaction of its own on
    /// PostgreSQL. What this writer remembers of shared rows is forgotten when it fails, since they
    /// may have been rolled back.
    private func writingShared<T>(_ body: () throws -> T) throws -> T {
        guard let sharedConnection else { return try body() }
        var attempt = 0
        do {
            return try sharedConnection.retryingTransaction {
                // A deadlock or serialization failure rolled the previous attempt back.
                attempt += 1
                if attempt > 1 { forgetSharedRows() }
                return try body()
            }
        } catch {
            forgetSharedRows()
            throw error
        }
    }

    private func forgetSharedRows() {
        deviceIDs.removeAll()
        knownCertificates.removeAll()
        storedDER.removeAll()
    }

    /// The row ids of devices (in the order given), inserting those this run has not met yet.
    private func deviceIDs(_ udids: [String], seen: SQLValue) throws -> [Int64] {
        // One lookup per device when the run has met them all (most profiles, most of the time).
        var ids: [Int64] = []
        ids.reserveCapacity(udids.count)
        var missing = Set<String>()
        for udid in udids {
            if let id = deviceIDs[udid] { ids.append(id) } else { missing.insert(udid) }
        }
        guard !missing.isEmpty else { return ids }
        let array = SQLValue.text(JSONValue.strings(missing.sorted()).serialized())
        try run(.insertDevices, [seen, array])
        try sharedDB.eachRow("SELECT id, udid FROM devices WHERE udid IN (\(sharedDB.dialect.jsonArrayElements("?")))",
                             [array]) { row in
            if let udid = row.string("udid"), let id = row.int64("id") { deviceIDs[udid] = id }
        }
        return udids.compactMap { deviceIDs[$0] }
    }

    // MARK: Runs

    package func beginRun(roots: [String], at now: Date) throws -> Int64 {
        insertedThisRun.removeAll()
        hadProfilesBeforeRun = try db.firstRow("SELECT 1 FROM profiles LIMIT 1") != nil
        holdsVerified = nil
        holdsUnverified = nil
        let row = try db.rows("""
            INSERT INTO ingest_runs (host, started_at, roots, status) VALUES (:host, :started, :roots, 'running')
            RETURNING id
            """, named: [":host": .text(host), ":started": SQLValue(now),
                         ":roots": .text(JSONValue.strings(roots).serialized())]).first
        guard let id = row?.int64("id") else { throw StoreError.unexpectedValue(column: "ingest_runs.id", value: "none") }
        return id
    }

    /// Ends run `runID`: `reason` says why a `failed` or `partial` run failed.
    package func finishRun(_ runID: Int64, counts: RunCounts, status: RunStatus, reason: String? = nil, at now: Date) throws {
        try flushDeviceLinks()
        try db.write("""
            UPDATE ingest_runs SET finished_at = :finished, status = :status, partial = :partial, reason = :reason,
                files_scanned = :files_scanned, files_unchanged = :files_unchanged,
                files_decoded = :files_decoded, profiles_new = :profiles_new,
                profiles_renewed = :profiles_renewed, profiles_removed = :profiles_removed,
                builds_seen = :builds_seen, builds_new = :builds_new, builds_removed = :builds_removed,
                errors = :errors
            WHERE id = :id
            """, named: [
                ":finished": SQLValue(now), ":status": .text(status == .partial ? RunStatus.failed.rawValue : status.rawValue),
                ":partial": .integer(status == .partial ? 1 : 0), ":reason": reason.map(SQLValue.text) ?? .null, ":id": .integer(runID),
                ":files_scanned": SQLValue(counts.filesScanned),
                ":files_unchanged": SQLValue(counts.filesUnchanged),
                ":files_decoded": SQLValue(counts.filesDecoded),
                ":profiles_new": SQLValue(counts.profilesNew),
                ":profiles_renewed": SQLValue(counts.profilesRenewed),
                ":profiles_removed": SQLValue(counts.profilesRemoved),
                ":builds_seen": SQLValue(counts.buildsSeen),
                ":builds_new": SQLValue(counts.buildsNew),
                ":builds_removed": SQLValue(counts.buildsRemoved),
                ":errors": SQLValue(counts.errors),
            ])
    }

    package func recordError(run runID: Int64, path: String, message: String) throws {
        try db.write("INSERT INTO ingest_errors (run_id, path, message) VALUES (?, ?, ?)",
                       [.integer(runID), .text(path), .text(message)])
    }

    /// Clears the errors that this host's runs before `runID` recorded at or below `root`, except at the paths
    /// `keep` says are still unknown (under a folder this run could not list). The caller has just
    /// walked `root` and recorded again every problem still there: what it did not meet is gone.
    package func clearErrors(under root: String, before runID: Int64, at now: Date,
                             keep: (String) -> Bool = { _ in false }) throws {
        let range = PathRange(root)
        var cleared: [Int64] = []
        try db.eachRow("""
            SELECT id, path FROM ingest_errors
            WHERE cleared_at IS NULL AND run_id < ? AND (path = ? OR (path >= ? AND path < ?))
              AND run_id IN (SELECT id FROM ingest_runs WHERE host = ?)
            """, [.integer(runID), .text(range.root), .text(range.lower), .text(range.upper), .text(host)]) { row in
            if let id = row.int64("id"), !keep(row.string("path") ?? "") { cleared.append(id) }
        }
        for id in cleared {
            try db.write("UPDATE ingest_errors SET cleared_at = ? WHERE id = ?", [SQLValue(now), .integer(id)])
        }
    }

    // MARK: The incremental index

    /// True when the catalogue holds no profile, build or file yet, of any host: a run into it
    /// finds nothing stored that it could see removed or seen again.
    package func holdsNothing() throws -> Bool {
        try db.holdsNothing()
    }

    /// The index entries of this host's paths at or below `root`.
    package func fileStamps(under root: String) throws -> [String: FileStamp] {
        // Gathered first, so the dictionary is sized once instead of rehashed at every doubling
        // (the paths are unique: they are the table's key with the host).
        var entries: [(String, FileStamp)] = []
        let range = PathRange(root)
        try db.eachRow("""
            SELECT path, size, mtime_ns, status FROM files
            WHERE host = ? AND (path = ? OR (path >= ? AND path < ?))
            """, [.text(host), .text(range.root), .text(range.lower), .text(range.upper)]) { row in
            guard let path = row.string("path") else { return }
            entries.append((path, FileStamp(size: row.int64("size") ?? -1, mtimeNanoseconds: row.int64("mtime_ns") ?? -1,
                                            status: row.string("status").flatMap(FileStatus.init(rawValue:)) ?? .error)))
        }
        return Dictionary(entries, uniquingKeysWith: { first, _ in first })
    }

    package func recordFile(_ path: String, stamp: FileStamp, kind: String, sha256: String?, run runID: Int64) throws {
        try db.write("""
            INSERT INTO files (host, path, size, mtime, mtime_ns, kind, sha256, status, last_run_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (host, path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime,
                mtime_ns = excluded.mtime_ns, kind = excluded.kind, sha256 = excluded.sha256,
                status = excluded.status, last_run_id = excluded.last_run_id
            """, [.text(host), .text(path), .integer(stamp.size),
                  SQLValue(Date(timeIntervalSince1970: Double(stamp.mtimeNanoseconds) / 1e9)),
                  .integer(stamp.mtimeNanoseconds), .text(kind), SQLValue(sha256), .text(stamp.status.rawValue),
                  .integer(runID)])
    }

    package func forgetFile(_ path: String) throws {
        try db.write("DELETE FROM files WHERE host = ? AND path = ?", [.text(host), .text(path)])
    }

    // MARK: Profiles

    /// Marks a catalogued profile as seen now, without decoding it again: its `last_seen` moves to
    /// now unless a host saw it later, and its `first_seen` back to now when a host whose run began
    /// earlier wrote it first (two hosts' runs, a second apart or on skewed clocks, both meeting a
    /// profile new to the fleet: the first row stays the earliest sighting, as the upsert keeps it).
    package func touchProfile(_ uuid: String, at now: Date) throws {
        let seen = SQLValue(now)
        try run(.touchProfile, [seen, seen, .text(uuid), seen, seen])
    }

    /// Inserts a new profile (with its certificates, devices and entitlements) or, when its UUID is
    /// known, refreshes it — replacing the child rows only when the content changed.
    /// `rewrite` replaces the rows even when the content is unchanged (`ingest --full`, so a decoder
    /// fix reaches profiles already catalogued).
    /// `compact` is the profile's raw plist as stored (``StoredPlist/encode(_:with:)``), made by the
    /// caller on a decoding thread; made here when not given.
    @discardableResult
    package func upsertProfile(_ profile: ProvisioningProfile, at now: Date, rewrite: Bool = false,
                               compact: StoredPlist.Encoded? = nil) throws -> ProfileChange {
        // Most profiles a fleet's hosts meet are catalogued already, unchanged: no transaction for them.
        // A run into a catalogue that held no profile knows the ones it has written itself; any other
        // is new, without a lookup (100,000 of them in a first ingest of 100,000 profiles). On
        // PostgreSQL another host may have written it since the run began: `writingShared` reads again.
        let stored = hadProfilesBeforeRun || insertedThisRun.contains(profile.uuid) ? try storedProfile(profile.uuid) : nil
        if stored?.sha256 == profile.sha256, !rewrite {
            try touchProfile(profile.uuid, at: now)
            return .unchanged
        }
        let change = try writingShared {
            // Another host may have written it since (PostgreSQL): read it again inside.
            let existing = sharedConnection == nil ? stored : try storedProfile(profile.uuid)
            return try writeProfile(profile, existing: existing, at: now, rewrite: rewrite, compact: compact)
        }
        if change == .new || change == .renewed { try noteRefusedRenewals(profile) }
        return change
    }

    /// The refused renewals (``RefusedRenewal``) met since the last call, in the order met.
    package func takeRefusedRenewals() -> [RefusedRenewal] {
        defer { refusedRenewals.removeAll() }
        return refusedRenewals
    }

    /// Adds the profile `profileID` to the lists of `devices` (migration 0017). On SQLite the
    /// links wait in memory for ``flushDeviceLinks()``; on PostgreSQL each device gets a row of its
    /// own under this profile's id, in the profile's transaction, sorted by device (the order every
    /// writer takes their locks in). Two hosts that both find a profile new write the same keys, and
    /// the second's lists merge into the first's. Were the two copies of that UUID to list other
    /// devices (Apple never changes a profile under its UUID), the lists would keep both until the
    /// profile is next updated.
    private func linkDevices(_ profileID: Int64, to devices: [Int64]) throws {
        guard !devices.isEmpty else { return }
        if sharedConnection != nil {
            try run(.linkProfileToDevices, [.integer(profileID), .text(Self.jsonArray([profileID])),
                                            .text(Self.jsonArray(Set(devices).sorted()))])
            return
        }
        for device in devices { pendingDeviceLinks[device, default: []].append(profileID) }
        pendingDeviceLinkCount += devices.count
        if pendingDeviceLinkCount >= Self.deviceLinkBatch { try flushDeviceLinks() }
    }

    /// Takes the profile `profileID` out of the lists of `devices`, dropping lists left empty.
    private func unlinkDevices(_ profileID: Int64, from devices: [Int64]) throws {
        guard !devices.isEmpty else { return }
        // Links still in memory may name the profile: in the table first.
        try flushDeviceLinks()
        for device in Set(devices).sorted() {
            try run(.unlinkDevice, [.integer(profileID), .integer(device), .integer(profileID)])
            try run(.dropEmptyDeviceLists, [.integer(device)])
        }
    }

    /// Writes the device links waiting in memory (SQLite): a row per device, its profile ids
    /// ascending, keyed by the least. Called before the run's transaction commits (``finishRun``);
    /// a writer used without `finishRun` calls it before committing.
    package func flushDeviceLinks() throws {
        guard pendingDeviceLinkCount > 0 else { return }
        for (device, profiles) in pendingDeviceLinks.sorted(by: { $0.key < $1.key }) {
            // Ascending already, but for a profile linked again after an update; a device a
            // profile lists twice is linked once.
            var ascending: [Int64] = []
            ascending.reserveCapacity(profiles.count)
            for id in profiles.sorted() where ascending.last != id { ascending.append(id) }
            try run(.linkDevices, [.integer(device), .integer(ascending[0]), .text(Self.jsonArray(ascending))])
        }
        pendingDeviceLinks.removeAll(keepingCapacity: true)
        pendingDeviceLinkCount = 0
    }

    /// What an upsert needs of a catalogued profile: its content hash, and the device ids an update
    /// replaces (`profiles.device_ids`, JSON).
    private struct StoredProfile {
        var sha256: String?
        var deviceIDs: String?
    }

    /// The catalogued profile `uuid`; nil when there is none.
    private func storedProfile(_ uuid: String) throws -> StoredProfile? {
        try sharedDB.firstRow("SELECT sha256, device_ids FROM profiles WHERE uuid = ?", [.text(uuid)]).map {
            StoredProfile(sha256: $0.string("sha256"), deviceIDs: $0.string("device_ids"))
        }
    }

    /// `existing`: the catalogued profile, nil when it is new.
    private func writeProfile(_ profile: ProvisioningProfile, existing: StoredProfile?, at now: Date, rewrite: Bool,
                              compact: StoredPlist.Encoded?) throws -> ProfileChange {
        if existing?.sha256 == profile.sha256, !rewrite {
            try touchProfile(profile.uuid, at: now)
            return .unchanged
        }
        let compact = compact ?? StoredPlist.encode(profile)
        // The certificates the stored plist refers to, stored first (once per run each), by key.
        for (sha1, der) in compact.certificates.sorted(by: { $0.key < $1.key }) where storedDER.insert(sha1).inserted {
            try run(.insertCertificateDER, [.text(sha1), .blob(der)])
        }
        let deviceIDs = profile.devices.isEmpty ? [] : try deviceIDs(profile.devices, seen: SQLValue(now))
        // The device ids an update replaces, read with the hash before the upsert overwrites them.
        let oldDeviceIDs = existing?.deviceIDs.map { StoredJSON().ids($0) } ?? []
        // Positional values in the column order of `HotStatement.upsertProfile`: this statement runs
        // once per new profile, and a dictionary of named values, the lookup of its long SQL by
        // text and binding by name were a large part of its cost on the writing thread (kept for
        // speed: cold ingest, bench.py).
        let seen = SQLValue(now)
        let values: [SQLValue] = [
            .text(profile.uuid), .text(profile.name), SQLValue(profile.appIDName), SQLValue(profile.teamID),
            SQLValue(profile.teamName), .text(JSONValue.strings(profile.teamIdentifiers).serialized()),
            .text(JSONValue.strings(profile.applicationIdentifierPrefixes).serialized()),
            .text(JSONValue.strings(profile.platforms).serialized()),
            .text(profile.kind.rawValue), SQLValue(profile.xcodeManaged), SQLValue(profile.ppqCheck),
            SQLValue(profile.creationDate), SQLValue(profile.expirationDate),
            SQLValue(profile.effectiveExpirationDate), .text(profile.effectiveExpiryCause.rawValue),
            SQLValue(profile.applicationIdentifier), SQLValue(profile.bundleID), SQLValue(profile.apsEnvironment),
            SQLValue(profile.getTaskAllow), SQLValue(profile.provisionsAllDevices), SQLValue(profile.devices.count),
            SQLValue(profile.certificates.count), SQLValue(profile.timeToLive), SQLValue(profile.version),
            .text(profile.sha256), seen, seen,
            SQLValue(profile.signature?.status.rawValue), SQLValue(profile.signature?.reason),
            .text(profile.derProfile.status.rawValue),
            .text(JSONValue.strings(profile.derProfile.differences).serialized()),
            deviceIDs.isEmpty ? .null : .text(Self.jsonArray(deviceIDs)),
        ]
        guard let profileID = try runReturningID(.upsertProfile, values)
                ?? sharedDB.firstRow("SELECT id FROM profiles WHERE uuid = ?", [.text(profile.uuid)])?.int64("id")
        else { throw StoreError.unexpectedValue(column: "profiles.id", value: "none") }
        // In a table of its own (migration 0016): the rest of the row stays on one page.
        try run(.upsertPlist, [.integer(profileID), .blob(compact.bytes)])
        if existing != nil {
            try sharedDB.write("DELETE FROM profile_certificates WHERE profile_id = ?", [.integer(profileID)])
            try sharedDB.write("DELETE FROM profile_undecodable_certificates WHERE profile_uuid = ?", [.text(profile.uuid)])
            try sharedDB.write("DELETE FROM entitlements WHERE profile_id = ?", [.integer(profileID)])
        }
        try insertChildren(of: profile, id: profileID, at: now)
        // Only the links that changed: `ingest --full` rewrites every profile, nearly always with
        // the same devices.
        if oldDeviceIDs.isEmpty {
            try linkDevices(profileID, to: deviceIDs)
        } else {
            let kept = Set(oldDeviceIDs).intersection(deviceIDs)
            try unlinkDevices(profileID, from: oldDeviceIDs.filter { !kept.contains($0) })
            try linkDevices(profileID, to: deviceIDs.filter { !kept.contains($0) })
        }
        if existing != nil { return .updated }
        let renewal = try hadProfilesBeforeRun && isRenewal(profile)
        insertedThisRun.insert(profile.uuid)
        return renewal ? .renewed : .new
    }

    /// The profile's certificates and entitlements (`id`: the profile's row id). Certificates are
    /// inserted sorted by key before any link, the order every writer takes their locks in.
    private func insertChildren(of profile: ProvisioningProfile, id profileID: Int64, at now: Date) throws {
        let uuid = SQLValue.text(profile.uuid)
        let seen = SQLValue(now)
        let certificates = profile.certificates.sorted { $0.sha1 < $1.sha1 }
        for certificate in certificates where knownCertificates.insert(certificate.sha1).inserted {
            try run(.insertCertificate, [
                .text(certificate.sha1), .text(certificate.sha256), SQLValue(certificate.commonName),
                SQLValue(certificate.teamID), SQLValue(certificate.organization),
                SQLValue(certificate.issuerCommonName), .text(certificate.serial),
                SQLValue(certificate.notBefore), SQLValue(certificate.notAfter), seen,
                SQLValue(certificate.type?.rawValue),
            ])
        }
        if !certificates.isEmpty {
            try run(.linkCertificate, [.integer(profileID), .text(JSONValue.strings(certificates.map(\.sha1)).serialized())])
        }
        for entry in profile.undecodableCertificates {
            try run(.insertUndecodableCertificate, [uuid, SQLValue(entry.index), SQLValue(entry.size),
                                                    .text(entry.sha1), .text(entry.sha256), .text(entry.reason)])
        }
        if !profile.entitlements.isEmpty {
            try run(.insertEntitlements, [.integer(profileID), .text(Self.entitlementsObject(profile.entitlements))])
        }
    }

    /// The JSON object `insertEntitlements` takes: each entitlement's key, with its value's JSON
    /// text as a JSON string.
    static func entitlementsObject(_ entitlements: PlistDictionary) -> String {
        JSONValue.object(entitlements.map { ($0.0, .string($0.1.json.serialized())) }).serialized()
    }

    /// `ids` as a JSON array.
    static func jsonArray(_ ids: [Int64]) -> String {
        JSONValue.array(ids.map(JSONValue.int)).serialized()
    }

    /// Whether `profile` (new to the catalogue) renews one catalogued before this run, as
    /// `CatalogQueries.supersededBy` defines it: same team, application identifier (as written), kind
    /// and platforms, an earlier effective expiry than `profile`'s, and a signature `profile`'s may
    /// renew (``SignatureTrust``).
    private func isRenewal(_ profile: ProvisioningProfile) throws -> Bool {
        let group = Self.renewalGroup(profile)
        return try sharedDB.rows("""
            SELECT uuid FROM profiles
            WHERE \(group.sql) AND effective_expiration_date < ? AND platforms = ? AND uuid <> ?
              AND \(SignatureTrust.neededSQL("signature")) <= ?
            """, group.values + [SQLValue(profile.effectiveExpirationDate),
                                 .text(JSONValue.strings(profile.platforms).serialized()), .text(profile.uuid),
                                 .integer(Int64(SignatureTrust.rank(profile.signature?.status)))])
            .contains { !insertedThisRun.contains($0.string("uuid") ?? "") }
    }

    /// Notes the renewals of a verified profile that `profile`, new to the catalogue, claims or is
    /// claimed by and that its signature or theirs refuses: when `profile` is verified, the
    /// unverified profiles of its group expiring after it; else the verified ones expiring before
    /// it. Each such pair is met once, when the second of the two is catalogued, in any order.
    private func noteRefusedRenewals(_ profile: ProvisioningProfile) throws {
        let verified = profile.signature?.status == .verified
        // A first run into an empty catalogue (on SQLite, without its indexes) looks once, at its end.
        let othersHeld = hadProfilesBeforeRun ? try holds(verified: !verified) : false
        if verified { holdsVerified = true } else { holdsUnverified = true }
        guard othersHeld else { return }
        let group = Self.renewalGroup(profile)
        let others = verified
            ? "effective_expiration_date > ? AND (signature IS NULL OR signature <> 'verified')"
            : "effective_expiration_date < ? AND signature = 'verified'"
        for row in try sharedDB.rows("""
            SELECT uuid, signature FROM profiles WHERE \(group.sql) AND platforms = ? AND \(others) ORDER BY uuid
            """, group.values + [.text(JSONValue.strings(profile.platforms).serialized()),
                                 SQLValue(profile.effectiveExpirationDate)]) {
            let other = row.string("uuid") ?? ""
            refusedRenewals.append(verified
                ? RefusedRenewal(claimant: other, claimantSignature: try row.optionalValue("signature", as: ProfileSignature.Status.self),
                                 verified: profile.uuid)
                : RefusedRenewal(claimant: profile.uuid, claimantSignature: profile.signature?.status, verified: other))
        }
    }

    /// After a run into a catalogue that held no profile, which looked for none as it wrote them:
    /// every refused renewal among the profiles it wrote, in one search (SQLite, whose indexes are
    /// built after the run, makes its own for it), each with the claimant's path on this host.
    package func noteRefusedRenewalsOfFirstRun() throws {
        guard !hadProfilesBeforeRun, holdsVerified == true, holdsUnverified == true else { return }
        // The run's connection: on PostgreSQL the host's locations are not committed yet.
        let dialect = db.dialect
        for row in try db.rows("""
            SELECT c.uuid AS claimant, c.signature AS signature, v.uuid AS verified, min(l.path) AS path
            FROM profiles v JOIN profiles c
              ON \(dialect.nullSafeEquals("c.team_id", "v.team_id"))
             AND \(dialect.nullSafeEquals("c.application_identifier", "v.application_identifier"))
             AND c.kind = v.kind AND c.platforms = v.platforms
             AND c.effective_expiration_date > v.effective_expiration_date
             AND (c.signature IS NULL OR c.signature <> 'verified')
            LEFT JOIN profile_locations l ON l.profile_uuid = c.uuid AND l.host = ?
            WHERE v.signature = 'verified'
            GROUP BY c.uuid, c.signature, v.uuid ORDER BY c.uuid, v.uuid
            """, [.text(host)]) {
            refusedRenewals.append(RefusedRenewal(
                claimant: row.string("claimant") ?? "",
                claimantSignature: try row.optionalValue("signature", as: ProfileSignature.Status.self),
                verified: row.string("verified") ?? "", path: row.string("path")))
        }
    }

    /// Whether the catalogue holds a verified profile (`verified`), or one that is not.
    private func holds(verified: Bool) throws -> Bool {
        if let known = verified ? holdsVerified : holdsUnverified { return known }
        let found = try sharedDB.firstRow(verified
            ? "SELECT 1 FROM profiles WHERE signature = 'verified' LIMIT 1"
            : "SELECT 1 FROM profiles WHERE signature IS NULL OR signature <> 'verified' LIMIT 1") != nil
        if verified { holdsVerified = found } else { holdsUnverified = found }
        return found
    }

    /// The profiles of `profile`'s team, application identifier (as written) and kind, as a
    /// condition and its values: `column = ?`, or `IS NULL` for a missing value, an index search on
    /// both engines.
    private static func renewalGroup(_ profile: ProvisioningProfile) -> (sql: String, values: [SQLValue]) {
        func matches(_ column: String, _ value: String?) -> String { value == nil ? "\(column) IS NULL" : "\(column) = ?" }
        let values = [profile.teamID, profile.applicationIdentifier].compactMap { $0 }.map(SQLValue.text)
        return ("\(matches("team_id", profile.teamID)) AND \(matches("application_identifier", profile.applicationIdentifier))"
                    + " AND kind = ?", values + [.text(profile.kind.rawValue)])
    }

    // MARK: Locations

    /// Records that the profile `uuid` was found at `path` (a file, or a member of a container).
    package func recordLocation(path: String, profileUUID uuid: String, containerKind: ContainerKind, containerPath: String?,
                                size: Int64?, mtime: Date?, sha256: String?, at now: Date) throws {
        try db.write("""
            INSERT INTO profile_locations (host, path, profile_uuid, container_kind, container_path, size, mtime,
                content_sha256, first_seen, last_seen, removed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
            ON CONFLICT (host, path) DO UPDATE SET profile_uuid = excluded.profile_uuid,
                container_kind = excluded.container_kind, container_path = excluded.container_path,
                size = excluded.size, mtime = excluded.mtime, content_sha256 = excluded.content_sha256,
                last_seen = excluded.last_seen, removed_at = NULL, error = NULL
            """, [.text(host), .text(path), .text(uuid), .text(containerKind.rawValue), SQLValue(containerPath),
                  SQLValue(size), SQLValue(mtime), SQLValue(sha256), SQLValue(now), SQLValue(now)])
    }

    // MARK: Builds

    /// Inserts or refreshes the build at (`path`, `appPath`); returns its id and whether it is new.
    /// `profileUUID` names the embedded profile when the artifact carries only its hash (the ingester
    /// decodes each content once per run); by default it is the decoded profile's.
    package func upsertBuild(_ artifact: BuildArtifact, appPath: String, profileUUID: String? = nil, parentID: Int64?,
                             size: Int64?, mtime: Date?, at now: Date) throws -> (id: Int64, isNew: Bool) {
        let existing = try buildID(path: artifact.path, appPath: appPath)
        let info = artifact.info
        // Positional, in the column order of `HotStatement.upsertBuild` (see `writeProfile`).
        let profileUUID = SQLValue(profileUUID ?? artifact.profile?.uuid), seen = SQLValue(now)
        // Judged from the signing subjects as the signing problems are: the caller has filled in the
        // embedded profiles that another file's worker decoded.
        let limit = artifact.launchLimit
        let id = try runReturningID(.upsertBuild, [
            .text(host), SQLValue(info.bundleID), SQLValue(info.name), SQLValue(info.displayName),
            .text(info.shortVersion), .text(info.build), .text(VersionOrder.sortKey(info.shortVersion)),
            .text(VersionOrder.sortKey(info.build)), SQLValue(info.unresolved), SQLValue(info.platform),
            SQLValue(info.minimumOSVersion), SQLValue(info.packageType), .text(artifact.sourceKind.rawValue),
            .text(artifact.path), .text(appPath), SQLValue(parentID), profileUUID,
            SQLValue(artifact.profileError?.message), SQLValue(artifact.teamID ?? artifact.profile?.teamID), profileUUID,
            SQLValue(artifact.signingIdentity), SQLValue(artifact.scheme), SQLValue(artifact.archivedAt), SQLValue(size),
            SQLValue(mtime), SQLValue(artifact.embeddedProfileSHA256 ?? artifact.profile?.sha256), seen, seen,
            // A stray Info.plist has no signature to judge.
            SQLValue(artifact.sourceKind != .plist),
            SQLValue(limit?.date), SQLValue(limit?.cause.rawValue), SQLValue(limit?.executable), SQLValue(limit?.reason),
        ])
        guard let id = existing ?? id else { throw StoreError.unexpectedValue(column: "builds.id", value: "none") }
        try replaceBinaries(of: id, artifact, isNew: existing == nil)
        return (id, existing == nil)
    }

    package func buildID(path: String, appPath: String) throws -> Int64? {
        try db.firstRow("SELECT id FROM builds WHERE host = ? AND path = ? AND app_path = ?",
                        [.text(host), .text(path), .text(appPath)])?.int64("id")
    }

    // MARK: End of a run

    /// This host's paths at or below `root` that the catalogue holds as present (builds, locations).
    package func livePaths(under root: String) throws -> (builds: [String], locations: [String]) {
        let range = PathRange(root)
        let params: [SQLValue] = [.text(host), .text(range.root), .text(range.lower), .text(range.upper)]
        let builds = try db.rows("""
            SELECT DISTINCT path FROM builds
            WHERE removed_at IS NULL AND host = ? AND (path = ? OR (path >= ? AND path < ?))
            """, params).compactMap { $0.string("path") }
        // dSYM folders and zips are containers the walk sees as builds are.
        let debugSymbols = try db.rows("""
            SELECT DISTINCT path FROM debug_symbols
            WHERE removed_at IS NULL AND host = ? AND (path = ? OR (path >= ? AND path < ?))
            """, params).compactMap { $0.string("path") }
        let locations = try db.rows("""
            SELECT path FROM profile_locations
            WHERE removed_at IS NULL AND host = ? AND (path = ? OR (path >= ? AND path < ?))
            """, params).compactMap { $0.string("path") }
        return (builds + debugSymbols, locations)
    }

    /// Marks a build container (and every bundle recorded inside it) as gone. Never deletes.
    /// Returns how many builds were present; the dSYMs read there (a `.dSYM` folder or a zip) go too.
    package func markBuildRemoved(path: String, at now: Date) throws -> Int {
        try db.write("UPDATE debug_symbols SET removed_at = ? WHERE host = ? AND path = ? AND removed_at IS NULL",
                     [SQLValue(now), .text(host), .text(path)])
        return try db.write("UPDATE builds SET removed_at = ? WHERE host = ? AND path = ? AND removed_at IS NULL",
                            [SQLValue(now), .text(host), .text(path)])
    }

    /// Marks the builds recorded in the container at `path` whose app folder is none of `appPaths`
    /// as gone (a zip re-read without a bundle it held). Returns how many were present.
    package func markBuildsRemoved(path: String, keeping appPaths: Set<String>, at now: Date) throws -> Int {
        let stale = try db.rows("SELECT app_path FROM builds WHERE host = ? AND path = ? AND removed_at IS NULL",
                                [.text(host), .text(path)]).compactMap { $0.string("app_path") }.filter { !appPaths.contains($0) }
        var removed = 0
        for appPath in stale {
            removed += try db.write("""
                UPDATE builds SET removed_at = ? WHERE host = ? AND path = ? AND app_path = ? AND removed_at IS NULL
                """, [SQLValue(now), .text(host), .text(path), .text(appPath)])
        }
        return removed
    }

    /// Marks the profile locations inside the zip at `path` (`X.ipa!member`) that are none of `kept`
    /// as gone: a bundle re-read without the profile it embedded, or no longer there. Returns the
    /// profiles that were present there until now.
    package func markMembersRemoved(container path: String, keeping kept: Set<String>, at now: Date) throws -> Set<String> {
        // The range of the path index into the zip ('"' follows '!').
        let rows = try db.rows("""
            SELECT path, profile_uuid FROM profile_locations
            WHERE host = ? AND path >= ? AND path < ? AND container_path = ? AND removed_at IS NULL
            """, [.text(host), .text(path + "!"), .text(path + "\""), .text(path)])
        var lost = Set<String>()
        for row in rows {
            guard let location = row.string("path"), !kept.contains(location) else { continue }
            try markLocationRemoved(path: location, at: now)
            if let uuid = row.string("profile_uuid") { lost.insert(uuid) }
        }
        return lost
    }

    /// The file at `path` no longer decodes: the profile locations found in it (the file itself, or
    /// members of the container at `path`) are no longer present, with `message` as the reason. Their
    /// other facts stay those of the last time they decoded. Returns the profiles that were present
    /// there until now.
    package func failLocations(path: String, message: String, at now: Date) throws -> Set<String> {
        // Members of a container have paths below it (`X.app/…`) or into it (`X.ipa!…`): two ranges
        // of the path index ('"' follows '!'), then only those recorded for this container.
        let range = PathRange(path)
        let scope = """
            host = :host AND (path = :path OR (path >= :lower AND path < :upper) OR (path >= :bang AND path < :quote))
            AND (path = :path OR container_path = :path)
            """
        var values: [String: SQLValue] = [
            ":path": .text(range.root), ":lower": .text(range.lower), ":upper": .text(range.upper),
            ":bang": .text(range.root + "!"), ":quote": .text(range.root + "\""), ":host": .text(host),
        ]
        var uuids = Set<String>()
        for row in try db.rows("SELECT profile_uuid FROM profile_locations WHERE removed_at IS NULL AND \(scope)",
                               named: values) {
            if let uuid = row.string("profile_uuid") { uuids.insert(uuid) }
        }
        values[":now"] = SQLValue(now)
        values[":message"] = .text(message)
        try db.write("""
            UPDATE profile_locations SET removed_at = COALESCE(removed_at, :now), error = :message WHERE \(scope)
            """, named: values)
        return uuids
    }

    /// The container at `path` no longer decodes: its builds are no longer present, with `message`
    /// as the reason. Returns how many were present until now.
    package func failBuilds(path: String, message: String, at now: Date) throws -> Int {
        let present = try markBuildRemoved(path: path, at: now)
        try db.write("UPDATE builds SET error = ? WHERE host = ? AND path = ?", [.text(message), .text(host), .text(path)])
        return present
    }

    package func markLocationRemoved(path: String, at now: Date) throws {
        try db.write("UPDATE profile_locations SET removed_at = ? WHERE host = ? AND path = ? AND removed_at IS NULL",
                     [SQLValue(now), .text(host), .text(path)])
    }

    /// Marks every still-present build and location of this host under `root` as seen now (one statement each, so
    /// an unchanged tree costs two updates, not one per file).
    package func touchLive(under root: String, at now: Date) throws {
        let range = PathRange(root)
        let params: [SQLValue] = [SQLValue(now), .text(host), .text(range.root), .text(range.lower), .text(range.upper)]
        try db.write("""
            UPDATE builds SET last_seen = ?
            WHERE removed_at IS NULL AND host = ? AND (path = ? OR (path >= ? AND path < ?))
            """, params)
        try db.write("""
            UPDATE profile_locations SET last_seen = ?
            WHERE removed_at IS NULL AND host = ? AND (path = ? OR (path >= ? AND path < ?))
            """, params)
        try db.write("""
            UPDATE debug_symbols SET last_seen = ?
            WHERE removed_at IS NULL AND host = ? AND (path = ? OR (path >= ? AND path < ?))
            """, params)
    }

    /// Profiles with at least one location on this host, every one of which is now removed, among
    /// `uuids` (what this host's run counts removed; another host may still have them).
    package func profilesWithoutLiveLocation(_ uuids: Set<String>) throws -> Int {
        var count = 0
        for uuid in uuids {
            let live = try db.firstRow("""
                SELECT 1 FROM profile_locations WHERE profile_uuid = ? AND host = ? AND removed_at IS NULL LIMIT 1
                """, [.text(uuid), .text(host)])
            if live == nil { count += 1 }
        }
        return count
    }

    package func profileUUIDs(atLocations paths: [String]) throws -> Set<String> {
        var uuids = Set<String>()
        for path in paths {
            if let uuid = try db.firstRow("SELECT profile_uuid FROM profile_locations WHERE host = ? AND path = ?",
                                          [.text(host), .text(path)])?.string("profile_uuid") {
                uuids.insert(uuid)
            }
        }
        return uuids
    }
}

/// The paths at or below a root as a range usable by an index: `root/` ≤ path < `root0`
/// ('0' is the character after '/').
package struct PathRange: Sendable {
    package let root: String
    package let lower: String
    package let upper: String

    package init(_ root: String) {
        let trimmed = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.root = trimmed
        self.lower = trimmed == "/" ? "/" : trimmed + "/"
        self.upper = trimmed == "/" ? "0" : trimmed + "0"
    }
}
