-- 0007_undecodable_certificates: DeveloperCertificates entries that are not certificates.
--
-- A profile whose DeveloperCertificates holds an entry that does not decode (an empty <data/>, bytes
-- that are not DER) is kept; the entry is listed here instead of in certificates (whose X.509 columns
-- it cannot fill), fingerprinted over its raw bytes, with the reason. It takes no part in the
-- profile's effective_expiration_date, and profiles.certificate_count counts only decoded ones.
CREATE TABLE profile_undecodable_certificates (
    profile_uuid  TEXT NOT NULL REFERENCES profiles (uuid) ON DELETE CASCADE,
    position      INTEGER NOT NULL,   -- index in DeveloperCertificates, from 0
    size          INTEGER NOT NULL,   -- of the raw bytes
    sha1          TEXT NOT NULL,      -- of the raw bytes, uppercase hex
    sha256        TEXT NOT NULL,
    reason        TEXT NOT NULL,
    PRIMARY KEY (profile_uuid, position)
) WITHOUT ROWID;
CREATE INDEX profile_undecodable_certificates_sha1 ON profile_undecodable_certificates (sha1);
