-- 0005_ingest_failures: what partly failed ingest runs leave behind.
--
-- * A location or build whose file no longer decodes (truncated, overwritten with junk) is no longer a
--   place the profile or build is found: the run sets removed_at, as for a vanished file, and `error`
--   says why. The other facts (size, mtime, content_sha256, last_seen) stay those of the last time it
--   decoded. Both are cleared when the file decodes again.
-- * ingest_errors keeps every run's errors; `cleared_at` is set when a later run walked the error's
--   root and did not meet the problem again (the file was fixed, removed or excluded). Errors with
--   cleared_at NULL are the ones current now (`catalog errors`).

ALTER TABLE profile_locations ADD COLUMN error TEXT;

ALTER TABLE builds ADD COLUMN error TEXT;

ALTER TABLE ingest_errors ADD COLUMN cleared_at TEXT;

-- Before this migration only the latest run's errors were shown as current: keep it so.
UPDATE ingest_errors
SET cleared_at = (SELECT started_at FROM ingest_runs WHERE id = (SELECT max(id) FROM ingest_runs))
WHERE run_id < (SELECT max(id) FROM ingest_runs);

CREATE INDEX ingest_errors_current ON ingest_errors (path) WHERE cleared_at IS NULL;
