#!/usr/bin/env python3
"""Fixtures/dsyms/: dSYMs where people keep them outside archives (issue 53 item 4), made from the
dSYMs of Fixtures/symbolication (Demo) and Fixtures/codesign (Signed): a loose `.dSYM` folder, a
zipped dSYM (`Demo.app.dSYM.zip`), App Store Connect's zip of many (`appDsyms.zip`, one
`UUID.dSYM` per binary at its top), and a zip of something else. Zips are written with fixed dates,
so the output is byte-identical on every run."""
import os
import shutil
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(HERE, "dsyms")
DEMO = os.path.join(HERE, "symbolication/Demo.xcarchive/dSYMs/Demo.app.dSYM")
SIGNED = os.path.join(HERE, "codesign/Signed.xcarchive/dSYMs/Signed.app.dSYM")
STAMP = (2026, 4, 1, 9, 0, 0)


def uuid_of(dsym):
    """The first LC_UUID of the dSYM's DWARF file, upper case with dashes."""
    import struct
    dwarf = os.path.join(dsym, "Contents/Resources/DWARF")
    data = open(os.path.join(dwarf, sorted(os.listdir(dwarf))[0]), "rb").read()
    if struct.unpack_from(">I", data, 0)[0] in (0xCAFEBABE, 0xCAFEBABF):  # universal: its first slice
        data = data[struct.unpack_from(">I", data, 16)[0]:]
    ncmds, offset = struct.unpack_from("<I", data, 16)[0], 32
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, offset)
        if cmd == 0x1B:
            h = data[offset + 8:offset + 24].hex().upper()
            return "-".join((h[:8], h[8:12], h[12:16], h[16:20], h[20:]))
        offset += size
    raise SystemExit(f"{dsym}: no LC_UUID")


def add_tree(archive, folder, prefix):
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            info = zipfile.ZipInfo(prefix + "/" + os.path.relpath(path, folder), STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, open(path, "rb").read())


shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(OUT)
shutil.copytree(DEMO, os.path.join(OUT, "Loose/Demo.app.dSYM"))
with zipfile.ZipFile(os.path.join(OUT, "Demo.app.dSYM.zip"), "w") as archive:
    add_tree(archive, DEMO, "Demo.app.dSYM")
with zipfile.ZipFile(os.path.join(OUT, "appDsyms.zip"), "w") as archive:
    for dsym in (DEMO, SIGNED):
        add_tree(archive, dsym, uuid_of(dsym) + ".dSYM")
with zipfile.ZipFile(os.path.join(OUT, "sources.zip"), "w") as archive:
    info = zipfile.ZipInfo("Sources/main.swift", STAMP)
    archive.writestr(info, "print(\"not a dSYM\")\n")
print("dSYM fixtures written under", OUT)
