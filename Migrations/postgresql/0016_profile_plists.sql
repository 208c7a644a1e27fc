-- Issue 15 (as Migrations/0016_profile_plists.sql): a profile's stored plist moves out of its row
-- into profile_plists, keyed by the profile's id. PostgreSQL already keeps a large bytea out of
-- line (TOAST), so this is for the two engines to have one schema and the writer one statement;
-- DROP COLUMN only marks the column dropped, and the space comes back as rows are rewritten (or
-- with VACUUM FULL).

CREATE TABLE profile_plists (
    profile_id  bigint PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
    raw_plist   bytea NOT NULL
);
INSERT INTO profile_plists (profile_id, raw_plist) SELECT id, raw_plist FROM profiles;
ALTER TABLE profiles DROP COLUMN raw_plist;
