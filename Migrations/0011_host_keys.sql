-- 0011_host_keys (issue 16): the writer names a host in every key it writes (ON CONFLICT (host, path)),
-- so the one-host unique indexes 0008_host kept beside the host keys go. Two hosts may now hold the
-- same path (a SQLite catalogue gathering hosts with `ingest --host`, as PostgreSQL does).
--
-- Lookups by path alone (`show PATH`, an error's location) keep an index, no longer unique, as the
-- PostgreSQL schema has had since its first migration (profile_locations_path, builds_path). The file
-- index is only ever read by host (a run reads its own host's entries), so it needs none.
DROP INDEX profile_locations_path_one_host;
CREATE INDEX profile_locations_path ON profile_locations (path);

DROP INDEX builds_path_one_host;
CREATE INDEX builds_path ON builds (path, app_path);

DROP INDEX files_path_one_host;
