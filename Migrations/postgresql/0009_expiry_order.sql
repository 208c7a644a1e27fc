-- Issue 15 (as Migrations/0009_expiry_order.sql): profiles in the order the expiry listings print
-- them, so the first row leaves as soon as it is found.
DROP INDEX profiles_effective_expiration_date;
CREATE INDEX profiles_expiry_order ON profiles (effective_expiration_date, name, uuid);
