-- Issue 16: "is this profile superseded?" is asked for every row `expiring`, `profiles` and `prune`
-- print, matching team and application identifier NULL-safely. SQLite searches its supersession
-- index for `a IS b`; PostgreSQL cannot search an index for `a IS NOT DISTINCT FROM b`, so each
-- row scanned every profile (1M profiles: listings did not finish). The queries now spell it
-- `coalesce(a, '') = coalesce(b, '') AND (a IS NULL) = (b IS NULL)` — the same rows, NULL still
-- apart from '' — and this index holds exactly those expressions.
DROP INDEX profiles_supersession;
CREATE INDEX profiles_supersession
    ON profiles (coalesce(team_id, ''), (team_id IS NULL), coalesce(application_identifier, ''),
                 (application_identifier IS NULL), kind, effective_expiration_date, platforms, uuid);
