-- 0022_debug_symbols: dSYMs kept outside an archive (issue 53): a `.dSYM` folder anywhere under a
-- root, a zipped dSYM (`X.app.dSYM.zip`) and a zip of many (App Store Connect's), one row per slice
-- of each DWARF file, so a crash report's UUID finds them (`catalog builds --uuid`, `catalog crash`).
-- An `.xcarchive`'s dSYMs stay in build_binaries.
--
--   path            the `.dSYM` folder or the zip, as walked (this host's)
--   member          the DWARF file: below the folder (`Contents/Resources/DWARF/X`) or the zip's entry
--                   (`X.app.dSYM/Contents/Resources/DWARF/X`)
--   bundle_id …     from the dSYM's Info.plist (`com.apple.xcode.dsym.` taken off the identifier)
--   arch, uuid      the slice's architecture and LC_UUID (upper case with dashes)
--   removed_at      set when the folder or zip is gone or no longer reads; rows are never deleted
--                   but replaced when it is read again

CREATE TABLE debug_symbols (
    id             INTEGER PRIMARY KEY,
    host           TEXT NOT NULL DEFAULT '',
    path           TEXT NOT NULL,
    member         TEXT NOT NULL,
    bundle_id      TEXT,
    short_version  TEXT,
    build          TEXT,
    arch           TEXT NOT NULL DEFAULT '',
    uuid           TEXT,
    first_seen     TEXT NOT NULL,
    last_seen      TEXT NOT NULL,
    removed_at     TEXT,
    UNIQUE (host, path, member, arch)
);
CREATE INDEX debug_symbols_uuid ON debug_symbols (uuid);
