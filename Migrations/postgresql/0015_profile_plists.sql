-- Issue 15 (as Migrations/0015_profile_plists.sql): each profile's stored plist moves out of
-- `profiles` into a table of its own, one row per profile under the same id, so that scans and
-- updates of `profiles` do not carry it. PostgreSQL kept large values out of line already (TOAST);
-- the table is the same on both engines so that one query reads the plist back.

CREATE TABLE profile_plists (
    profile_id  bigint PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
    raw_plist   bytea NOT NULL
);
INSERT INTO profile_plists (profile_id, raw_plist) SELECT id, raw_plist FROM profiles;
ALTER TABLE profiles DROP COLUMN raw_plist;
