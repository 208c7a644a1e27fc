-- 0015_check_lists (issue 15): the CHECK constraints that list three or more allowed values are
-- spelled as comparisons joined by OR instead of `IN (…)`, with the same meaning (a NULL value
-- passes both ways).
--
-- SQLite 3.40 checks `column IN (a, b, c)` in a CHECK by building a temporary index of the list
-- every time a statement writes a row, opening and closing a B-tree for it: 2–3 µs each, where the
-- comparisons cost 0.04 µs (100,000 upserts, measured in C against Debian's SQLite). A profile row
-- has three such lists (kind, signature, der_profile), a location, a build and a file index row one
-- each. In a cold ingest of the benchmark tree the writing thread took 16 % fewer samples with
-- this schema (2,497–2,512 against 2,986–3,182, two perf runs each).
--
-- SQLite cannot change a constraint in place: each table is rebuilt by the documented procedure
-- (create new_X, copy, drop X, rename new_X to X, recreate its indexes), with the same columns in
-- the same order, the same keys and row ids. The migrator runs with foreign keys off and checks
-- them all once it is done. The copy costs once what the tables hold (a 685 MB catalogue of
-- 100,000 profiles: 15 s), and the file keeps the old tables' pages as free pages, which later
-- writes reuse (or `VACUUM` returns; that one grew to 1.1 GB). Into an empty catalogue it copies
-- nothing.

CREATE TABLE new_profiles (
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
        CHECK (kind = 'development' OR kind = 'ad-hoc' OR kind = 'app-store' OR kind = 'enterprise'
               OR kind = 'developer-id'),
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
    last_seen                  TEXT NOT NULL,
    signature                  TEXT
        CHECK (signature = 'verified' OR signature = 'unsigned' OR signature = 'invalid'
               OR signature = 'untrusted' OR signature = 'error'),
    signature_reason           TEXT,
    der_profile                TEXT CHECK (der_profile = 'match' OR der_profile = 'mismatch' OR der_profile = 'absent'),
    der_profile_differences    TEXT NOT NULL DEFAULT '[]'
);
INSERT INTO new_profiles SELECT * FROM profiles;
DROP TABLE profiles;
ALTER TABLE new_profiles RENAME TO profiles;
CREATE INDEX profiles_all_devices ON profiles (uuid) WHERE provisions_all_devices = 1;
CREATE INDEX profiles_bundle_id ON profiles (bundle_id COLLATE NOCASE);
CREATE INDEX profiles_expiry_order ON profiles (effective_expiration_date, name, uuid);
CREATE INDEX profiles_name ON profiles (name);
CREATE INDEX profiles_signature ON profiles (signature);
CREATE INDEX profiles_supersession
    ON profiles (team_id, application_identifier, kind, effective_expiration_date, platforms, uuid);

CREATE TABLE new_profile_locations (
    id              INTEGER PRIMARY KEY,
    host            TEXT NOT NULL DEFAULT '',
    path            TEXT NOT NULL,          -- for an .ipa member: the ingester's composed path into the archive
    profile_uuid    TEXT NOT NULL REFERENCES profiles (uuid) ON DELETE CASCADE,
    container_kind  TEXT NOT NULL
        CHECK (container_kind = 'standalone' OR container_kind = 'app' OR container_kind = 'ipa'
               OR container_kind = 'xcarchive'),
    container_path  TEXT,                   -- the .app/.ipa/.xcarchive; NULL for standalone
    size            INTEGER,
    mtime           TEXT,
    content_sha256  TEXT,
    first_seen      TEXT NOT NULL,
    last_seen       TEXT NOT NULL,
    removed_at      TEXT,
    error           TEXT,
    UNIQUE (path, host)
);
INSERT INTO new_profile_locations SELECT * FROM profile_locations;
DROP TABLE profile_locations;
ALTER TABLE new_profile_locations RENAME TO profile_locations;
CREATE INDEX profile_locations_profile_uuid ON profile_locations (profile_uuid);

CREATE TABLE new_builds (
    id                  INTEGER PRIMARY KEY,
    host                TEXT NOT NULL DEFAULT '',
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
    source_kind         TEXT NOT NULL
        CHECK (source_kind = 'app' OR source_kind = 'ipa' OR source_kind = 'xcarchive' OR source_kind = 'plist'),
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
    error               TEXT,
    UNIQUE (path, app_path, host)
);
INSERT INTO new_builds SELECT * FROM builds;
DROP TABLE builds;
ALTER TABLE new_builds RENAME TO builds;
CREATE INDEX builds_bundle_id_version ON builds (bundle_id COLLATE NOCASE, version_sort, build_sort);
CREATE INDEX builds_parent_build_id ON builds (parent_build_id);
CREATE INDEX builds_profile_uuid ON builds (profile_uuid);
CREATE INDEX builds_team_id ON builds (team_id);

CREATE TABLE new_files (
    host         TEXT NOT NULL DEFAULT '',
    path         TEXT NOT NULL,
    size         INTEGER NOT NULL,
    mtime        TEXT NOT NULL,
    mtime_ns     INTEGER,                  -- exact mtime in ns since 1970, for change detection within a second
    kind         TEXT NOT NULL,            -- profile, app, ipa, xcarchive, plist, …
    sha256       TEXT,
    status       TEXT NOT NULL CHECK (status = 'ok' OR status = 'error' OR status = 'skipped'),
    last_run_id  INTEGER REFERENCES ingest_runs (id) ON DELETE SET NULL,
    PRIMARY KEY (host, path)
) WITHOUT ROWID;
INSERT INTO new_files SELECT * FROM files;
DROP TABLE files;
ALTER TABLE new_files RENAME TO files;
