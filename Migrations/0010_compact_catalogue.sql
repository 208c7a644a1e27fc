-- 0010_compact_catalogue (issue 15): a catalogue about half the size.
--
-- * profiles.raw_plist may now hold a compact value instead of the plist itself: a value that begins
--   with the bytes 00 43 50 01 ("\0CP", format 1) is the plist with each DeveloperCertificates entry
--   replaced by a reference to certificate_der, zlib-compressed, with the length and CRC-32 of the
--   original. README.md ("How the raw plist is stored") describes the layout; CatalogStore's
--   CompactPlist rebuilds the original byte for byte (Connection.rawPlist(uuid:)). Any other value is
--   the plist itself, as before this migration: rows written earlier are left as they are.
-- * certificate_der holds each developer certificate's DER once, however many profiles list it.
CREATE TABLE certificate_der (
    sha1  TEXT PRIMARY KEY NOT NULL,   -- certificates.sha1: uppercase hex SHA-1 of der
    der   BLOB NOT NULL
);
