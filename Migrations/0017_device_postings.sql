-- 0017_device_postings (issue 15): a profile's device links leave profile_devices, a row per link,
-- for a list on each side: the profile's device ids in its own row, and for each device the ids of
-- the profiles that list it, a few lists per device.
--
-- A first ingest of 100,000 profiles wrote 2.7 million link rows, each an entry of the table's
-- B-tree and of its device index: about 3 s of a 15 s ingest on one core (the ingest with the
-- link insert switched off: 12.0–12.9 s against 14.7–16.0 s). The same links as lists are one
-- text value per profile and one row per device per batch of the writer's.
--
--   profiles.device_ids            JSON array of devices.id, in the profile's ProvisionedDevices
--                                  order (ascending for rows migrated here); NULL when it lists none.
--                                  What `show` lists and what an update of the profile unlinks.
--   device_profiles                for each device, the profiles that list it: rows keyed by the
--                                  device and first_profile_id (the least id the writer put in the
--                                  row, which only tells a device's rows apart), each holding a JSON
--                                  array of profiles.id. A (device, profile) pair is in at most one
--                                  row, and only while the profile lists the device.
--
-- Reading: the profiles of a device are
--   SELECT e.value FROM device_profiles dp, json_each(dp.profile_ids) e WHERE dp.device_id = ?
-- and its count sum(json_array_length(profile_ids)). The view profile_devices gives the pairs
-- under the old table's name and columns, for scripts (and a later migration) that read them.

ALTER TABLE profiles ADD COLUMN device_ids TEXT;
UPDATE profiles SET device_ids = (
    SELECT json_group_array(device_id) FROM (
        SELECT pd.device_id FROM profile_devices pd WHERE pd.profile_id = profiles.id ORDER BY pd.device_id))
WHERE id IN (SELECT profile_id FROM profile_devices);

CREATE TABLE device_profiles (
    device_id         INTEGER NOT NULL REFERENCES devices (id),
    first_profile_id  INTEGER NOT NULL,
    profile_ids       TEXT NOT NULL,                           -- JSON array of profiles.id
    PRIMARY KEY (device_id, first_profile_id)
) WITHOUT ROWID;
INSERT INTO device_profiles (device_id, first_profile_id, profile_ids)
SELECT device_id, min(profile_id), json_group_array(profile_id) FROM (
    SELECT device_id, profile_id FROM profile_devices ORDER BY device_id, profile_id)
GROUP BY device_id;

DROP TABLE profile_devices;
CREATE VIEW profile_devices (profile_id, device_id) AS
SELECT CAST(listed.value AS INTEGER), dp.device_id FROM device_profiles dp, json_each(dp.profile_ids) AS listed;
