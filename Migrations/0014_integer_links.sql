-- 0014_integer_links (issue 15): a profile's entitlements and certificate links name it by its row id,
-- as profile_devices has since 0010, instead of by its 36-character UUID.
--
-- Both tables are keyed by the profile first, so every row and every index entry carried the UUID
-- text: 52,200 entitlements and 22,666 certificate links (twice, with the index by certificate) on
-- the benchmark tree. An integer id is 2–3 bytes there. It also makes a first ingest's inserts
-- appends: profiles get increasing ids as they are written, where their UUIDs are random, so each
-- link row landed on a random page of the table (the 100,000-profile run read 3.3 GB of pages back).
--
-- profiles_team_id and profiles_expiration_date go: profiles_supersession leads with team_id and
-- serves the lookups by team, and no query searches or orders by the signed expiration date (listings
-- use the effective one, profiles_expiry_order). Fewer indexes for every run to keep up to date.
--
-- SQLite cannot change a table's key in place: each table is rebuilt by the documented procedure
-- (create new_X, copy, drop X, rename new_X to X, recreate its index). A link whose profile is gone
-- cannot exist (ON DELETE CASCADE), so the join keeps every row.

CREATE TABLE new_entitlements (
    profile_id  INTEGER NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    key         TEXT NOT NULL,
    value_json  TEXT NOT NULL,
    PRIMARY KEY (profile_id, key)
) WITHOUT ROWID;
INSERT INTO new_entitlements (profile_id, key, value_json)
SELECT p.id, e.key, e.value_json FROM entitlements e JOIN profiles p ON p.uuid = e.profile_uuid;
DROP TABLE entitlements;
ALTER TABLE new_entitlements RENAME TO entitlements;

CREATE TABLE new_profile_certificates (
    profile_id        INTEGER NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    certificate_sha1  TEXT NOT NULL REFERENCES certificates (sha1),
    PRIMARY KEY (profile_id, certificate_sha1)
) WITHOUT ROWID;
INSERT INTO new_profile_certificates (profile_id, certificate_sha1)
SELECT p.id, pc.certificate_sha1 FROM profile_certificates pc JOIN profiles p ON p.uuid = pc.profile_uuid;
DROP TABLE profile_certificates;
ALTER TABLE new_profile_certificates RENAME TO profile_certificates;
CREATE INDEX profile_certificates_certificate_sha1 ON profile_certificates (certificate_sha1);

DROP INDEX profiles_team_id;
DROP INDEX profiles_expiration_date;
