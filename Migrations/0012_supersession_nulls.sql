-- 0012_supersession_nulls (issue 16): PostgreSQL's supersession index changes to expressions its
-- queries can search (Migrations/postgresql/0012_supersession_nulls.sql). SQLite searches its own
-- index (0003) for `a IS b` already; nothing changes here, and the engines' schema versions stay in
-- step.
SELECT 1;
