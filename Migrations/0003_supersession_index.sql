-- 0003_supersession_index: "is this profile superseded?" is asked for every row `expiring` and
-- `profiles` print: another present profile of the same team, application identifier, kind and
-- platform with a later effective expiry. This index answers it with one search per row, latest
-- expiry first, without reading the (wide) profile rows: it covers the platforms and the UUID.
CREATE INDEX profiles_supersession
    ON profiles (team_id, application_identifier, kind, effective_expiration_date, platforms, uuid);

-- "Which builds can this device install?" includes every build whose profile provisions all
-- devices: few profiles, found through this partial index instead of a scan.
CREATE INDEX profiles_all_devices ON profiles (uuid) WHERE provisions_all_devices = 1;
