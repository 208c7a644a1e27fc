-- 0019_build_signing: what `builds` and `show` need to give a build's executables and signing
-- problems as `decode` does, from what the catalogue read at ingest.
--
--   build_binaries.entitlements   the slice's signed entitlements, a JSON object (keys sorted when
--                                 read back); NULL when the slice has no readable code signature
--   build_binaries.error          why the file (or its signature) could not be read, as decode's
--                                 executables[].error; the same on every row of the file
--   builds.signing_checked        1 once the writer has recorded the build's signing problems (a
--                                 build written before this migration is 0 until read again)
--   build_signing_problems        the build's signing problems, in decode's order (ordinal), each
--                                 with the date it takes effect for the dated codes
--                                 (profile-expired: the profile's expiry; certificate-expired:
--                                 the certificate's not_after), NULL for the others. A query at a
--                                 date keeps a dated problem only once its date has passed.
--
-- The builds the catalogue already holds are read again by the next ingest (their stamps in files
-- are dropped here), so these are filled in once.

ALTER TABLE build_binaries ADD COLUMN entitlements TEXT;
ALTER TABLE build_binaries ADD COLUMN error TEXT;
ALTER TABLE builds ADD COLUMN signing_checked INTEGER NOT NULL DEFAULT 0 CHECK (signing_checked IN (0, 1));

CREATE TABLE build_signing_problems (
    id          INTEGER PRIMARY KEY,
    build_id    INTEGER NOT NULL REFERENCES builds (id) ON DELETE CASCADE,
    ordinal     INTEGER NOT NULL,
    code        TEXT NOT NULL,
    executable  TEXT NOT NULL,
    message     TEXT NOT NULL,
    effective_at TEXT
);
CREATE INDEX build_signing_problems_build_id ON build_signing_problems (build_id, ordinal);

DELETE FROM files WHERE kind = 'app' OR kind = 'ipa' OR kind = 'xcarchive';
