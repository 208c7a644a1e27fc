-- 0023_zip_builds (issue 53): a zip whose top level holds one `.app` (a macOS app as Developer ID
-- distribution ships it) is a build, read in place as an `.ipa` is: builds.source_kind and the
-- container_kind of the profile it embeds gain 'zip'.
--
-- SQLite cannot change a CHECK in place: both tables are rebuilt by the documented procedure, as
-- 0015 did (create new_X, copy, drop X, rename new_X to X, recreate its indexes), with the same
-- columns in the same order, the same keys and row ids; the migrator runs with foreign keys off and
-- checks them all once it is done. It copies once what the two tables hold.
--
-- The `.ipa`s the catalogue holds are read again by the next ingest (their stamps in files are
-- dropped here), so the bundles nested in them are recorded as builds of their own; so are the
-- zips left out until now (an app zip was one), and they are catalogued if they hold an app.

CREATE TABLE new_profile_locations (
    id              INTEGER PRIMARY KEY,
    host            TEXT NOT NULL DEFAULT '',
    path            TEXT NOT NULL,          -- for a zip member: the ingester's composed path into the archive
    profile_uuid    TEXT NOT NULL REFERENCES profiles (uuid) ON DELETE CASCADE,
    container_kind  TEXT NOT NULL
        CHECK (container_kind = 'standalone' OR container_kind = 'app' OR container_kind = 'ipa'
               OR container_kind = 'xcarchive' OR container_kind = 'zip'),
    container_path  TEXT,                   -- the .app/.ipa/.xcarchive/.zip; NULL for standalone
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
        CHECK (source_kind = 'app' OR source_kind = 'ipa' OR source_kind = 'xcarchive' OR source_kind = 'plist'
               OR source_kind = 'zip'),
    path                TEXT NOT NULL,      -- the container: .app, .ipa, .xcarchive, .zip or Info.plist path
    app_path            TEXT NOT NULL DEFAULT '',  -- the app (or nested bundle) inside the container
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
    signing_checked     INTEGER NOT NULL DEFAULT 0 CHECK (signing_checked IN (0, 1)),
    launches_until      TEXT,
    launches_until_cause TEXT
        CHECK (launches_until_cause IN ('profile', 'certificate', 'app-store')),
    launches_until_executable TEXT,
    launches_until_reason TEXT,
    UNIQUE (path, app_path, host)
);
INSERT INTO new_builds SELECT * FROM builds;
DROP TABLE builds;
ALTER TABLE new_builds RENAME TO builds;
CREATE INDEX builds_bundle_id_version ON builds (bundle_id COLLATE NOCASE, version_sort, build_sort);
CREATE INDEX builds_parent_build_id ON builds (parent_build_id);
CREATE INDEX builds_profile_uuid ON builds (profile_uuid);
CREATE INDEX builds_team_id ON builds (team_id);

DELETE FROM files WHERE kind = 'ipa' OR (kind = 'zip' AND status = 'skipped');
