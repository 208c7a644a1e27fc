-- Issue 15 (as Migrations/0014_integer_links.sql): a profile's entitlements and certificate links name
-- it by its row id, as profile_devices does, instead of by its UUID text; and the two profile indexes
-- that no query needs (profiles_team_id, served by profiles_supersession; profiles_expiration_date)
-- go. PostgreSQL changes the tables in place: the new column is filled from profiles, then the old
-- key, its foreign key and the UUID column are dropped and the new ones added.

ALTER TABLE entitlements ADD COLUMN profile_id bigint;
UPDATE entitlements e SET profile_id = p.id FROM profiles p WHERE p.uuid = e.profile_uuid;
ALTER TABLE entitlements DROP COLUMN profile_uuid;
ALTER TABLE entitlements ALTER COLUMN profile_id SET NOT NULL;
ALTER TABLE entitlements ADD FOREIGN KEY (profile_id) REFERENCES profiles (id) ON DELETE CASCADE;
ALTER TABLE entitlements ADD PRIMARY KEY (profile_id, key);

ALTER TABLE profile_certificates ADD COLUMN profile_id bigint;
UPDATE profile_certificates pc SET profile_id = p.id FROM profiles p WHERE p.uuid = pc.profile_uuid;
ALTER TABLE profile_certificates DROP COLUMN profile_uuid;
ALTER TABLE profile_certificates ALTER COLUMN profile_id SET NOT NULL;
ALTER TABLE profile_certificates ADD FOREIGN KEY (profile_id) REFERENCES profiles (id) ON DELETE CASCADE;
ALTER TABLE profile_certificates ADD PRIMARY KEY (profile_id, certificate_sha1);

DROP INDEX profiles_team_id;
DROP INDEX profiles_expiration_date;
