-- 0003_supersession_index: "is this profile superseded?" is asked for every row `expiring` and
-- `profiles` print: another present profile of the same team, application identifier, kind and
-- platform with a later effective expiry. This index answers it with one search per row, latest
-- expiry first.
CREATE INDEX profiles_supersession ON profiles (team_id, application_identifier, kind, effective_expiration_date);
