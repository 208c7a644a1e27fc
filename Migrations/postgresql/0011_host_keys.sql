-- Issue 16 (as Migrations/0011_host_keys.sql): SQLite drops the one-host unique indexes its 0008 kept
-- until the writer named a host. This schema never had them — its keys include the host and lookups
-- by path have had plain indexes (profile_locations_path, builds_path) from 0008 — so nothing
-- changes here; the migration keeps the two engines' schema versions in step ("schema 11" is one
-- model on both).
SELECT 1;
