-- 0020_launch_limit (issue 51): when a build stops launching, as the ingester judged it by how the
-- build is distributed (CatalogCore's LaunchLimit), no longer the embedded profile's effective
-- expiry joined at query time: that took the latest certificate the profile lists, not the one the
-- code is signed with, and stopped App Store builds at their profile's expiry.
--
--   builds.launches_until             the date the build stops launching, the soonest over the app
--                                     and every nested bundle with a profile; NULL when nothing
--                                     stops it (cause app-store) or nothing is known
--   builds.launches_until_cause       'profile' (a profile's ExpirationDate), 'certificate' (the
--                                     notAfter of the certificate the code is signed with) or
--                                     'app-store' (every embedded profile is an App Store one);
--                                     NULL when no embedded profile was decoded, and for a build
--                                     not read since this migration
--   builds.launches_until_executable  the executable of the bundle that decides, as
--                                     build_binaries.path
--   builds.launches_until_reason      the ingester's sentence for a person: which date of which
--                                     profile or certificate, and why. Stored rather than rebuilt at
--                                     query time, so `builds` says word for word what `verify` says
--                                     (a nested bundle's profile inside an .ipa or .xcarchive is
--                                     not otherwise catalogued); about 150 bytes a build: the four
--                                     columns grow the default bench tree's catalogue 1.7 %
--                                     (85.5 to 86.9 MB, 6,944 builds), the reason 1.2 % of it.
--
-- The builds the catalogue already holds are read again by the next ingest (their stamps in files
-- are dropped here), so these are filled in once.

ALTER TABLE builds ADD COLUMN launches_until TEXT;
ALTER TABLE builds ADD COLUMN launches_until_cause TEXT
    CHECK (launches_until_cause IN ('profile', 'certificate', 'app-store'));
ALTER TABLE builds ADD COLUMN launches_until_executable TEXT;
ALTER TABLE builds ADD COLUMN launches_until_reason TEXT;

DELETE FROM files WHERE kind = 'app' OR kind = 'ipa' OR kind = 'xcarchive';
