-- As Migrations/0020_launch_limit.sql: when a build stops launching, as the ingester judged it by
-- how the build is distributed (launches_until, launches_until_cause profile | certificate |
-- app-store, launches_until_executable, launches_until_reason); the builds already catalogued are
-- read again by the next ingest to fill them in.

ALTER TABLE builds ADD COLUMN launches_until text COLLATE "C";
ALTER TABLE builds ADD COLUMN launches_until_cause text COLLATE "C"
    CHECK (launches_until_cause IN ('profile', 'certificate', 'app-store'));
ALTER TABLE builds ADD COLUMN launches_until_executable text COLLATE "C";
ALTER TABLE builds ADD COLUMN launches_until_reason text COLLATE "C";

DELETE FROM files WHERE kind = 'app' OR kind = 'ipa' OR kind = 'xcarchive';
