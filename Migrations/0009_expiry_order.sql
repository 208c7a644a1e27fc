-- Issue 15: listings by expiry (`expiring`, `report`) read profiles in the order they print them —
-- effective expiry, then name, then UUID — so the first row leaves as soon as it is found. With an
-- index on the expiry alone SQLite read and sorted each day's profiles before the first of that
-- day could leave (on 1M profiles: 54–131 ms to the first row; with this index 12–34 ms). The new
-- index serves every query the old one served (its first column is the same).
DROP INDEX profiles_effective_expiration_date;
CREATE INDEX profiles_expiry_order ON profiles (effective_expiration_date, name, uuid);
