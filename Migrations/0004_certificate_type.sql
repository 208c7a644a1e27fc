-- 0004_certificate_type: what each developer certificate signs for ("Apple Development", "iPhone
-- Distribution", "Developer ID Application", …), read by the decoder from Apple's certificate
-- extensions (1.2.840.113635.100.6.1.N), else from the common name's prefix. Rows catalogued before
-- this migration get the common-name reading; an ingest that decodes the certificate again sets the
-- extension reading.
ALTER TABLE certificates ADD COLUMN type TEXT;

UPDATE certificates SET type = substr(common_name, 1, instr(common_name, ':') - 1)
WHERE instr(common_name, ':') > 0
  AND substr(common_name, 1, instr(common_name, ':') - 1) IN (
      'Apple Development', 'Apple Distribution', 'iPhone Developer', 'iPhone Distribution', 'Mac Developer',
      '3rd Party Mac Developer Application', '3rd Party Mac Developer Installer',
      'Developer ID Application', 'Developer ID Installer');

CREATE INDEX certificates_type ON certificates (type);
