#!/usr/bin/env python3
"""Fixtures/codesign/*.zip: macOS apps shipped as zips (Developer ID distribution, issue 53 item 5),
made from make_codesign.py's `SignedMac.app` as `ditto -c -k --sequesterRsrc --keepParent` zips an
app: a directory entry per folder, files deflated, symbolic links stored with their Unix mode and
the target as contents (the framework's `Versions/Current`, `MacKit`, `Resources`), an AppleDouble
entry under `__MACOSX/`, and a Finder `.DS_Store` at the top (both ignored by readers).

- `SignedMac.zip`: the app as signed; `catalog verify` finds nothing but `certificate-not-apple`.
- `SignedMacCodeModified.zip`: the same with one byte of the main executable's code (the arm64
  slice's page 1, at 0x1123 in the slice) flipped after signing: `code-modified` on
  `SignedMac.app/Contents/MacOS/SignedMac`.
- `NotAnApp.zip`: two `.app` folders at the top: not a build (left out, as a zip of sources is).

Fixed dates and sorted entries: the output is byte-identical on every run."""
import os
import stat
import struct
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODESIGN = os.path.join(HERE, "codesign")
APP = os.path.join(CODESIGN, "SignedMac.app")
STAMP = (2026, 1, 20, 12, 0, 0)
MODIFIED = "SignedMac.app/Contents/MacOS/SignedMac"


def flip_offset(data):
    """0x1123 into the first slice of the universal binary (its fat_arch offset), or of a thin one."""
    if struct.unpack_from(">I", data, 0)[0] == 0xCAFEBABE:
        return struct.unpack_from(">I", data, 16)[0] + 0x1123
    return 0x1123


def info(name, mode):
    entry = zipfile.ZipInfo(name, STAMP)
    entry.create_system = 3  # Unix: the external attributes carry the mode
    entry.external_attr = mode << 16 | (0x10 if stat.S_ISDIR(mode) else 0)
    return entry


def write_app(path, flip=None):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(info(".DS_Store", 0o100644), b"\0\0\0\1Bud1" + bytes(24))
        base = os.path.dirname(APP)
        for root, dirs, files in os.walk(APP):
            dirs.sort()
            relative = os.path.relpath(root, base)
            archive.writestr(info(relative + "/", 0o40755), b"")
            # Links to folders are listed among dirs by os.walk (not followed): stored as links too.
            links = sorted(d for d in dirs if os.path.islink(os.path.join(root, d)))
            dirs[:] = [d for d in dirs if d not in links]
            for name in sorted(files + links):
                full = os.path.join(root, name)
                member = relative + "/" + name
                if os.path.islink(full):
                    archive.writestr(info(member, 0o120755), os.readlink(full).encode())
                    continue
                data = bytearray(open(full, "rb").read())
                if flip == member:
                    data[flip_offset(data)] ^= 0xFF
                entry = info(member, 0o100755 if os.access(full, os.X_OK) else 0o100644)
                entry.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(entry, bytes(data))
        # ditto --sequesterRsrc keeps extended attributes as AppleDouble files under __MACOSX/.
        archive.writestr(info("__MACOSX/._SignedMac.app", 0o100644), b"\0\5\26\7\0\2\0\0Mac OS X        " + bytes(10))


write_app(os.path.join(CODESIGN, "SignedMac.zip"))
write_app(os.path.join(CODESIGN, "SignedMacCodeModified.zip"), flip=MODIFIED)
with zipfile.ZipFile(os.path.join(CODESIGN, "NotAnApp.zip"), "w") as archive:
    for app in ("One.app", "Two.app"):
        archive.writestr(info(app + "/Contents/Info.plist", 0o100644), b"<plist/>")
print("app zips written under", CODESIGN)
