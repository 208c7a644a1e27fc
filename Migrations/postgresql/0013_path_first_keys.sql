-- Issue 15 (as Migrations/0013_path_first_keys.sql): SQLite rebuilds its location, build and file
-- tables with keys that lead with the path, so that one index serves the key and lookups by path.
-- PostgreSQL keeps its keys and its path indexes, as its tables and indexes are stored apart anyway;
-- nothing changes here, and the engines' schema versions stay in step.
SELECT 1;
