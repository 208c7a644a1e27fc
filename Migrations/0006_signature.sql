-- 0006_signature (issue 13): the verdict on each profile's CMS signature and on its DER copy.
--
-- signature is NULL for a profile catalogued before this migration (or with verification off) until
-- `catalog ingest --full` decodes it again; the other values are ProfileSignature.Status.
ALTER TABLE profiles ADD COLUMN signature TEXT
    CHECK (signature IN ('verified', 'unsigned', 'invalid', 'untrusted', 'error'));
ALTER TABLE profiles ADD COLUMN signature_reason TEXT;
-- How DER-Encoded-Profile compares with the XML plist; NULL until decoded again, like signature.
ALTER TABLE profiles ADD COLUMN der_profile TEXT CHECK (der_profile IN ('match', 'mismatch', 'absent'));
ALTER TABLE profiles ADD COLUMN der_profile_differences TEXT NOT NULL DEFAULT '[]';   -- JSON array of plist keys
CREATE INDEX profiles_signature ON profiles (signature);
