-- 0008_host (issue 16): the host dimension, shared with the PostgreSQL schema (Migrations/postgresql).
--
-- Locations, builds, the incremental file index and ingest runs belong to a host: the build machine
-- whose file system the path is on. Profiles, certificates and devices stay shared by every host
-- (one row per UUID, SHA-1, UDID). Ingest errors belong to their run, and so to its host.
--
-- A SQLite catalogue is one host's: every existing row, and every row written by a writer that does
-- not name a host, gets host '' — "this catalogue's own machine, unnamed". A catalogue that gathers
-- several hosts (PostgreSQL) names each one; the PostgreSQL schema refuses ''.
--
-- The keys include the host, so two hosts' files at the same path never collide: locations are
-- unique on (host, path), builds on (host, path, app_path), the file index on (host, path). Until the
-- writer names a host (its upserts say ON CONFLICT (path)), the unique indexes *_one_host keep the
-- old one-host keys as well; the migration that makes the writer host-aware drops them. They are
-- indexes, not table constraints, so that later migration is a DROP INDEX, not a table rebuild.
--
-- SQLite cannot change a table's keys in place: profile_locations, builds and files are rebuilt by
-- the documented procedure (create new_X, copy, drop X, rename new_X to X, recreate its indexes); the
-- migrator runs this with foreign keys off and checks them all before committing.

ALTER TABLE ingest_runs ADD COLUMN host TEXT NOT NULL DEFAULT '';
CREATE INDEX ingest_runs_host ON ingest_runs (host, id);

CREATE TABLE new_profile_locations (
    id              INTEGER PRIMARY KEY,
    host            TEXT NOT NULL DEFAULT '',
    path            TEXT NOT NULL,          -- for an .ipa member: the ingester's composed path into the archive
    profile_uuid    TEXT NOT NULL REFERENCES profiles (uuid) ON DELETE CASCADE,
    container_kind  TEXT NOT NULL CHECK (container_kind IN ('standalone', 'app', 'ipa', 'xcarchive')),
    container_path  TEXT,                   -- the .app/.ipa/.xcarchive; NULL for standalone
    size            INTEGER,
    mtime           TEXT,
    content_sha256  TEXT,
    first_seen      TEXT NOT NULL,
    last_seen       TEXT NOT NULL,
    removed_at      TEXT,
    error           TEXT,
    UNIQUE (host, path)
);
INSERT INTO new_profile_locations (id, path, profile_uuid, container_kind, container_path, size, mtime,
                                   content_sha256, first_seen, last_seen, removed_at, error)
SELECT id, path, profile_uuid, container_kind, container_path, size, mtime,
       content_sha256, first_seen, last_seen, removed_at, error
FROM profile_locations;
DROP TABLE profile_locations;
ALTER TABLE new_profile_locations RENAME TO profile_locations;
CREATE INDEX profile_locations_profile_uuid ON profile_locations (profile_uuid);
CREATE UNIQUE INDEX profile_locations_path_one_host ON profile_locations (path);

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
    error               TEXT,
    UNIQUE (host, path, app_path)
);
INSERT INTO new_builds (id, bundle_id, name, display_name, short_version, build, version_sort, build_sort,
                        unresolved, platform, minimum_os_version, package_type, source_kind, path, app_path,
                        parent_build_id, profile_uuid, profile_error, team_id, signing_identity, scheme,
                        archived_at, size, mtime, content_sha256, first_seen, last_seen, removed_at, error)
SELECT id, bundle_id, name, display_name, short_version, build, version_sort, build_sort,
       unresolved, platform, minimum_os_version, package_type, source_kind, path, app_path,
       parent_build_id, profile_uuid, profile_error, team_id, signing_identity, scheme,
       archived_at, size, mtime, content_sha256, first_seen, last_seen, removed_at, error
FROM builds;
DROP TABLE builds;
ALTER TABLE new_builds RENAME TO builds;
CREATE INDEX builds_bundle_id_version ON builds (bundle_id COLLATE NOCASE, version_sort, build_sort);
CREATE INDEX builds_profile_uuid ON builds (profile_uuid);
CREATE INDEX builds_team_id ON builds (team_id);
CREATE INDEX builds_parent_build_id ON builds (parent_build_id);
CREATE UNIQUE INDEX builds_path_one_host ON builds (path, app_path);

CREATE TABLE new_files (
    host         TEXT NOT NULL DEFAULT '',
    path         TEXT NOT NULL,
    size         INTEGER NOT NULL,
    mtime        TEXT NOT NULL,
    mtime_ns     INTEGER,                  -- exact mtime in ns since 1970, for change detection within a second
    kind         TEXT NOT NULL,            -- profile, app, ipa, xcarchive, plist, …
    sha256       TEXT,
    status       TEXT NOT NULL CHECK (status IN ('ok', 'error', 'skipped')),
    last_run_id  INTEGER REFERENCES ingest_runs (id) ON DELETE SET NULL,
    PRIMARY KEY (host, path)
);
INSERT INTO new_files (path, size, mtime, mtime_ns, kind, sha256, status, last_run_id)
SELECT path, size, mtime, mtime_ns, kind, sha256, status, last_run_id FROM files;
DROP TABLE files;
ALTER TABLE new_files RENAME TO files;
CREATE INDEX files_last_run_id ON files (last_run_id);
CREATE UNIQUE INDEX files_path_one_host ON files (path);
