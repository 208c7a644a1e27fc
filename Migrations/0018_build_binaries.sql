-- 0018_build_binaries: the Mach-O binaries of each build location, one row per slice, so a crash
-- report's UUID finds its build (`catalog builds --uuid`) and a build's signing facts are kept.
--
--   kind              'executable' (a Mach-O of the bundle) or 'dsym' (an .xcarchive's
--                     dSYMs/*.dSYM/Contents/Resources/DWARF/*)
--   role              an executable's role (main, app-extension, framework, …); NULL for a dSYM
--   path              the file inside the build, as decode's executables[].path
--   arch, uuid        the slice's architecture and LC_UUID (upper case with dashes; NULL without one)
--   cdhash … identifier  the executable's code signature (the first slice's, as decode prints it);
--                     NULL when unsigned, and for a dSYM
--
-- Rows are replaced whenever the writer (re)writes the build. The builds the catalogue already
-- holds are read again by the next ingest (their stamps in files are dropped here), so their
-- binaries are filled in once.

CREATE TABLE build_binaries (
    id                INTEGER PRIMARY KEY,
    build_id          INTEGER NOT NULL REFERENCES builds (id) ON DELETE CASCADE,
    kind              TEXT NOT NULL CHECK (kind = 'executable' OR kind = 'dsym'),
    role              TEXT,
    path              TEXT NOT NULL,
    bundle_id         TEXT,
    arch              TEXT,
    uuid              TEXT,
    cdhash            TEXT,
    team_id           TEXT,
    certificate_sha1  TEXT,
    certificate_name  TEXT,
    identifier        TEXT
);
CREATE INDEX build_binaries_build_id ON build_binaries (build_id);
CREATE INDEX build_binaries_uuid ON build_binaries (uuid);

DELETE FROM files WHERE kind = 'app' OR kind = 'ipa' OR kind = 'xcarchive';
