-- 0013_path_first_keys (issue 15): the same rows in 7% less space, and two fewer indexes for every
-- run to keep up to date.
--
-- Each host's locations and builds were unique on (host, path[, app_path]) and had a second index on
-- the path alone for lookups by path (`show PATH`, an error's location): the path text stored three
-- times. A key with the path first serves both — `ON CONFLICT (host, path)` names the same columns
-- in any order, a lookup by path alone searches its prefix, and a run's `host = ? AND path` range
-- searches the path range — so profile_locations_path and builds_path go. The file index is only
-- read through its key (host, path): it becomes a WITHOUT ROWID table, the key being the table, where
-- the key was a second copy of every path beside the rows. Its index on last_run_id goes: nothing
-- looks files up by run, and it only served the ON DELETE SET NULL of a run being deleted, which
-- catalog never does (SQLite would then scan the file index instead); in a WITHOUT ROWID table it
-- would hold a third copy of every path, as its index entries point at the key.
--
-- On the benchmark tree (54,225 files): 99.5 MB → 92.8 MB. SQLite cannot change a table's keys in
-- place: each table is rebuilt by the documented procedure (create new_X, copy, drop X, rename
-- new_X to X, recreate its indexes); ids are kept, so builds.parent_build_id still holds. The
-- PostgreSQL schema keeps its keys and path indexes (Migrations/postgresql/0013_path_first_keys.sql).

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
    UNIQUE (path, host)
);
INSERT INTO new_profile_locations (id, host, path, profile_uuid, container_kind, container_path, size, mtime,
                                   content_sha256, first_seen, last_seen, removed_at, error)
SELECT id, host, path, profile_uuid, container_kind, container_path, size, mtime,
       content_sha256, first_seen, last_seen, removed_at, error
FROM profile_locations;
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
    UNIQUE (path, app_path, host)
);
INSERT INTO new_builds (id, host, bundle_id, name, display_name, short_version, build, version_sort, build_sort,
                        unresolved, platform, minimum_os_version, package_type, source_kind, path, app_path,
                        parent_build_id, profile_uuid, profile_error, team_id, signing_identity, scheme,
                        archived_at, size, mtime, content_sha256, first_seen, last_seen, removed_at, error)
SELECT id, host, bundle_id, name, display_name, short_version, build, version_sort, build_sort,
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
) WITHOUT ROWID;
INSERT INTO new_files (host, path, size, mtime, mtime_ns, kind, sha256, status, last_run_id)
SELECT host, path, size, mtime, mtime_ns, kind, sha256, status, last_run_id FROM files;
DROP TABLE files;
ALTER TABLE new_files RENAME TO files;
