-- As Migrations/0023_zip_builds.sql: builds.source_kind and profile_locations.container_kind gain
-- 'zip' (a zip whose top level holds one .app). PostgreSQL changes a CHECK in place; the
-- constraints carry the names it gave the inline ones of 0008_initial. The `.ipa`s and the zips
-- left out are read again by the next ingest.

ALTER TABLE builds DROP CONSTRAINT builds_source_kind_check;
ALTER TABLE builds ADD CONSTRAINT builds_source_kind_check
    CHECK (source_kind IN ('app', 'ipa', 'xcarchive', 'plist', 'zip'));
ALTER TABLE profile_locations DROP CONSTRAINT profile_locations_container_kind_check;
ALTER TABLE profile_locations ADD CONSTRAINT profile_locations_container_kind_check
    CHECK (container_kind IN ('standalone', 'app', 'ipa', 'xcarchive', 'zip'));

DELETE FROM files WHERE kind = 'ipa' OR (kind = 'zip' AND status = 'skipped');
