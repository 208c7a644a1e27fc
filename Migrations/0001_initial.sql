-- 0001_initial: the first catalogue schema.
--
-- Conventions (every later migration keeps them):
--   * Dates are ISO-8601 UTC text with whole seconds, '2026-11-29T10:00:00Z'; they sort as text.
--   * Booleans are INTEGER 0/1. JSON values are TEXT. Hex digests are uppercase without separators.
--   * first_seen/last_seen are when an ingest run first and last saw the row; removed_at is set when
--     a run no longer finds the path, and cleared if it comes back.
--   * The migrator runs each file inside its own transaction: no BEGIN/COMMIT here.

-- A provisioning profile, by UUID: every decoded field, plus the raw plist so a later migration can
-- extract keys this schema does not type.
CREATE TABLE profiles (
    id                         INTEGER PRIMARY KEY,                -- compact key for the device links
    uuid                       TEXT NOT NULL UNIQUE,               -- uppercased
    name                       TEXT NOT NULL,
    app_id_name                TEXT,
    team_id                    TEXT,                               -- TeamIdentifier[0], else the app id prefix
    team_name                  TEXT,
    team_identifiers           TEXT NOT NULL DEFAULT '[]',         -- JSON array
    app_id_prefixes            TEXT NOT NULL DEFAULT '[]',         -- JSON array, ApplicationIdentifierPrefix
    platforms                  TEXT NOT NULL DEFAULT '[]',         -- JSON array, e.g. ["iOS"]
    kind                       TEXT NOT NULL
        CHECK (kind IN ('development', 'ad-hoc', 'app-store', 'enterprise', 'developer-id')),
    xcode_managed              INTEGER CHECK (xcode_managed IN (0, 1)),
    ppq_check                  INTEGER CHECK (ppq_check IN (0, 1)),
    creation_date              TEXT NOT NULL,
    expiration_date            TEXT NOT NULL,
    effective_expiration_date  TEXT NOT NULL,                      -- min(expiration_date, latest certificate not_after)
    expiry_cause               TEXT NOT NULL CHECK (expiry_cause IN ('profile', 'certificate')),
    application_identifier     TEXT,                               -- with team prefix
    bundle_id                  TEXT,                               -- without prefix; wildcards kept
    aps_environment            TEXT,
    get_task_allow             INTEGER CHECK (get_task_allow IN (0, 1)),
    provisions_all_devices     INTEGER NOT NULL DEFAULT 0 CHECK (provisions_all_devices IN (0, 1)),
    device_count               INTEGER NOT NULL DEFAULT 0,
    certificate_count          INTEGER NOT NULL DEFAULT 0,
    time_to_live               INTEGER,
    version                    INTEGER,
    sha256                     TEXT NOT NULL,                      -- of the profile file as found (CMS envelope)
    raw_plist                  BLOB NOT NULL,
    first_seen                 TEXT NOT NULL,
    last_seen                  TEXT NOT NULL
);
CREATE INDEX profiles_effective_expiration_date ON profiles (effective_expiration_date);
CREATE INDEX profiles_expiration_date ON profiles (expiration_date);
CREATE INDEX profiles_team_id ON profiles (team_id);
CREATE INDEX profiles_bundle_id ON profiles (bundle_id);
CREATE INDEX profiles_name ON profiles (name);

-- Every place a profile was seen: a standalone file, or embedded in an .app, .ipa or .xcarchive.
CREATE TABLE profile_locations (
    id              INTEGER PRIMARY KEY,
    path            TEXT NOT NULL UNIQUE,   -- for an .ipa member: the ingester's composed path into the archive
    profile_uuid    TEXT NOT NULL REFERENCES profiles (uuid) ON DELETE CASCADE,
    container_kind  TEXT NOT NULL CHECK (container_kind IN ('standalone', 'app', 'ipa', 'xcarchive')),
    container_path  TEXT,                   -- the .app/.ipa/.xcarchive; NULL for standalone
    size            INTEGER,
    mtime           TEXT,
    content_sha256  TEXT,
    first_seen      TEXT NOT NULL,
    last_seen       TEXT NOT NULL,
    removed_at      TEXT
);
CREATE INDEX profile_locations_profile_uuid ON profile_locations (profile_uuid);

-- Developer certificates, shared by the profiles that list them.
CREATE TABLE certificates (
    sha1                TEXT PRIMARY KEY NOT NULL,
    sha256              TEXT NOT NULL UNIQUE,
    common_name         TEXT,
    team_id             TEXT,               -- subject OU
    organization        TEXT,               -- subject O
    issuer_common_name  TEXT,
    serial              TEXT NOT NULL,      -- uppercase hex
    not_before          TEXT NOT NULL,
    not_after           TEXT NOT NULL,
    first_seen          TEXT NOT NULL
);
CREATE INDEX certificates_not_after ON certificates (not_after);
CREATE INDEX certificates_team_id ON certificates (team_id);

CREATE TABLE profile_certificates (
    profile_uuid      TEXT NOT NULL REFERENCES profiles (uuid) ON DELETE CASCADE,
    certificate_sha1  TEXT NOT NULL REFERENCES certificates (sha1),
    PRIMARY KEY (profile_uuid, certificate_sha1)
) WITHOUT ROWID;
CREATE INDEX profile_certificates_certificate_sha1 ON profile_certificates (certificate_sha1);

-- Devices by UDID, shared by the profiles that provision them. The links are the largest table (a
-- development profile lists up to 100 devices), so they use integer keys: a quarter of the insert
-- cost and size of two text keys.
CREATE TABLE devices (
    id          INTEGER PRIMARY KEY,
    udid        TEXT NOT NULL UNIQUE,
    first_seen  TEXT NOT NULL
);

CREATE TABLE profile_devices (
    profile_id  INTEGER NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    device_id   INTEGER NOT NULL REFERENCES devices (id),
    PRIMARY KEY (profile_id, device_id)
) WITHOUT ROWID;
CREATE INDEX profile_devices_device_id ON profile_devices (device_id);

-- Each top-level key of a profile's Entitlements dict, with its value as JSON.
CREATE TABLE entitlements (
    profile_uuid  TEXT NOT NULL REFERENCES profiles (uuid) ON DELETE CASCADE,
    key           TEXT NOT NULL,
    value_json    TEXT NOT NULL,
    PRIMARY KEY (profile_uuid, key)
) WITHOUT ROWID;

-- App builds: an .app, an .xcarchive, an .ipa or a stray Info.plist, and the bundles nested in them
-- (app extensions, watch apps), which point at their parent. A build is identified by its container
-- path plus the bundle's path inside it ('' when the container is the bundle itself or a plist).
CREATE TABLE builds (
    id                  INTEGER PRIMARY KEY,
    bundle_id           TEXT,
    name                TEXT,
    display_name        TEXT,
    short_version       TEXT NOT NULL,      -- CFBundleShortVersionString, '0.0' when absent
    build               TEXT NOT NULL,      -- CFBundleVersion, '0' when absent
    version_sort        TEXT NOT NULL,      -- VersionOrder.sortKey(short_version)
    build_sort          TEXT NOT NULL,      -- VersionOrder.sortKey(build)
    unresolved          INTEGER NOT NULL DEFAULT 0 CHECK (unresolved IN (0, 1)),  -- still holds $(…)
    platform            TEXT,
    minimum_os_version  TEXT,
    package_type        TEXT,               -- APPL, XPC!, …
    source_kind         TEXT NOT NULL CHECK (source_kind IN ('app', 'ipa', 'xcarchive', 'plist')),
    path                TEXT NOT NULL,      -- the container: .app, .ipa, .xcarchive or Info.plist path
    app_path            TEXT NOT NULL DEFAULT '',
    parent_build_id     INTEGER REFERENCES builds (id) ON DELETE CASCADE,
    profile_uuid        TEXT REFERENCES profiles (uuid) ON DELETE SET NULL,  -- the embedded profile
    profile_error       TEXT,               -- why an embedded profile could not be decoded
    team_id             TEXT,
    signing_identity    TEXT,
    scheme              TEXT,
    archived_at         TEXT,
    size                INTEGER,
    mtime               TEXT,
    content_sha256      TEXT,
    first_seen          TEXT NOT NULL,
    last_seen           TEXT NOT NULL,
    removed_at          TEXT,
    UNIQUE (path, app_path)
);
CREATE INDEX builds_bundle_id_version ON builds (bundle_id, version_sort, build_sort);
CREATE INDEX builds_profile_uuid ON builds (profile_uuid);
CREATE INDEX builds_team_id ON builds (team_id);
CREATE INDEX builds_parent_build_id ON builds (parent_build_id);

-- One row per ingest run.
CREATE TABLE ingest_runs (
    id                INTEGER PRIMARY KEY,
    started_at        TEXT NOT NULL,
    finished_at       TEXT,
    roots             TEXT NOT NULL DEFAULT '[]',   -- JSON array of the scanned roots
    files_scanned     INTEGER NOT NULL DEFAULT 0,
    files_unchanged   INTEGER NOT NULL DEFAULT 0,
    files_decoded     INTEGER NOT NULL DEFAULT 0,
    profiles_new      INTEGER NOT NULL DEFAULT 0,
    profiles_renewed  INTEGER NOT NULL DEFAULT 0,
    profiles_removed  INTEGER NOT NULL DEFAULT 0,
    builds_seen       INTEGER NOT NULL DEFAULT 0,
    builds_new        INTEGER NOT NULL DEFAULT 0,
    builds_removed    INTEGER NOT NULL DEFAULT 0,
    errors            INTEGER NOT NULL DEFAULT 0,
    status            TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'ok', 'failed'))
);

-- The incremental scan index: what each file looked like when last read, so unchanged files are skipped.
CREATE TABLE files (
    path         TEXT PRIMARY KEY NOT NULL,
    size         INTEGER NOT NULL,
    mtime        TEXT NOT NULL,
    mtime_ns     INTEGER,                  -- exact mtime in ns since 1970, for change detection within a second
    kind         TEXT NOT NULL,            -- profile, app, ipa, xcarchive, plist, …
    sha256       TEXT,
    status       TEXT NOT NULL CHECK (status IN ('ok', 'error', 'skipped')),
    last_run_id  INTEGER REFERENCES ingest_runs (id) ON DELETE SET NULL
);
CREATE INDEX files_last_run_id ON files (last_run_id);

CREATE TABLE ingest_errors (
    id       INTEGER PRIMARY KEY,
    run_id   INTEGER NOT NULL REFERENCES ingest_runs (id) ON DELETE CASCADE,
    path     TEXT,
    message  TEXT NOT NULL
);
CREATE INDEX ingest_errors_run_id ON ingest_errors (run_id);
