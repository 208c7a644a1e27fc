-- Issue 15 (as Migrations/0015_check_lists.sql): on SQLite the CHECK constraints that list three or
-- more allowed values are respelled as comparisons joined by OR, because SQLite 3.40 builds a
-- temporary index of an IN list for every row it writes. PostgreSQL evaluates `= ANY (ARRAY[…])`
-- (what it makes of `IN (…)`) row by row without one, so its constraints stay as they are: this
-- migration only keeps both engines at the same schema version.

SELECT 1;
