-- 0021_run_outcome: a run that failed says so (issue 52). A run in which a root could not be read,
-- was refused as emptied, or whose write failed is recorded 'failed' with its reason; 'partial' when
-- other roots were read (stored as status 'failed' and partial = 1: SQLite cannot change the
-- status column's CHECK without rebuilding the table the errors and the file index refer to).
--
--   ingest_runs.reason    why the run failed, one line per root that failed (NULL for an ok run)
--   ingest_runs.partial   1 when some roots were read and others failed

ALTER TABLE ingest_runs ADD COLUMN reason TEXT;
ALTER TABLE ingest_runs ADD COLUMN partial INTEGER NOT NULL DEFAULT 0 CHECK (partial IN (0, 1));
