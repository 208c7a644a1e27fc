"""Reads a profile's plist out of a catalog catalogue, as `Connection.rawPlist(uuid:)` does.

    python3 docs/raw_plist.py CATALOGUE.sqlite UUID > profile.plist

`raw_plist(connection, uuid)` takes a `sqlite3` connection and returns the plist's bytes exactly as
they were in the profile file, or None when no such profile is catalogued. README.md, "How the raw
plist is stored", describes the format. Python standard library only.
"""

import base64
import struct
import sys
import zlib

# zlib's preset dictionary of formats 3 and 4 (StoredPlist.dictionary in Sources/CatalogStore/StoredPlist/);
# format 4 appends a line for each of the profile's devices.
DICTIONARY = (
    b"<key>com.apple.developer.associated-domains</key><key>com.apple.developer.applesignin</key>"
    b"<key>com.apple.developer.icloud-container-identifiers</key><key>com.apple.developer.icloud-services</key>"
    b"<key>com.apple.developer.ubiquity-kvstore-identifier</key><key>com.apple.developer.networking.wifi-info</key>"
    b"<key>com.apple.developer.in-app-payments</key><key>com.apple.developer.healthkit</key>"
    b"<key>com.apple.developer.siri</key><key>com.apple.developer.game-center</key>"
    b"<key>com.apple.developer.default-data-protection</key><string>NSFileProtectionComplete</string>"
    b"<key>com.apple.security.application-groups</key><key>com.apple.application-identifier</key>"
    b"<key>com.apple.security.get-task-allow</key><key>beta-reports-active</key><key>ProvisionsAllDevices</key>"
    b"<string>Default</string><string>xrOS</string><string>visionOS</string><string>OSX</string>"
    b"<string>production</string><string>Mac Team Provisioning Profile: </string>"
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
    b'<plist version="1.0">\n'
    b"<dict>\n"
    b"\t<key>AppIDName</key>\n"
    b"\t<string>XC </string>\n"
    b"\t<key>ApplicationIdentifierPrefix</key>\n"
    b"\t<array>\n"
    b"\t<string></string>\n"
    b"\t</array>\n"
    b"\t<key>CreationDate</key>\n"
    b"\t<date>2025-01-01T00:00:00Z</date>\n"
    b"\t<key>Platform</key>\n"
    b"\t<array>\n"
    b"\t\t<string>iOS</string>\n"
    b"\t</array>\n"
    b"\t<key>IsXcodeManaged</key>\n"
    b"\t<false/>\n"
    b"\t<key>DeveloperCertificates</key>\n"
    b"\t<array>\n"
    b"\t\t<data></data>\n"
    b"\t</array>\n"
    b"\n"
    b"\t<key>DER-Encoded-Profile</key>\n"
    b"\t<data>MIIOFgYJKoZIhvcNAQcCoIIOBzCCDgMCAQExDzAN</data>\n"
    b"\t\t\t\t\t\t\t\t\t\t\t\t\n"
    b"\t\t\t<key>PPQCheck</key>\n"
    b"\t<false/>\n"
    b"\n"
    b"\t<key>Entitlements</key>\n"
    b"\t<dict>\n"
    b"\t\t\t\t\n"
    b"\t\t\t\t<key>aps-environment</key>\n"
    b"\t\t<string>development</string>\n"
    b"\t\t\t\t\n"
    b"\t\t\t\t<key>application-identifier</key>\n"
    b"\t\t<string></string>\n"
    b"\t\t\t\t\n"
    b"\t\t\t\t<key>keychain-access-groups</key>\n"
    b"\t\t<array>\n"
    b"\t\t\t\t<string>.*</string>\n"
    b"\t\t\t\t<string>com.apple.token</string>\n"
    b"\t\t</array>\n"
    b"\t\t\t\t\n"
    b"\t\t\t\t<key>get-task-allow</key>\n"
    b"\t\t<true/>\n"
    b"\t\t\t\t\n"
    b"\t\t\t\t<key>com.apple.developer.team-identifier</key>\n"
    b"\t\t<string></string>\n"
    b"\n"
    b"\t</dict>\n"
    b"\t<key>ExpirationDate</key>\n"
    b"\t<date>2026-01-01T00:00:00Z</date>\n"
    b"\t<key>Name</key>\n"
    b"\t<string>iOS Team Provisioning Profile: </string>\n"
    b"\t<key>ProvisionedDevices</key>\n"
    b"\t<array>\n"
    b"\t\t<string>00008030-</string>\n"
    b"\t\t<string></string>\n"
    b"\t</array>\n"
    b"\t<key>TeamIdentifier</key>\n"
    b"\t<array>\n"
    b"\t\t<string></string>\n"
    b"\t</array>\n"
    b"\t<key>TeamName</key>\n"
    b"\t<string></string>\n"
    b"\t<key>TimeToLive</key>\n"
    b"\t<integer>365</integer>\n"
    b"\t<key>UUID</key>\n"
    b"\t<string></string>\n"
    b"\t<key>Version</key>\n"
    b"\t<integer>1</integer>\n"
    b"</dict>\n"
    b"</plist>"
)


def raw_plist(connection, uuid):
    row = connection.execute("SELECT pl.raw_plist, p.device_ids FROM profiles p JOIN profile_plists pl ON pl.profile_id = p.id "
                             "WHERE p.uuid = ?", (uuid.upper(),)).fetchone()
    if row is None:
        return None
    value = bytes(row[0])
    if value[:1] != b"\x00" and value[1:3] != b"CP":
        return value  # the plist itself (rows written before migration 0010)
    if value[:4] not in (b"\x00CP\x03", b"\x00CP\x04"):
        raise ValueError(f"profile {uuid}: format {value[3:4].hex()}; `catalog ingest --full` rewrites it in format 4")
    zdict = DICTIONARY
    if value[3] == 4:
        zdict += b"".join(b"\t\t<string>%s</string>\n" % udid.encode() for (udid,) in connection.execute(
            "SELECT d.udid FROM json_each(?) e JOIN devices d ON d.id = e.value ORDER BY e.key", (row[1],)))
    length, crc, count = struct.unpack_from("<IIH", value, 4)
    at, references = 14, []
    for _ in range(count):
        offset, sha1, width, gap = struct.unpack_from("<I20sHB", value, at)
        references.append((offset, sha1.hex().upper(), width, value[at + 27:at + 27 + gap]))
        at += 27 + gap
    inflater = zlib.decompressobj(zdict=zdict)
    text = inflater.decompress(value[at:]) + inflater.flush()
    out, copied = bytearray(), 0
    for offset, sha1, width, separator in references:
        (der,) = connection.execute("SELECT der FROM certificate_der WHERE sha1 = ?", (sha1,)).fetchone()
        digits = base64.b64encode(der)
        step = width or len(digits)
        out += text[copied:offset] + separator.join(digits[i:i + step] for i in range(0, len(digits), step))
        copied = offset
    out += text[copied:]
    if len(out) != length or zlib.crc32(out) != crc:
        raise ValueError(f"profile {uuid}: the stored plist is damaged")
    return bytes(out)


if __name__ == "__main__":
    import sqlite3

    if len(sys.argv) != 3:
        sys.exit("usage: python3 docs/raw_plist.py CATALOGUE UUID")
    plist = raw_plist(sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True), sys.argv[2])
    if plist is None:
        sys.exit(f"no profile {sys.argv[2]} in {sys.argv[1]}")
    sys.stdout.buffer.write(plist)
