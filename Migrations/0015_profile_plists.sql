-- 0015_profile_plists (issue 15): each profile's stored plist moves out of `profiles` into a table of
-- its own, one row per profile under the same id.
--
-- A stored plist is about 3 KB (compact, 0010), so each `profiles` row was 3–5 KB: one row per 4 KB
-- page, most with an overflow page, and the columns written after raw_plist (signature, der_profile,
-- first_seen, last_seen) behind it. Every scan of the table read all of it: a first ingest builds six
-- indexes on `profiles` (each a full scan), its foreign-key check looks up every device link's
-- profile, and each run's update of last_seen rewrote the whole row, plist included. On the benchmark
-- tree `profiles` was 45 MB; without the plists it is 7 MB, and building its indexes took 90 → 40 ms.
-- Listings never read the plist; `Connection.rawPlist(uuid:)` joins the two tables.
--
-- The value is unchanged (the plist itself, or the compact form of 0010); only its table moves.
-- ALTER TABLE … DROP COLUMN needs SQLite 3.35 (2021); its pages go to the free list, which later
-- writes reuse (VACUUM returns them to the file system).

CREATE TABLE profile_plists (
    profile_id  INTEGER PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
    raw_plist   BLOB NOT NULL
);
INSERT INTO profile_plists (profile_id, raw_plist) SELECT id, raw_plist FROM profiles ORDER BY id;
ALTER TABLE profiles DROP COLUMN raw_plist;
