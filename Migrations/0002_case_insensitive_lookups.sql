-- 0002_case_insensitive_lookups: bundle ids are looked up in any case (`--bundle-id`, `builds`,
-- `versions`), as Apple treats them; the indexes that serve those lookups become NOCASE so a lookup
-- stays an index search, and replace the BINARY ones (no query compares bundle ids case-sensitively).
DROP INDEX profiles_bundle_id;
CREATE INDEX profiles_bundle_id ON profiles (bundle_id COLLATE NOCASE);
DROP INDEX builds_bundle_id_version;
CREATE INDEX builds_bundle_id_version ON builds (bundle_id COLLATE NOCASE, version_sort, build_sort);
