-- As Migrations/0021_run_outcome.sql: a failed run's reason, and whether it was partial (some roots
-- read, others failed), beside status 'failed'.

ALTER TABLE ingest_runs ADD COLUMN reason text COLLATE "C";
ALTER TABLE ingest_runs ADD COLUMN partial integer NOT NULL DEFAULT 0 CHECK (partial IN (0, 1));
