#!/usr/bin/env python3
"""Writes the zip fixtures in Fixtures/zip/ (python3 stdlib only; deterministic output).

Run from anywhere: python3 Fixtures/scripts/make_zips.py
The tests (Tests/CatalogCoreTests/ZipArchiveTests.swift) regenerate the same payloads with the same
formulas (`noise`, `text_lines`, `pattern`), so keep both in sync when changing either.
"""
import io
import os
import struct
import zipfile
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "zip")
DATE = (2024, 1, 2, 3, 4, 6)
DOS_TIME = (DATE[3] << 11) | (DATE[4] << 5) | (DATE[5] // 2)
DOS_DATE = ((DATE[0] - 1980) << 9) | (DATE[1] << 5) | DATE[2]


# ---- payloads (mirrored in the Swift tests) ----------------------------------------------------

def noise(n, seed):
    """Incompressible bytes: a 32-bit LCG, top byte of each state."""
    out = bytearray(n)
    s = seed & 0xFFFFFFFF
    for i in range(n):
        s = (s * 1664525 + 1013904223) & 0xFFFFFFFF
        out[i] = s >> 24
    return bytes(out)


def text_lines(count):
    """Compressible text: `line NNNNN: the quick brown fox jumps over the lazy dog\\n`."""
    return b"".join(b"line %05d: the quick brown fox jumps over the lazy dog\n" % i for i in range(count))


def pattern(n):
    """Byte i is i % 251."""
    return bytes(i % 251 for i in range(n))


# ---- helpers ------------------------------------------------------------------------------------

def info(name, method, dir_entry=False):
    zi = zipfile.ZipInfo(name, date_time=DATE)
    zi.compress_type = method
    zi.create_system = 3
    zi.external_attr = ((0o40755 << 16) | 0x10) if dir_entry else (0o100644 << 16)
    return zi


def write(name, data):
    path = os.path.join(OUT, name)
    with open(path, "wb") as f:
        f.write(data)
    assert len(data) < 200 * 1024, (name, len(data))
    print(f"{name}: {len(data)} bytes")


def std_zip(entries, comment=b""):
    """entries: (name, method, bytes) — names ending in / are directories."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, method, data in entries:
            zf.writestr(info(name, method, name.endswith("/")), data)
        zf.comment = comment
    return buf.getvalue()


def raw_deflate(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def central_offset(data):
    """(offset of the central directory, offset of the EOCD) of a comment-less archive."""
    eocd = data.rindex(b"PK\x05\x06")
    return struct.unpack_from("<I", data, eocd + 16)[0], eocd


def central_headers(data):
    """Offsets of each central directory file header."""
    cd, eocd = central_offset(data)
    offsets, pos = [], cd
    while pos < eocd:
        assert data[pos:pos + 4] == b"PK\x01\x02"
        offsets.append(pos)
        n, e, c = struct.unpack_from("<HHH", data, pos + 28)
        pos += 46 + n + e + c
    return offsets


def local_header(name_bytes, method, crc, csize, usize, extra=b"", flags=0x800, version=20):
    return struct.pack("<IHHHHHIIIHH", 0x04034B50, version, flags, method, DOS_TIME, DOS_DATE,
                       crc, csize, usize, len(name_bytes), len(extra)) + name_bytes + extra


def central_header(name_bytes, method, crc, csize, usize, offset, extra=b"", flags=0x800, version=20):
    return struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, (3 << 8) | version, version, flags, method,
                       DOS_TIME, DOS_DATE, crc, csize, usize, len(name_bytes), len(extra), 0, 0, 0,
                       0o100644 << 16, offset) + name_bytes + extra


def eocd(count, cd_size, cd_offset, comment=b""):
    return struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, cd_size, cd_offset,
                       len(comment)) + comment


# ---- fixtures -----------------------------------------------------------------------------------

def mixed():
    entries = [
        ("docs/", zipfile.ZIP_STORED, b""),
        ("docs/readme.txt", zipfile.ZIP_STORED, b"hello from a stored entry\n"),
        ("docs/empty.txt", zipfile.ZIP_STORED, b""),
        ("docs/nested/", zipfile.ZIP_STORED, b""),
        ("docs/nested/deep/path/lines.txt", zipfile.ZIP_DEFLATED, text_lines(4000)),
        ("noise-deflated.bin", zipfile.ZIP_DEFLATED, noise(100_000, 1)),
        ("noise-stored.bin", zipfile.ZIP_STORED, noise(4096, 2)),
        ("pattern.bin", zipfile.ZIP_DEFLATED, pattern(65_536)),
        ("na\u00efve/r\u00e9sum\u00e9.txt", zipfile.ZIP_DEFLATED, "caf\u00e9 \u2615\n".encode()),
    ]
    write("mixed.zip", std_zip(entries, comment=b"catalog mixed fixture " + b"#" * 1000))


def descriptor():
    """Written to an unseekable stream, so every entry has flag bit 3 and a data descriptor."""
    class Unseekable(io.RawIOBase):
        def __init__(self):
            self.buf = bytearray()

        def writable(self):
            return True

        def write(self, b):
            self.buf += b
            return len(b)

    sink = Unseekable()
    with zipfile.ZipFile(sink, "w") as zf:
        with zf.open(info("streamed/lines.txt", zipfile.ZIP_DEFLATED), "w") as f:
            f.write(text_lines(500))
        with zf.open(info("streamed/pattern.bin", zipfile.ZIP_STORED), "w") as f:
            f.write(pattern(3000))
    data = bytes(sink.buf)
    for off in central_headers(data):
        assert struct.unpack_from("<H", data, off + 8)[0] & 0x8
    write("descriptor.zip", data)


def zip64():
    """Hand-built: every central header carries a zip64 extra field (0x0001) for the fields saturated
    to 0xFFFFFFFF, local headers carry zip64 sizes, and the end records are EOCD64 + locator + an
    EOCD whose counts/size/offset are saturated."""
    files = [
        # (name, method, payload, zip64 fields in the central header)
        ("zip64/stored.txt", 0, b"stored in a zip64 archive\n", ("usize", "csize", "offset")),
        ("zip64/deflated.txt", 8, text_lines(300), ("usize", "csize")),
        ("zip64/offset-only.bin", 8, pattern(5000), ("offset",)),
    ]
    body, central = bytearray(), bytearray()
    for name, method, payload, fields in files:
        nb = name.encode()
        comp = payload if method == 0 else raw_deflate(payload)
        crc = zlib.crc32(payload)
        offset = len(body)
        local_extra = struct.pack("<HHQQ", 1, 16, len(payload), len(comp))
        body += local_header(nb, method, crc, 0xFFFFFFFF, 0xFFFFFFFF, local_extra, version=45) + comp
        values = []
        usize = csize = off = None
        if "usize" in fields:
            values.append(len(payload)); usize = 0xFFFFFFFF
        if "csize" in fields:
            values.append(len(comp)); csize = 0xFFFFFFFF
        if "offset" in fields:
            values.append(offset); off = 0xFFFFFFFF
        extra = struct.pack("<HH", 1, 8 * len(values)) + b"".join(struct.pack("<Q", v) for v in values)
        # an unrelated extra field after the zip64 one (extended timestamp)
        extra += struct.pack("<HHBI", 0x5455, 5, 1, 1704164646)
        central += central_header(nb, method, crc, len(comp) if csize is None else csize,
                                  len(payload) if usize is None else usize,
                                  offset if off is None else off, extra, version=45)
    cd_offset = len(body)
    eocd64_offset = cd_offset + len(central)
    eocd64 = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, (3 << 8) | 45, 45, 0, 0,
                         len(files), len(files), len(central), cd_offset)
    locator = struct.pack("<IIQI", 0x07064B50, 0, eocd64_offset, 1)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    data = bytes(body + central + eocd64 + locator + end)
    write("zip64.zip", data)


def local_mismatch():
    """Hand-built: local headers whose name/extra lengths differ from the central directory's."""
    files = [
        # (central name, local name, local extra, payload, method)
        ("short-local-name.txt", b"x", b"", b"the local header names this entry 'x'\n", 0),
        ("big-local-extra.bin", b"big-local-extra.bin",
         struct.pack("<HH", 0xCAFE, 60) + bytes(range(60)), pattern(2000), 8),
    ]
    body, central = bytearray(), bytearray()
    for cname, lname, lextra, payload, method in files:
        comp = payload if method == 0 else raw_deflate(payload)
        crc = zlib.crc32(payload)
        offset = len(body)
        body += local_header(lname, method, crc, len(comp), len(payload), lextra) + comp
        central += central_header(cname.encode(), method, crc, len(comp), len(payload), offset)
    data = bytes(body + central + eocd(len(files), len(central), len(body)))
    write("local-mismatch.zip", data)


def lying_size():
    """`huge.txt` claims 3,000,000,000 bytes uncompressed (really 26); `understated.bin` claims 16
    bytes but inflates to 4096."""
    data = bytearray(std_zip([
        ("huge.txt", zipfile.ZIP_DEFLATED, b"really only twenty-six b.\n"),
        ("understated.bin", zipfile.ZIP_DEFLATED, pattern(4096)),
    ]))
    first, second = central_headers(data)
    struct.pack_into("<I", data, first + 24, 3_000_000_000)
    struct.pack_into("<I", data, second + 24, 16)
    # the local headers say the same
    struct.pack_into("<I", data, 0 + 22, 3_000_000_000)
    second_local = struct.unpack_from("<I", data, second + 42)[0]
    struct.pack_into("<I", data, second_local + 22, 16)
    write("lying-size.zip", bytes(data))


def bomb():
    """50 MiB of zeros, deflated (~50 KB), with an honest declared size."""
    zeros = bytes(50 * 1024 * 1024)
    write("bomb.zip", std_zip([("zeros.bin", zipfile.ZIP_DEFLATED, zeros),
                               ("small.txt", zipfile.ZIP_STORED, b"not a bomb\n")]))


def truncated_cd():
    data = std_zip([("a/", 0, b""), ("a/one.txt", 0, b"one\n"), ("a/two.txt", 8, text_lines(100)),
                    ("a/three.txt", 0, b"three\n")])
    cd, end = central_offset(data)
    write("truncated-cd.zip", data[: cd + (end - cd) // 2])


def cd_past_eof():
    data = bytearray(std_zip([("one.txt", 0, b"one\n")]))
    _, end = central_offset(data)
    struct.pack_into("<I", data, end + 16, 0x7FFF0000)
    write("cd-past-eof.zip", bytes(data))


def bad_offsets():
    """A readable central directory whose entries point past EOF (local header offset) or claim more
    compressed bytes than the file holds."""
    data = bytearray(std_zip([("ok.txt", 0, b"fine\n"), ("far.txt", 0, b"far away\n"),
                              ("long.txt", 0, b"long\n")]))
    _, far, long_ = central_headers(data)
    struct.pack_into("<I", data, far + 42, 0x7FFFFFF0)
    struct.pack_into("<II", data, long_ + 20, 0x10000000, 0x10000000)
    write("bad-offsets.zip", bytes(data))


def bad_crc():
    data = bytearray(std_zip([("good.txt", 0, b"good\n"), ("bad.txt", 0, b"bad crc\n"),
                              ("bad-deflated.txt", 8, text_lines(50))]))
    for off in central_headers(data)[1:]:
        crc = struct.unpack_from("<I", data, off + 16)[0] ^ 0xDEADBEEF
        struct.pack_into("<I", data, off + 16, crc)
        local = struct.unpack_from("<I", data, off + 42)[0]
        struct.pack_into("<I", data, local + 14, crc)
    write("bad-crc.zip", bytes(data))


def dotdot():
    """Names that would escape an extraction directory, plus a name with an invalid UTF-8 byte."""
    data = std_zip([("../evil", 0, b"evil\n"), ("/abs/path", 0, b"absolute\n"),
                    ("a/../../b", 0, b"b\n"), ("bad-?.txt", 0, b"invalid utf-8 name\n")])
    data = data.replace(b"bad-?.txt", b"bad-\xff.txt")
    write("dotdot.zip", data)


def fake_eocd_comment():
    """The archive comment contains an end-of-central-directory signature (with a bogus record)."""
    fake = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 9, 9, 1234, 5678, 3)
    write("fake-eocd-comment.zip", std_zip([("real.txt", 0, b"real\n")], comment=b"x" + fake + b"tail"))


def overlap():
    """Overlapping entries (the "zip bomb without recursion" trick): 200 central-directory entries
    all point at the same 1 MiB-of-zeros deflated local file, so a reader that trusts sizes per
    entry would inflate 200 MiB from a ~1 KB archive."""
    zeros = b"\0" * (1 << 20)
    comp = raw_deflate(zeros)
    crc = zlib.crc32(zeros) & 0xFFFFFFFF
    name = b"Payload/Overlap.app/Info.plist"
    local = local_header(name, 8, crc, len(comp), len(zeros)) + comp
    central = b"".join(central_header(name if i == 0 else b"Payload/Overlap.app/copy-%03d" % i, 8, crc,
                                      len(comp), len(zeros), 0) for i in range(200))
    write("overlap.zip", local + central + eocd(200, len(central), len(local)))


def main():
    os.makedirs(OUT, exist_ok=True)
    overlap()
    mixed()
    descriptor()
    zip64()
    local_mismatch()
    lying_size()
    bomb()
    truncated_cd()
    cd_past_eof()
    bad_offsets()
    bad_crc()
    dotdot()
    fake_eocd_comment()
    with open(os.path.join(OUT, "empty.zip"), "wb"):
        pass
    print("empty.zip: 0 bytes")


if __name__ == "__main__":
    main()
