-- Issue 15 (as Migrations/0010_compact_catalogue.sql): each developer certificate's DER once, which
-- the compact form of profiles.raw_plist refers to (README, "How the raw plist is stored"). A value
-- not in that form is the plist itself.
CREATE TABLE certificate_der (
    sha1  text COLLATE "C" PRIMARY KEY,   -- certificates.sha1: uppercase hex SHA-1 of der
    der   bytea NOT NULL
);
