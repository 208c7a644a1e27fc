-- 0016_profile_plists (issue 15): a profile's stored plist moves out of its row, into a table of
-- its own keyed by the profile's id.
--
-- The plist (compact, see CompactPlist) is most of a profile row's bytes and nearly always spills
-- into overflow pages, and every column after it in the row (first_seen, last_seen, signature,
-- der_profile…) could only be read by walking that chain. Every listing, every index build and
-- every lookup of a profile read it and left it: on a catalogue of 100,000 profiles the profiles
-- table was 105,840 pages and is 16,764 without it, and building its indexes after a first ingest
-- (which creates them once the rows are in) took 1.22 s and takes 0.48–0.52 s. Only
-- `Connection.rawPlist(uuid:)` (and a later migration) reads the plist: it joins on the id,
-- `SELECT raw_plist FROM profile_plists WHERE profile_id = (SELECT id FROM profiles WHERE uuid = ?)`.
--
-- The column's values are copied as they are (same bytes, same encoding); DROP COLUMN (SQLite
-- 3.35 and later) then rewrites the profiles table once, without the column. A profile is never
-- deleted by catalog; if one were, its plist would go with it (ON DELETE CASCADE).

CREATE TABLE profile_plists (
    profile_id  INTEGER PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
    raw_plist   BLOB NOT NULL                                   -- CompactPlist, or the plist as it was
);
INSERT INTO profile_plists (profile_id, raw_plist) SELECT id, raw_plist FROM profiles ORDER BY id;
ALTER TABLE profiles DROP COLUMN raw_plist;
