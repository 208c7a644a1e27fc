-- Issue 15 (as Migrations/0017_device_postings.sql): a profile's device links leave
-- profile_devices, a row per link, for profiles.device_ids (the profile's device ids, a JSON array)
-- and device_profiles (for each device, JSON arrays of the ids of the profiles that list it). A
-- host writes each profile's shared rows in a transaction of its own, so here each new profile adds
-- a row per device keyed by its own id; two hosts that write the same profile at once meet on that
-- key and the second merges its list into the first's. The view profile_devices gives the pairs
-- under the old table's name and columns.

ALTER TABLE profiles ADD COLUMN device_ids text COLLATE "C";
UPDATE profiles p SET device_ids = l.ids
FROM (SELECT profile_id, json_agg(device_id ORDER BY device_id)::text AS ids FROM profile_devices GROUP BY profile_id) l
WHERE l.profile_id = p.id;

CREATE TABLE device_profiles (
    device_id         bigint NOT NULL REFERENCES devices (id),
    first_profile_id  bigint NOT NULL,
    profile_ids       text COLLATE "C" NOT NULL,
    PRIMARY KEY (device_id, first_profile_id)
);
INSERT INTO device_profiles (device_id, first_profile_id, profile_ids)
SELECT device_id, min(profile_id), json_agg(profile_id ORDER BY profile_id)::text FROM profile_devices GROUP BY device_id;

DROP TABLE profile_devices;
CREATE VIEW profile_devices (profile_id, device_id) AS
SELECT CAST(listed.value AS bigint), dp.device_id
FROM device_profiles dp, json_array_elements_text(CAST(dp.profile_ids AS json)) AS listed(value);
