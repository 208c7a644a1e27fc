#!/usr/bin/env python3
"""Generate Fixtures/codesign/ and Fixtures/integrity/: Mach-O binaries with real code signatures,
and the builds that carry them.

- `codesign/macho/`: single binaries — thin and fat (FAT_MAGIC and FAT_MAGIC_64), 64- and 32-bit,
  little- and big-endian, signed by a fixture certificate (SHA-1 and SHA-256 CodeDirectories,
  XML and DER entitlements, a requirements blob, a detached CMS signature over the first
  CodeDirectory), ad hoc, linker-signed, unsigned, a dSYM, and `malformed/` ones.
- `codesign/*.app`, `*.ipa`, `*.xcarchive`: builds whose executables are such binaries, one clean
  and one per signing problem (Fixtures/README.md lists them).
- `integrity/`: one good signed build and one variant per broken part of it (code, Info.plist,
  resources, nested code, seal, CMS, entitlements), and `integrity/expected.json` with what each
  must give; check_integrity.py re-derives that from the files.

Each signature is what `codesign` writes: page hashes (4 KiB pages) of the slice up to the
signature; special slots binding the bundle's Info.plist (−1), the requirements blob (−2), the
bundle's `_CodeSignature/CodeResources` (−3) and the entitlements blobs (−5, −7); and a CMS blob as
Apple's are (BER indefinite lengths, detached, signed attributes with signingTime, messageDigest and
Apple's CDHashes attributes), assembled here and signed with `openssl dgst -sha256 -sign` and the
fixtures' test keys. Every signed bundle has a resource seal with Xcode's rules (iOS: nested files
listed one by one; macOS: nested code by cdhash), written before its executable is signed and after
the bundles inside it. Runs after make_profiles.py (keys/, certs/, profiles/). Deterministic: UUIDs
and code bytes come from fixed seeds, the signing time is fixed, PKCS#1 v1.5 signatures are
deterministic, the self-signed variant's key comes from a fixed seed, zip timestamps are fixed.
"""

import atexit
import base64
import datetime
import hashlib
import json
import os
import plistlib
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import der  # noqa: E402

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # Fixtures/
OUT = os.path.join(HERE, "codesign")
MACHO = os.path.join(OUT, "macho")
KEYS = os.path.join(HERE, "keys")
CERTS = os.path.join(HERE, "certs")
PROFILES = os.path.join(HERE, "profiles")
WORK = tempfile.mkdtemp(prefix="catalog-codesign-")
atexit.register(shutil.rmtree, WORK, True)
ZIP_TIME = (2026, 1, 20, 12, 0, 0)

# <mach/machine.h>
CPU_ARM64, CPU_X86_64, CPU_ARM, CPU_ARM64_32, CPU_PPC = 0x0100000C, 0x01000007, 12, 0x0200000C, 18
SUB_ALL, SUB_ARM64E, SUB_ARMV7, SUB_ARMV7K, SUB_ARM64_32_V8, SUB_X86_64_ALL = 0, 0x80000002, 9, 12, 1, 3
# <mach-o/loader.h>
MH_EXECUTE, MH_DYLIB, MH_DSYM = 0x2, 0x6, 0xA
LC_SEGMENT, LC_SEGMENT_64, LC_UUID, LC_CODE_SIGNATURE, LC_BUILD_VERSION = 0x1, 0x19, 0x1B, 0x1D, 0x32
LC_VERSION_MIN_MACOSX, LC_VERSION_MIN_IPHONEOS = 0x24, 0x25
PLATFORM = {"macos": 1, "ios": 2, "watchos": 4, "iossimulator": 7}
# <kern/cs_blobs.h>
CSMAGIC_SUPERBLOB, CSMAGIC_CODEDIRECTORY, CSMAGIC_REQUIREMENTS = 0xFADE0CC0, 0xFADE0C02, 0xFADE0C01
CSMAGIC_ENTITLEMENTS, CSMAGIC_DER_ENTITLEMENTS, CSMAGIC_BLOBWRAPPER = 0xFADE7171, 0xFADE7172, 0xFADE0B01
CS_ADHOC, CS_LINKER_SIGNED = 0x2, 0x20000
PAGE_LOG2 = 12
HASHES = {"sha1": (1, 20, hashlib.sha1), "sha256": (2, 32, hashlib.sha256)}


def run(args, data=None):
    r = subprocess.run(args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        sys.stderr.write(r.stderr.decode(errors="replace"))
        raise SystemExit("command failed: %s" % " ".join(args))
    return r.stdout


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def version(text):
    parts = [int(p) for p in text.split(".")] + [0, 0]
    return parts[0] << 16 | parts[1] << 8 | parts[2]


def seeded_uuid(label):
    return hashlib.sha256(("catalog-macho-uuid-" + label).encode()).digest()[:16]


def align(n, to):
    return (n + to - 1) // to * to


# ---------------------------------------------------------------------------------------------
# Signing identities and blobs


OID_DATA, OID_SIGNED_DATA = "1.2.840.113549.1.7.1", "1.2.840.113549.1.7.2"
OID_CONTENT_TYPE, OID_SIGNING_TIME, OID_MESSAGE_DIGEST = "1.2.840.113549.1.9.3", "1.2.840.113549.1.9.5", "1.2.840.113549.1.9.4"
OID_CDHASHES_PLIST, OID_CDHASHES_DER = "1.2.840.113635.100.9.1", "1.2.840.113635.100.9.2"
OID_SHA1, OID_SHA256, OID_RSA = "1.3.14.3.2.26", "2.16.840.1.101.3.4.2.1", "1.2.840.113549.1.1.1"
HASH_OIDS = {1: OID_SHA1, 2: OID_SHA256}
# Every code signature's signingTime (Apple's blobs carry one; a fixed one keeps the bytes fixed).
SIGNING_TIME = datetime.datetime(2026, 1, 20, 12, 0, 0)


def certificate_issuer_serial(cert):
    """The raw issuer Name and serial INTEGER of a DER certificate (its SignerInfo's sid)."""
    tbs = der.parse(cert).children[0]
    fields = tbs.children[1:] if tbs.children[0].tag == 0xA0 else tbs.children
    serial, issuer = fields[0], fields[2]
    return cert[issuer.offset:issuer.end], cert[serial.offset:serial.end]


class Identity:
    """A fixture certificate (certs/LABEL.der) and its key (keys/LABEL.key.pem); its CMS blobs carry
    it and the fixture CA."""

    def __init__(self, label):
        self.label = label
        self.key = os.path.join(KEYS, label + ".key.pem")
        if not os.path.exists(self.key):
            raise SystemExit("make_codesign.py: %s is missing (run generate.sh, which restores keys/)" % self.key)
        with open(os.path.join(CERTS, label + ".der"), "rb") as f:
            leaf = f.read()
        with open(os.path.join(CERTS, "ca.der"), "rb") as f:
            self.certificates = [leaf, f.read()]
        self.issuer, self.serial = certificate_issuer_serial(leaf)
        self.signature_size = len(self.sign(b"size probe"))

    def sign(self, message):
        """RSA PKCS#1 v1.5 SHA-256 (deterministic) with the fixture key."""
        src = os.path.join(WORK, "signed-attributes.der")
        write(src, message)
        return run(["openssl", "dgst", "-sha256", "-sign", self.key, src])


class SelfSignedIdentity:
    """A self-signed "TestFixture" certificate (as fastlane's test fixture has), its RSA key derived
    from a fixed seed by make_signatures.py's Key, so a clean clone makes the same bytes; its CMS
    blobs carry only it."""

    def __init__(self):
        import make_signatures as ms
        self.label = "TestFixture"
        self._key = ms.Key("codesign-self-signed-testfixture")
        cert = ms.Cert(ms.name([("CN", "TestFixture")]), 0x7E57F1C7, datetime.datetime(2025, 1, 1),
                       datetime.datetime(2035, 1, 1), self._key)
        self.certificates = [cert.der]
        self.issuer, self.serial = certificate_issuer_serial(cert.der)
        self.signature_size = 256

    def sign(self, message):
        return self._key.sign(message)


IDENTITIES = {}


def identity(signer):
    """The identity for a label (certs/LABEL.der), or `signer` itself when it is one."""
    if not isinstance(signer, str):
        return signer
    if signer not in IDENTITIES:
        IDENTITIES[signer] = Identity(signer)
    return IDENTITIES[signer]


def cd_digest(cd):
    """The full digest of a CodeDirectory blob with its own hash type (its cdhash before truncation)."""
    return (hashlib.sha1 if cd[37] == 1 else hashlib.sha256)(cd).digest()


def attribute(oid_, *values):
    return der.seq(der.oid(oid_), der.set_of_sorted(*values))


def cms_signature(signer, cds, sign=None):
    """Apple's detached CMS blob over the primary CodeDirectory `cds[0]`: BER indefinite lengths on
    the outer ContentInfo, SignedData and encapContentInfo (no eContent); signed attributes
    contentType, signingTime, messageDigest (SHA-256 of cds[0]) and the CDHashes attributes
    (1.2.840.113635.100.9.1: a plist of every CodeDirectory's cdhash in SuperBlob order;
    .100.9.2: each one's hash OID and full digest); RSA PKCS#1 v1.5 SHA-256 over the DER SET OF
    the attributes. `sign` replaces the signer's key (for a size probe)."""
    cdhashes = plistlib.dumps({"cdhashes": [cd_digest(cd)[:20] for cd in cds]}, fmt=plistlib.FMT_XML)
    attrs = [attribute(OID_CONTENT_TYPE, der.oid(OID_DATA)),
             attribute(OID_SIGNING_TIME, der.time(SIGNING_TIME)),
             attribute(OID_MESSAGE_DIGEST, der.octets(hashlib.sha256(cds[0]).digest())),
             attribute(OID_CDHASHES_PLIST, der.octets(cdhashes)),
             attribute(OID_CDHASHES_DER, *[der.seq(der.oid(HASH_OIDS[cd[37]]), der.octets(cd_digest(cd))) for cd in cds])]
    signed = der.set_of_sorted(*attrs)  # what is signed: the SET OF (tag 0x31), stored as [0] IMPLICIT
    signature = (sign or signer.sign)(signed)
    sha256 = der.seq(der.oid(OID_SHA256), der.null())
    signer_info = der.seq(der.integer(1), der.seq(signer.issuer, signer.serial), sha256, b"\xa0" + signed[1:],
                          der.seq(der.oid(OID_RSA), der.null()), der.octets(signature))
    indefinite = b"\x30\x80"
    signed_data = (indefinite + der.integer(1) + der.set_(sha256)
                   + indefinite + der.oid(OID_DATA) + b"\0\0"
                   + der.tlv(0xA0, b"".join(signer.certificates))
                   + der.set_(signer_info) + b"\0\0")
    return indefinite + der.oid(OID_SIGNED_DATA) + b"\xa0\x80" + signed_data + b"\0\0" + b"\0\0"


def cms_size(signer, hash_types):
    """The length of a CMS blob by `signer` over CodeDirectories of these hash types: it depends on
    nothing else (fixed certificates, digests and signature sizes)."""
    probes = [b"\0" * 37 + bytes([t]) + b"\0" * 50 for t in hash_types]
    return len(cms_signature(signer, probes, sign=lambda _: b"\0" * signer.signature_size))


def blob(magic, body):
    return struct.pack(">II", magic, 8 + len(body)) + body


def der_value(v):
    """Apple's DER entitlements encoding of one plist value."""
    if isinstance(v, bool):
        return der.boolean(v)
    if isinstance(v, int):
        return der.integer(v)
    if isinstance(v, str):
        return der.utf8(v)
    if isinstance(v, list):
        return der.seq(*[der_value(x) for x in v])
    if isinstance(v, dict):
        return der.tlv(0xB0, b"".join(der.seq(der.utf8(k), der_value(v[k])) for k in sorted(v)))
    raise TypeError(type(v))


def der_entitlements(entitlements):
    # [APPLICATION 16] { INTEGER 1, [16] { SEQUENCE { key, value } … } }
    return der.tlv(0x70, der.integer(1) + der_value(entitlements))


def der_bare_value(v):
    """The bare form a re-signing tool writes: dictionaries as a SET of SEQUENCE { key, value } in
    the dictionary's own (unsorted) order, arrays as SEQUENCE."""
    if isinstance(v, dict):
        return der.tlv(0x31, b"".join(der.seq(der.utf8(k), der_bare_value(x)) for k, x in v.items()))
    if isinstance(v, list):
        return der.seq(*[der_bare_value(x) for x in v])
    return der_value(v)


# An empty requirement set (what `codesign` writes for a binary with no designated requirement).
REQUIREMENTS = struct.pack(">III", CSMAGIC_REQUIREMENTS, 12, 0)


class Signing:
    """How to sign a slice: identifier, team, signer (a certs/ label, an identity, None: ad hoc),
    entitlements, hashes, and what special slots bind: the bundle's Info.plist (−1) and
    `_CodeSignature/CodeResources` (−3) bytes. `der_form` "bare" writes the DER entitlements as a
    bare SET; `der_entitlements` puts other entitlements in the DER blob than in the XML one."""

    def __init__(self, identifier, team=None, signer=None, entitlements=None, der=True, hashes=("sha1", "sha256"),
                 info_plist=None, linker=False, resources=None, der_form="wrapped", der_entitlements=None):
        self.identifier = identifier
        self.team = team
        self.signer = signer
        self.entitlements = entitlements
        self.der = der and entitlements is not None
        self.hashes = hashes
        self.info_plist = info_plist
        self.linker = linker
        self.resources = resources
        self.der_form = der_form
        self.der_entitlements = der_entitlements

    def blobs(self):
        """(slot, blob) pairs other than CodeDirectories and the CMS, in SuperBlob order."""
        out = []
        if not self.linker:
            out.append((2, REQUIREMENTS))
        if self.entitlements is not None:
            out.append((5, blob(CSMAGIC_ENTITLEMENTS, plistlib.dumps(self.entitlements, fmt=plistlib.FMT_XML))))
        if self.der:
            values = self.entitlements if self.der_entitlements is None else self.der_entitlements
            encoded = der_bare_value(values) if self.der_form == "bare" else der_entitlements(values)
            out.append((7, blob(CSMAGIC_DER_ENTITLEMENTS, encoded)))
        return out

    def special_slots(self):
        """What each special slot hashes, from slot -N to -1 (the order they are stored): N is the
        highest bound slot, unbound ones (None) are all-zero hashes."""
        blobs = dict(self.blobs())
        values = {1: self.info_plist, 2: blobs.get(2), 3: self.resources, 5: blobs.get(5), 7: blobs.get(7)}
        count = max([n for n, v in values.items() if v is not None], default=0)
        return [values.get(n) for n in range(count, 0, -1)]

    def flags(self):
        if self.linker:
            return CS_ADHOC | CS_LINKER_SIGNED
        return CS_ADHOC if self.signer is None else 0


def code_directory(signing, hash_name, code, exec_limit, main):
    """A version 0x20400 CodeDirectory over `code` (the slice up to its signature)."""
    hash_type, hash_size, fn = HASHES[hash_name]
    page = 1 << PAGE_LOG2
    code_hashes = [fn(code[i:i + page]).digest() for i in range(0, len(code), page)]
    special = [fn(b).digest() if b is not None else b"\0" * hash_size for b in signing.special_slots()]
    ident = signing.identifier.encode() + b"\0"
    team = signing.team.encode() + b"\0" if signing.team and signing.signer else b""
    header_size = 88
    ident_offset = header_size
    team_offset = ident_offset + len(ident) if team else 0
    hash_offset = header_size + len(ident) + len(team) + len(special) * hash_size
    length = hash_offset + len(code_hashes) * hash_size
    header = struct.pack(">IIIIIIIIIBBBBIIIIQQQQ", CSMAGIC_CODEDIRECTORY, length, 0x20400, signing.flags(),
                         hash_offset, ident_offset, len(special), len(code_hashes), len(code), hash_size,
                         hash_type, 0, PAGE_LOG2, 0, 0, team_offset, 0, 0, 0, exec_limit, 1 if main else 0)
    assert len(header) == header_size
    return header + ident + team + b"".join(special) + b"".join(code_hashes)


def estimate_signature(signing, code_size):
    pages = (code_size + (1 << PAGE_LOG2) - 1) >> PAGE_LOG2
    special = len(signing.special_slots())
    size = 12
    for _, b in signing.blobs():
        size += 8 + len(b)
    for name in signing.hashes:
        size += 8 + 88 + len(signing.identifier) + 1 + len(signing.team or "") + 1 + (special + pages) * HASHES[name][1]
    if not signing.linker:
        size += 8 + 8
        if signing.signer:
            size += cms_size(identity(signing.signer), [HASHES[name][0] for name in signing.hashes])
    return align(size, 16)


def super_blob(signing, code, exec_limit, main):
    cds = [code_directory(signing, name, code, exec_limit, main) for name in signing.hashes]
    entries = [(0, cds[0])] + signing.blobs() + [(0x1000 + i, cd) for i, cd in enumerate(cds[1:])]
    if not signing.linker:
        cms = cms_signature(identity(signing.signer), cds) if signing.signer else b""
        entries.append((0x10000, blob(CSMAGIC_BLOBWRAPPER, cms)))
    offset = 12 + 8 * len(entries)
    index, body = b"", b""
    for slot, b in entries:
        index += struct.pack(">II", slot, offset + len(body))
        body += b
    return struct.pack(">III", CSMAGIC_SUPERBLOB, offset + len(body), len(entries)) + index + body


# ---------------------------------------------------------------------------------------------
# Mach-O slices and fat files


class Slice:
    """One thin Mach-O: header, __TEXT and __LINKEDIT segments, LC_UUID, a platform command and, when
    signed, LC_CODE_SIGNATURE pointing at the signature at the end of __LINKEDIT."""

    def __init__(self, label, cputype, cpusubtype, *, is64=True, big_endian=False, filetype=MH_EXECUTE,
                 platform=("ios", "16.0", "17.0"), version_min=None, code_size=9000, signing=None, uuid=None,
                 code_patch=None):
        self.label = label
        self.code_patch = code_patch  # (offset in the slice, XOR mask): a code byte changed before signing
        self.cputype, self.cpusubtype = cputype, cpusubtype
        self.is64, self.big_endian, self.filetype = is64, big_endian, filetype
        self.platform, self.version_min = platform, version_min
        self.code_size, self.signing = code_size, signing
        self.uuid = uuid or seeded_uuid(label)

    def build(self):
        e = ">" if self.big_endian else "<"
        page = 0x4000 if self.cputype in (CPU_ARM64, CPU_ARM64_32) else 0x1000
        seg_size = 72 if self.is64 else 56
        sect_size = 80 if self.is64 else 68
        commands_size = (seg_size + sect_size) + seg_size + 24
        commands_size += 24 if self.platform else 16 if self.version_min else 0
        commands_size += 16 if self.signing else 0
        header_size = 32 if self.is64 else 28
        code_offset = align(header_size + commands_size, 16)
        text_size = align(code_offset + self.code_size, page)
        rnd = random.Random("catalog-macho-code-" + self.label)
        code = bytes(rnd.getrandbits(8) for _ in range(self.code_size))
        linkedit_offset = text_size
        symbols = bytes(rnd.getrandbits(8) for _ in range(96))
        signature_offset = linkedit_offset + len(symbols)
        signature_offset = align(signature_offset, 16)
        signature_size = estimate_signature(self.signing, signature_offset) if self.signing else 0
        end = signature_offset + signature_size

        def segment(name, fileoff, filesize, vmaddr, prot, sections):
            if self.is64:
                head = struct.pack(e + "II16sQQQQiiII", LC_SEGMENT_64, seg_size + sect_size * len(sections),
                                   name, vmaddr, align(filesize, page), fileoff, filesize, prot, prot, len(sections), 0)
            else:
                head = struct.pack(e + "II16sIIIIiiII", LC_SEGMENT, seg_size + sect_size * len(sections),
                                   name, vmaddr, align(filesize, page), fileoff, filesize, prot, prot, len(sections), 0)
            return head + b"".join(sections)

        base = 0x100000000 if self.is64 else 0x4000
        if self.is64:
            text_section = struct.pack(e + "16s16sQQIIIIIIII", b"__text", b"__TEXT", base + code_offset,
                                       self.code_size, code_offset, 4, 0, 0, 0x80000400, 0, 0, 0)
        else:
            text_section = struct.pack(e + "16s16sIIIIIIIII", b"__text", b"__TEXT", base + code_offset,
                                       self.code_size, code_offset, 2, 0, 0, 0x80000400, 0, 0)
        commands = segment(b"__TEXT", 0, text_size, base, 5, [text_section])
        commands += segment(b"__LINKEDIT", linkedit_offset, end - linkedit_offset, base + text_size, 1, [])
        commands += struct.pack(e + "II", LC_UUID, 24) + self.uuid
        if self.platform:
            name, minos, sdk = self.platform
            commands += struct.pack(e + "IIIIII", LC_BUILD_VERSION, 24, PLATFORM[name], version(minos), version(sdk), 0)
        elif self.version_min:
            cmd, minos, sdk = self.version_min
            commands += struct.pack(e + "IIII", cmd, 16, version(minos), version(sdk))
        if self.signing:
            commands += struct.pack(e + "IIII", LC_CODE_SIGNATURE, 16, signature_offset, signature_size)
        assert len(commands) == commands_size
        magic = 0xFEEDFACF if self.is64 else 0xFEEDFACE
        ncmds = 5 if self.signing else 4
        if not (self.platform or self.version_min):
            ncmds -= 1
        flags = 0x1 | 0x4 | 0x80 | (0x200000 if self.filetype == MH_EXECUTE else 0)
        header = struct.pack(e + "IIIIIII", magic, self.cputype, self.cpusubtype, self.filetype, ncmds,
                             commands_size, flags)
        if self.is64:
            header += b"\0" * 4
        out = bytearray(end)
        out[0:len(header)] = header
        out[header_size:header_size + commands_size] = commands
        out[code_offset:code_offset + self.code_size] = code
        out[linkedit_offset:linkedit_offset + len(symbols)] = symbols
        if self.code_patch:
            at, mask = self.code_patch
            assert code_offset <= at < code_offset + self.code_size
            out[at] ^= mask
        if self.signing:
            signed = bytes(out[:signature_offset])
            sig = super_blob(self.signing, signed, text_size, self.filetype == MH_EXECUTE)
            assert len(sig) <= signature_size, (self.label, len(sig), signature_size)
            out[signature_offset:signature_offset + len(sig)] = sig
        return bytes(out)


def fat(slices, is64=False):
    """A universal binary: the fat header (big-endian), then each slice at a 16 KiB boundary."""
    built = [s.build() for s in slices]
    entry = 32 if is64 else 20
    start = align(8 + entry * len(built), 1 << 14)
    header = struct.pack(">II", 0xCAFEBABF if is64 else 0xCAFEBABE, len(built))
    layout, offset = [], start
    for data in built:
        layout.append(offset)
        offset = align(offset + len(data), 1 << 14)
    for s, data, at in zip(slices, built, layout):
        if is64:
            header += struct.pack(">IIQQII", s.cputype, s.cpusubtype, at, len(data), 14, 0)
        else:
            header += struct.pack(">IIIII", s.cputype, s.cpusubtype, at, len(data), 14)
    out = bytearray(layout[-1] + len(built[-1]))
    out[:len(header)] = header
    for data, at in zip(built, layout):
        out[at:at + len(data)] = data
    return bytes(out)


# ---------------------------------------------------------------------------------------------
# Single binaries (codesign/macho/)

TEAM = "TEAM123456"


def ios_entitlements(app_id, get_task_allow=False, team=TEAM, **extra):
    e = {"application-identifier": "%s.%s" % (team, app_id), "com.apple.developer.team-identifier": team,
         "get-task-allow": get_task_allow, "keychain-access-groups": ["%s.%s" % (team, app_id)]}
    e.update(extra)
    return e


def binaries():
    """name → bytes for codesign/macho/."""
    out = {}
    thin = Slice("thin-arm64", CPU_ARM64, SUB_ALL, signing=Signing(
        "com.example.thin", TEAM, "dev_jane", ios_entitlements("com.example.thin", True), hashes=("sha1", "sha256")))
    out["thin-arm64"] = thin.build()
    mac_ent = {"com.apple.application-identifier": TEAM + ".com.example.universal",
               "com.apple.developer.team-identifier": TEAM, "com.apple.security.app-sandbox": True}
    out["fat-arm64-x86_64"] = fat([
        Slice("fat-arm64", CPU_ARM64, SUB_ALL, platform=("macos", "13.0", "14.2"), code_size=20000,
              signing=Signing("com.example.universal", TEAM, "dev_jane", mac_ent, der=False, hashes=("sha256",))),
        Slice("fat-x86_64", CPU_X86_64, SUB_X86_64_ALL, platform=("macos", "13.0", "14.2"), code_size=12000,
              signing=Signing("com.example.universal", TEAM, "dev_jane", mac_ent, der=False, hashes=("sha256",))),
    ])
    out["fat64-arm64-arm64e"] = fat([
        Slice("fat64-arm64", CPU_ARM64, SUB_ALL, platform=("ios", "15.0", "17.0"),
              signing=Signing("com.example.fat64", TEAM, "dist", ios_entitlements("com.example.fat64"))),
        Slice("fat64-arm64e", CPU_ARM64, SUB_ARM64E, platform=("ios", "15.0", "17.0"),
              signing=Signing("com.example.fat64", TEAM, "dist", ios_entitlements("com.example.fat64"))),
    ], is64=True)
    out["thin-armv7"] = Slice("thin-armv7", CPU_ARM, SUB_ARMV7, is64=False, platform=None,
                              version_min=(LC_VERSION_MIN_IPHONEOS, "9.0", "10.3"), code_size=5000,
                              signing=Signing("com.example.legacy", TEAM, "dist", ios_entitlements("com.example.legacy"),
                                              der=False, hashes=("sha1",))).build()
    out["adhoc-arm64"] = Slice("adhoc-arm64", CPU_ARM64, SUB_ALL, platform=("iossimulator", "16.0", "17.0"),
                               signing=Signing("com.example.adhoc", entitlements={"get-task-allow": True},
                                               hashes=("sha256",))).build()
    out["linker-signed-arm64"] = Slice("linker-signed-arm64", CPU_ARM64, SUB_ALL, platform=("macos", "14.0", "14.2"),
                                       signing=Signing("linker-signed-arm64", hashes=("sha256",), linker=True)).build()
    out["unsigned-arm64"] = Slice("unsigned-arm64", CPU_ARM64, SUB_ALL).build()
    out["ppc-bigendian"] = Slice("ppc-bigendian", CPU_PPC, SUB_ALL, is64=False, big_endian=True, platform=None,
                                 version_min=(LC_VERSION_MIN_MACOSX, "10.4", "10.4"), code_size=3000).build()
    out["dsym-arm64"] = Slice("thin-arm64-dsym", CPU_ARM64, SUB_ALL, filetype=MH_DSYM, uuid=seeded_uuid("thin-arm64"),
                              code_size=2000).build()
    return out


def malformed(good):
    """name → bytes for codesign/macho/malformed/, each derived from thin-arm64."""
    thin = good["thin-arm64"]
    ncmds, sizeofcmds = struct.unpack_from("<II", thin, 16)
    # LC_CODE_SIGNATURE is the last load command.
    signature_command = 32 + sizeofcmds - 16
    assert struct.unpack_from("<I", thin, signature_command)[0] == LC_CODE_SIGNATURE
    dataoff, datasize = struct.unpack_from("<II", thin, signature_command + 8)
    out = {"truncated-header": thin[:20]}
    commands = bytearray(thin)
    struct.pack_into("<I", commands, 20, len(thin))  # sizeofcmds larger than the file
    out["load-commands-past-end"] = bytes(commands)
    outside = bytearray(good["fat-arm64-x86_64"])
    struct.pack_into(">I", outside, 8 + 20 + 8, len(outside))  # second slice starts at the end of the file
    out["fat-slice-outside"] = bytes(outside)
    past = bytearray(thin)
    struct.pack_into("<I", past, signature_command + 12, datasize + 4096)
    out["signature-past-end"] = bytes(past)
    duplicate = bytearray(thin)
    # The SuperBlob's second index entry (requirements, slot 2) renamed to slot 0.
    struct.pack_into(">I", duplicate, dataoff + 12 + 8, 0)
    out["duplicate-slot"] = bytes(duplicate)
    garbage = bytearray(thin)
    count = struct.unpack_from(">I", thin, dataoff + 8)[0]
    for i in range(count):
        slot, offset = struct.unpack_from(">II", thin, dataoff + 12 + 8 * i)
        if slot == 0x10000:
            length = struct.unpack_from(">I", thin, dataoff + offset + 4)[0]
            garbage[dataoff + offset + 8:dataoff + offset + length] = b"\x30\x82\xff\xff" + b"\x00" * (length - 12)
    out["cms-garbage"] = bytes(garbage)
    rnd = random.Random("catalog-macho-not")
    out["not-macho"] = bytes([0x7F]) + bytes(rnd.getrandbits(8) for _ in range(63))
    return out


# ---------------------------------------------------------------------------------------------
# Resource seals (`_CodeSignature/CodeResources`), as Xcode writes them

# iOS (flat bundles): the rules of real iOS seals. Nothing is nested: code inside the app
# (PlugIns/*.appex, Frameworks/*) is listed file by file, Info.plist and PkgInfo are left out of
# files2 (they are in the legacy `files`).
IOS_RULES = {"^.*": True,
             "^.*\\.lproj/": {"optional": True, "weight": 1000.0},
             "^.*\\.lproj/locversion.plist$": {"omit": True, "weight": 1100.0},
             "^Base\\.lproj/": {"weight": 1010.0},
             "^version.plist$": True}
IOS_RULES2 = {"^.*": True,
              ".*\\.dSYM($|/)": {"weight": 11.0},
              "^(.*/)?\\.DS_Store$": {"omit": True, "weight": 2000.0},
              "^.*\\.lproj/": {"optional": True, "weight": 1000.0},
              "^.*\\.lproj/locversion.plist$": {"omit": True, "weight": 1100.0},
              "^Base\\.lproj/": {"weight": 1010.0},
              "^Info\\.plist$": {"omit": True, "weight": 20.0},
              "^PkgInfo$": {"omit": True, "weight": 20.0},
              "^embedded\\.provisionprofile$": {"weight": 20.0},
              "^version\\.plist$": {"weight": 20.0}}
# macOS (paths relative to Contents/, or a framework's version folder): nested code is sealed by its
# cdhash and designated requirement; only Resources/ is in the legacy `files`.
MAC_RULES = {"^Resources/": True,
             "^Resources/.*\\.lproj/": {"optional": True, "weight": 1000.0},
             "^Resources/.*\\.lproj/locversion.plist$": {"omit": True, "weight": 1100.0},
             "^Resources/Base\\.lproj/": {"weight": 1010.0},
             "^version.plist$": True}
MAC_RULES2 = {"^.*": True,
              "^[^/]+$": {"nested": True, "weight": 10.0},
              "^(Frameworks|SharedFrameworks|PlugIns|Plug-ins|XPCServices|Helpers|MacOS|Library/(Automator|Spotlight|LoginItems))/":
                  {"nested": True, "weight": 10.0},
              ".*\\.dSYM($|/)": {"weight": 11.0},
              "^(.*/)?\\.DS_Store$": {"omit": True, "weight": 2000.0},
              "^Info\\.plist$": {"omit": True, "weight": 20.0},
              "^PkgInfo$": {"omit": True, "weight": 20.0},
              "^embedded\\.provisionprofile$": {"weight": 20.0},
              "^version\\.plist$": {"weight": 20.0},
              "^Resources/": {"weight": 20.0},
              "^Resources/.*\\.lproj/": {"optional": True, "weight": 1000.0},
              "^Resources/Base\\.lproj/": {"weight": 1010.0},
              "^Resources/.*\\.lproj/locversion.plist$": {"omit": True, "weight": 1100.0}}


def best_rule(rules, path):
    """The rule that decides `path`: the highest weight among those whose regex matches (a bare
    `true` weighs 1); an omitting rule wins a tie."""
    best = None
    for pattern, value in rules.items():
        if re.search(pattern, path):
            rule = {} if value is True else value
            weight = rule.get("weight", 1.0)
            if best is None or weight > best[0] or (weight == best[0] and rule.get("omit") and not best[1].get("omit")):
                best = (weight, rule)
    return best[1] if best else None


def xml_escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def plist_xml(value):
    """An XML plist as CoreFoundation writes one: tabs, sorted keys, data on its own line, reals
    without a fraction."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
           '<plist version="1.0">']

    def emit(v, depth):
        pad = "\t" * depth
        if isinstance(v, dict):
            if not v:
                out.append(pad + "<dict/>")
                return
            out.append(pad + "<dict>")
            for key in sorted(v):
                out.append(pad + "\t<key>%s</key>" % xml_escape(key))
                emit(v[key], depth + 1)
            out.append(pad + "</dict>")
        elif isinstance(v, bool):
            out.append(pad + ("<true/>" if v else "<false/>"))
        elif isinstance(v, bytes):
            out.extend([pad + "<data>", pad + base64.b64encode(v).decode(), pad + "</data>"])
        elif isinstance(v, str):
            out.append(pad + "<string>%s</string>" % xml_escape(v))
        elif isinstance(v, float):
            out.append(pad + "<real>%g</real>" % v)
        else:
            raise TypeError(type(v))

    emit(value, 0)
    out.append("</plist>")
    return ("\n".join(out) + "\n").encode()


def code_resources(files, executable, mac=False, nested=None):
    """The CodeResources of a bundle whose files, relative to the seal's base, are `files` (bytes or
    ("symlink", target)). The main executable and `_CodeSignature/` are not sealed; `nested` maps
    a nested bundle's folder to (cdhash, designated requirement) — the macOS form — and its files
    are then not listed one by one."""
    rules, rules2 = (MAC_RULES, MAC_RULES2) if mac else (IOS_RULES, IOS_RULES2)
    nested = nested or {}
    files1, files2 = {}, {}
    for path in sorted(files):
        if path == executable or path.startswith("_CodeSignature/") or any(path.startswith(n + "/") for n in nested):
            continue
        data = files[path]
        rule = best_rule(rules2, path)
        if rule is not None and not rule.get("omit"):
            assert not rule.get("nested"), "%s: nested code must be passed in `nested`" % path
            if isinstance(data, tuple):
                files2[path] = {"symlink": data[1]}
            else:
                entry = {"hash": hashlib.sha1(data).digest(), "hash2": hashlib.sha256(data).digest()}
                if rule.get("optional"):
                    entry["optional"] = True
                files2[path] = entry
        rule = best_rule(rules, path)
        if rule is not None and not rule.get("omit") and not isinstance(data, tuple):
            sha1 = hashlib.sha1(data).digest()
            files1[path] = {"hash": sha1, "optional": True} if rule.get("optional") else sha1
    for path, (cdhash, requirement) in nested.items():
        files2[path] = {"cdhash": cdhash, "requirement": requirement}
    return plist_xml({"files": files1, "files2": files2, "rules": rules, "rules2": rules2})


def first_slice_blobs(macho):
    """slot → blob of the first slice's code signature (thin little-endian 64-bit slices only)."""
    if macho[:4] in (b"\xca\xfe\xba\xbe", b"\xca\xfe\xba\xbf"):
        if macho[3] == 0xBF:
            _, _, offset, size = struct.unpack_from(">IIQQ", macho, 8)
        else:
            _, _, offset, size = struct.unpack_from(">IIII", macho, 8)
        return first_slice_blobs(macho[offset:offset + size])
    ncmds = struct.unpack_from("<I", macho, 16)[0]
    at = 32
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", macho, at)
        if cmd == LC_CODE_SIGNATURE:
            dataoff = struct.unpack_from("<I", macho, at + 8)[0]
            count = struct.unpack_from(">I", macho, dataoff + 8)[0]
            out = {}
            for i in range(count):
                slot, offset = struct.unpack_from(">II", macho, dataoff + 12 + 8 * i)
                length = struct.unpack_from(">I", macho, dataoff + offset + 4)[0]
                out[slot] = (dataoff + offset, macho[dataoff + offset:dataoff + offset + length])
            return out
        at += size
    raise ValueError("no LC_CODE_SIGNATURE")


def nested_cdhash(macho):
    """What a macOS seal records for nested code: the cdhash of its first slice's SHA-256
    CodeDirectory (else its first one), 20 bytes."""
    cds = [blob_ for slot, (_, blob_) in sorted(first_slice_blobs(macho).items()) if slot == 0 or 0x1000 <= slot < 0x1005]
    cd = next((c for c in cds if c[37] == 2), cds[0])
    return cd_digest(cd)[:20]


def common_name(cert):
    tbs = der.parse(cert).children[0]
    fields = tbs.children[1:] if tbs.children[0].tag == 0xA0 else tbs.children
    for rdn in fields[4].children:
        for pair in rdn.children:
            if pair.children[0].content == b"\x55\x04\x03":
                return pair.children[1].content.decode()
    return None


def designated_requirement(identifier, signer):
    """Xcode's designated requirement for code signed by an Apple Development certificate."""
    return ('identifier "%s" and anchor apple generic and certificate leaf[subject.CN] = "%s" and certificate '
            '1[field.1.2.840.113635.100.6.2.1] /* exists */' % (identifier, common_name(identity(signer).certificates[0])))


def sealed_bundle(files, executable, make_executable, base="", mac=False, nested=None):
    """A signed bundle: its files (relative to its folder) under `base` — the seal's base: "" for
    iOS, "Contents/" for a macOS app, "Versions/A/" for a macOS framework — are sealed into
    base + `_CodeSignature/CodeResources`, then `make_executable(seal)` (whose signature binds that
    seal at −3) is added at base + `executable`. Nested bundles are in `files` already, signed."""
    tree = dict(files)
    inside = {path[len(base):]: data for path, data in tree.items() if path.startswith(base)}
    seal = code_resources(inside, executable, mac, nested)
    tree[base + "_CodeSignature/CodeResources"] = seal
    tree[base + executable] = make_executable(seal)
    return tree


def nest(tree, prefix, bundle):
    """Adds `bundle`'s files to `tree` under `prefix`."""
    for relative, data in bundle.items():
        tree[prefix + relative] = data
    return tree


# ---------------------------------------------------------------------------------------------
# Builds (codesign/*.app, *.ipa, *.xcarchive)


def profile(name):
    with open(os.path.join(PROFILES, name), "rb") as f:
        return f.read()


def ios_info(bundle_id, name, short="9.0", build="900", package="APPL", platforms=("iPhoneOS",), **extra):
    d = {"CFBundleIdentifier": bundle_id, "CFBundleShortVersionString": short, "CFBundleVersion": build,
         "CFBundleName": name, "CFBundlePackageType": package, "CFBundleExecutable": name,
         "CFBundleSupportedPlatforms": list(platforms), "CFBundleInfoDictionaryVersion": "6.0",
         "MinimumOSVersion": "16.0"}
    d.update(extra)
    return plistlib.dumps(d, fmt=plistlib.FMT_BINARY, sort_keys=True)


def ios_main(label, identifier, signer, entitlements, info, team=TEAM, hashes=("sha1", "sha256"), **options):
    """The main executable of an iOS bundle: thin arm64, or unsigned when `signer` is "unsigned".
    `options` go to Signing (resources, der_form, der_entitlements)."""
    if signer == "unsigned":
        return Slice(label, CPU_ARM64, SUB_ALL).build()
    return Slice(label, CPU_ARM64, SUB_ALL, signing=Signing(identifier, team, signer, entitlements, hashes=hashes,
                                                            info_plist=info, **options)).build()


def ios_app(name, *, bundle_id="com.example.app", profile_name="ios-adhoc.mobileprovision", signer="dist",
            entitlements=None, identifier=None, team=TEAM, nested=False, short="9.0", build="900"):
    """relative path → bytes of an iOS app bundle (flat layout), every bundle in it sealed; nested
    bundles are signed first, as the app's seal hashes their files."""
    info = ios_info(bundle_id, name, short, build)
    if entitlements is None:
        entitlements = ios_entitlements(bundle_id, False, **{"aps-environment": "production"})
    tree = {"Info.plist": info}
    if profile_name:
        tree["embedded.mobileprovision"] = profile(profile_name)
    if nested:
        widget_info = ios_info(bundle_id + ".widget", "Widget", short, build, package="XPC!",
                               NSExtension={"NSExtensionPointIdentifier": "com.apple.widgetkit-extension"})
        nest(tree, "PlugIns/Widget.appex/", sealed_bundle(
            {"Info.plist": widget_info, "embedded.mobileprovision": profile("ios-widget-adhoc.mobileprovision")},
            "Widget", lambda seal: ios_main(name + "-widget", bundle_id + ".widget", "dist",
                                            ios_entitlements(bundle_id + ".widget"), widget_info, resources=seal)))
        kit_info = ios_info("com.example.ExampleKit", "ExampleKit", "3.1", "310", package="FMWK")
        nest(tree, "Frameworks/ExampleKit.framework/", sealed_bundle(
            {"Info.plist": kit_info}, "ExampleKit", lambda seal: Slice(
                name + "-kit", CPU_ARM64, SUB_ALL, filetype=MH_DYLIB, code_size=6000,
                signing=Signing("com.example.ExampleKit", TEAM, "dist", hashes=("sha256",), info_plist=kit_info,
                                resources=seal)).build()))
        tree["Frameworks/libExampleSupport.dylib"] = Slice(
            name + "-support", CPU_ARM64, SUB_ALL, filetype=MH_DYLIB, code_size=3000,
            signing=Signing("libExampleSupport", TEAM, "dist", hashes=("sha256",))).build()
        watch_info = ios_info(bundle_id + ".watchkitapp", name + "Watch", short, build, platforms=("WatchOS",),
                              WKApplication=True, WKCompanionAppBundleIdentifier=bundle_id)

        def watch(seal):
            signing = Signing(bundle_id + ".watchkitapp", TEAM, "dist", ios_entitlements(bundle_id + ".watchkitapp"),
                              hashes=("sha256",), info_plist=watch_info, resources=seal)
            return fat([
                Slice(name + "-watch-armv7k", CPU_ARM, SUB_ARMV7K, is64=False, platform=("watchos", "9.0", "10.0"),
                      code_size=4000, signing=signing),
                Slice(name + "-watch-arm64_32", CPU_ARM64_32, SUB_ARM64_32_V8, is64=False,
                      platform=("watchos", "9.0", "10.0"), code_size=4000, signing=signing),
            ])
        nest(tree, "Watch/%sWatch.app/" % name, sealed_bundle({"Info.plist": watch_info}, name + "Watch", watch))
        clip_info = ios_info(bundle_id + ".Clip", name + "Clip", short, build)
        nest(tree, "AppClips/%sClip.app/" % name, sealed_bundle(
            {"Info.plist": clip_info}, name + "Clip", lambda seal: ios_main(
                name + "-clip", bundle_id + ".Clip", "dist", ios_entitlements(bundle_id + ".Clip"), clip_info,
                hashes=("sha256",), resources=seal)))
    if signer == "unsigned":  # no signature, so no seal either
        tree[name] = ios_main(name, identifier or bundle_id, signer, entitlements, info, team)
        return tree
    return sealed_bundle(tree, name, lambda seal: ios_main(name, identifier or bundle_id, signer, entitlements, info,
                                                           team, resources=seal))


def mac_info(bundle_id, display, package, **extra):
    d = {"CFBundleIdentifier": bundle_id, "CFBundleShortVersionString": "9.0", "CFBundleVersion": "900",
         "CFBundleName": display, "CFBundlePackageType": package, "CFBundleExecutable": display,
         "CFBundleSupportedPlatforms": ["MacOSX"], "CFBundleInfoDictionaryVersion": "6.0",
         "LSMinimumSystemVersion": "13.0"}
    d.update(extra)
    return plistlib.dumps(d, fmt=plistlib.FMT_XML, sort_keys=True)


MAC_ENTITLEMENTS = {"com.apple.application-identifier": TEAM + ".com.example.mac",
                    "com.apple.developer.team-identifier": TEAM, "com.apple.security.app-sandbox": True,
                    "com.apple.security.network.client": True, "keychain-access-groups": [TEAM + ".com.example.mac"]}


def mac_framework(make_executable, kit_info):
    """MacKit.framework's files (relative to its folder): the version folder A sealed (its
    Resources/Info.plist), `make_executable(seal)` as Versions/A/MacKit, and the symlinks."""
    tree = sealed_bundle({"Versions/A/Resources/Info.plist": kit_info}, "MacKit", make_executable,
                         base="Versions/A/", mac=True)
    tree.update({"Versions/Current": ("symlink", "A"), "MacKit": ("symlink", "Versions/Current/MacKit"),
                 "Resources": ("symlink", "Versions/Current/Resources")})
    return tree


def mac_app(name):
    """relative path → bytes (or ("symlink", target)) of a macOS app bundle (Contents/ layout): the
    framework and the system extension signed and sealed first; the app's seal lists the framework
    by cdhash (a nested rule) and the system extension's files one by one (no rule nests
    Library/SystemExtensions/)."""
    main_info = mac_info("com.example.mac", name, "APPL")

    def mac_slices(label, identifier, filetype=MH_EXECUTE, ent=None, info_plist=None, resources=None):
        return [Slice("%s-%s" % (label, arch), cpu, sub, filetype=filetype, platform=("macos", "13.0", "14.2"),
                      code_size=8000, signing=Signing(identifier, TEAM, "dev_jane", ent, der=False, hashes=("sha256",),
                                                      info_plist=info_plist, resources=resources))
                for arch, cpu, sub in (("arm64", CPU_ARM64, SUB_ALL), ("x86_64", CPU_X86_64, SUB_X86_64_ALL))]

    kit_info = mac_info("com.example.MacKit", "MacKit", "FMWK")
    kit = mac_framework(lambda seal: fat(mac_slices(name + "-kit", "com.example.MacKit", MH_DYLIB, info_plist=kit_info,
                                                    resources=seal), is64=True), kit_info)
    filter_id = "com.example.mac.filter"
    filter_info = mac_info(filter_id, filter_id, "SYSX")
    sysx = sealed_bundle({"Contents/Info.plist": filter_info}, "MacOS/" + filter_id, lambda seal: Slice(
        name + "-filter", CPU_ARM64, SUB_ALL, platform=("macos", "13.0", "14.2"),
        signing=Signing(filter_id, TEAM, "dev_jane", {"com.apple.security.app-sandbox": True}, der=False,
                        hashes=("sha256",), info_plist=filter_info, resources=seal)).build(), base="Contents/", mac=True)
    tree = {"Contents/Info.plist": main_info,
            "Contents/embedded.provisionprofile": profile("macos-development.provisionprofile")}
    nest(tree, "Contents/Frameworks/MacKit.framework/", kit)
    nest(tree, "Contents/Library/SystemExtensions/%s.systemextension/" % filter_id, sysx)
    nested = {"Frameworks/MacKit.framework": (nested_cdhash(kit["Versions/A/MacKit"]),
                                              designated_requirement("com.example.MacKit", "dev_jane"))}
    return sealed_bundle(tree, "MacOS/" + name, lambda seal: fat(mac_slices(
        name, "com.example.mac", ent=MAC_ENTITLEMENTS, info_plist=main_info, resources=seal)),
        base="Contents/", mac=True, nested=nested)


def write_tree(root, tree):
    for relative in sorted(tree):
        path = os.path.join(root, relative)
        data = tree[relative]
        if isinstance(data, tuple):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            os.symlink(data[1], path)
        else:
            write(path, data)


def zinfo(name, compress):
    zi = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    zi.compress_type = compress
    zi.create_system = 3
    zi.external_attr = ((0o40755 if name.endswith("/") else 0o100755) << 16) | (0x10 if name.endswith("/") else 0)
    return zi


def signed_ipa_stores(relative):
    """Signed.ipa keeps the framework's executable and the Info.plist stored (read in place)."""
    return relative.endswith(".framework/ExampleKit") or relative == "Info.plist"


def write_ipa(path, app_name, tree, stored=signed_ipa_stores):
    """An IPA of `tree` as Payload/APP/: directory entries, files deflated unless `stored(relative)`."""
    prefix = "Payload/%s.app/" % app_name
    names = set()
    for relative in tree:
        parts = (prefix + relative).split("/")
        for i in range(1, len(parts)):
            names.add("/".join(parts[:i]) + "/")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        for name in sorted(names):
            z.writestr(zinfo(name, zipfile.ZIP_STORED), b"")
        for relative in sorted(tree):
            z.writestr(zinfo(prefix + relative, zipfile.ZIP_STORED if stored(relative) else zipfile.ZIP_DEFLATED),
                       tree[relative])


def dsym(label, uuid_label, cputype=CPU_ARM64, bundle_id="com.example.app"):
    """A dSYM bundle's files (relative to X.dSYM/): its Info.plist and the DWARF Mach-O."""
    info = plistlib.dumps({"CFBundleIdentifier": "com.apple.xcode.dsym." + bundle_id, "CFBundlePackageType": "dSYM",
                           "CFBundleInfoDictionaryVersion": "6.0", "CFBundleShortVersionString": "1.0",
                           "CFBundleVersion": "1"}, fmt=plistlib.FMT_XML, sort_keys=True)
    return info, Slice(label + "-dsym", cputype, SUB_ALL, filetype=MH_DSYM, uuid=seeded_uuid(uuid_label),
                       code_size=3000).build()


def archive(root, app_name, tree, short="9.0", build="900", kit=("ExampleKit", "com.example.ExampleKit")):
    write(os.path.join(root, "Info.plist"), plistlib.dumps({
        "ApplicationProperties": {"ApplicationPath": "Applications/%s.app" % app_name, "Architectures": ["arm64"],
                                  "CFBundleIdentifier": "com.example.app", "CFBundleShortVersionString": short,
                                  "CFBundleVersion": build,
                                  "SigningIdentity": "Apple Distribution: Example Corp (TEAM123456)", "Team": TEAM},
        "ArchiveVersion": 2, "CreationDate": datetime.datetime(2026, 3, 1, 9, 0, 0),
        "Name": app_name, "SchemeName": app_name}, fmt=plistlib.FMT_XML, sort_keys=True))
    write_tree(os.path.join(root, "Products", "Applications", app_name + ".app"), tree)
    # The dSYMs share the UUIDs of the binaries they describe (the slices' seeded labels).
    kit_name, kit_id = kit
    for bundle, binary, uuid_label, bundle_id in (
            ("%s.app.dSYM" % app_name, app_name, app_name, "com.example.app"),
            ("%s.framework.dSYM" % kit_name, kit_name, app_name + "-kit", kit_id)):
        info, data = dsym(bundle, uuid_label, bundle_id=bundle_id)
        base = os.path.join(root, "dSYMs", bundle, "Contents")
        write(os.path.join(base, "Info.plist"), info)
        write(os.path.join(base, "Resources", "DWARF", binary), data)


# ---------------------------------------------------------------------------------------------
# Integrity fixtures (integrity/): one good signed bundle and its broken variants

INTEGRITY = os.path.join(HERE, "integrity")
# A byte in page 1 of an executable's code (its __text starts in page 0 and runs past page 2).
CODE_BYTE = (1 << PAGE_LOG2) + 0x123


def seeded_bytes(label, n):
    rnd = random.Random("catalog-integrity-" + label)
    return bytes(rnd.getrandbits(8) for _ in range(n))


def good_app(main_signer="dist", der_form="wrapped", der_entitlements=None, kit_entitlements=None):
    """Good.app's files: com.example.app 9.1 (910) signed by `dist` with the ios-adhoc profile, resources
    (one optional .lproj file), Frameworks/GoodKit.framework and PlugIns/Widget.appex (ios-widget-adhoc),
    each bundle sealed as Xcode seals iOS bundles. The arguments make the variants that are signed
    otherwise (not tampered after signing): the main executable's signer, the DER entitlements' form
    (every bundle's) and content (the main executable's), the framework's entitlements."""
    info = ios_info("com.example.app", "Good", "9.1", "910", LSRequiresIPhoneOS=True)
    entitlements = ios_entitlements("com.example.app", False, **{"aps-environment": "production"})
    if der_form == "bare":  # a re-signing tool's key order: not sorted
        entitlements = dict(reversed(list(entitlements.items())))
    tree = {"Info.plist": info, "PkgInfo": b"APPL????",
            "embedded.mobileprovision": profile("ios-adhoc.mobileprovision"),
            "Assets.car": b"BOMStore" + seeded_bytes("assets", 6000),
            "AppIcon60x60@2x.png": b"\x89PNG\r\n\x1a\n" + seeded_bytes("icon", 1500),
            "Base.lproj/LaunchScreen.storyboardc/Info.plist": plistlib.dumps(
                {"UIStoryboardDesignatedEntryPointIdentifier": "UIViewController-01J-lp-oVM",
                 "UIViewControllerIdentifiersToNibNames": {"UIViewController-01J-lp-oVM": "UIViewController-01J-lp-oVM"}},
                fmt=plistlib.FMT_BINARY),
            "Base.lproj/LaunchScreen.storyboardc/01J-lp-oVM-view-Ze5-6b-2t3.nib": seeded_bytes("nib", 800),
            "en.lproj/Localizable.strings": b'"greeting" = "Hello";\n"farewell" = "Goodbye";\n'}
    widget_info = ios_info("com.example.app.widget", "Widget", "9.1", "910", package="XPC!",
                           NSExtension={"NSExtensionPointIdentifier": "com.apple.widgetkit-extension"})
    widget_entitlements = ios_entitlements("com.example.app.widget")
    if der_form == "bare":
        widget_entitlements = dict(reversed(list(widget_entitlements.items())))
    nest(tree, "PlugIns/Widget.appex/", sealed_bundle(
        {"Info.plist": widget_info, "embedded.mobileprovision": profile("ios-widget-adhoc.mobileprovision"),
         "en.lproj/Widget.strings": b'"title" = "Good";\n'},
        "Widget", lambda seal: ios_main("Good-widget", "com.example.app.widget", "dist", widget_entitlements,
                                        widget_info, resources=seal, der_form=der_form)))
    kit_info = ios_info("com.example.GoodKit", "GoodKit", "1.0", "100", package="FMWK")
    nest(tree, "Frameworks/GoodKit.framework/", sealed_bundle(
        {"Info.plist": kit_info}, "GoodKit", lambda seal: Slice(
            "Good-kit", CPU_ARM64, SUB_ALL, filetype=MH_DYLIB,
            signing=Signing("com.example.GoodKit", TEAM, "dist", kit_entitlements, hashes=("sha256",),
                            info_plist=kit_info, resources=seal, der_form=der_form)).build()))
    return sealed_bundle(tree, "Good", lambda seal: ios_main(
        "Good", "com.example.app", main_signer, entitlements, info, resources=seal, der_form=der_form,
        der_entitlements=der_entitlements))


def flip(data, at, mask=0x01):
    out = bytearray(data)
    out[at] ^= mask
    return bytes(out)


def tampered(tree, **changes):
    """A copy of `tree` with files replaced (bytes) or removed (None) after signing."""
    out = dict(tree)
    for path, data in changes.items():
        if data is None:
            del out[path]
        else:
            out[path] = data
    return out


def cms_signature_flipped(macho):
    """`macho` (thin) with the last byte of its CMS signature value XOR 0xFF."""
    offset, wrapper = first_slice_blobs(macho)[0x10000]
    signed_data = der.signed_data(der.parse(wrapper, 8))
    signature = signed_data.children[-1].children[0].children[-1]  # signerInfos → SignerInfo → signature
    assert signature.tag == 0x04 and len(signature.content) == 256
    return flip(macho, offset + signature.end - 1, 0xFF)


def xml_entitlements_reindented(macho):
    """`macho` (thin) with its XML entitlements blob changed, same length and same meaning: the
    first key's indenting tab becomes a space."""
    offset, entitlements = first_slice_blobs(macho)[5]
    at = entitlements.index(b"\t<key>")
    out = bytearray(macho)
    out[offset + at:offset + at + 1] = b" "
    return bytes(out)


def good_mac(kit_patch=None):
    """GoodMac.app's files (Contents/ layout), signed by dev_jane with macos-development: thin arm64
    executables, Resources/ with a symlink, MacKit.framework sealed in the app's CodeResources by
    cdhash. With `kit_patch`, the framework in the tree has that code byte changed and is signed
    again (a valid signature of its own), while the app's seal keeps the original's cdhash."""
    main_info = mac_info("com.example.mac", "GoodMac", "APPL", CFBundleShortVersionString="9.1", CFBundleVersion="910")
    kit_info = mac_info("com.example.MacKit", "MacKit", "FMWK")

    def kit(patch):
        return mac_framework(lambda seal: Slice(
            "GoodMac-kit", CPU_ARM64, SUB_ALL, filetype=MH_DYLIB, platform=("macos", "13.0", "14.2"), code_patch=patch,
            signing=Signing("com.example.MacKit", TEAM, "dev_jane", hashes=("sha256",), info_plist=kit_info,
                            resources=seal)).build(), kit_info)

    original = kit(None)
    tree = {"Contents/Info.plist": main_info, "Contents/PkgInfo": b"APPL????",
            "Contents/embedded.provisionprofile": profile("macos-development.provisionprofile"),
            "Contents/Resources/AppIcon.icns": b"icns" + seeded_bytes("mac-icon", 2000),
            "Contents/Resources/Base.lproj/MainMenu.nib": seeded_bytes("mac-nib", 900),
            "Contents/Resources/en.lproj/InfoPlist.strings": b'"CFBundleName" = "GoodMac";\n',
            "Contents/Resources/Icon.icns": ("symlink", "AppIcon.icns")}
    nest(tree, "Contents/Frameworks/MacKit.framework/", kit(kit_patch) if kit_patch else original)
    nested = {"Frameworks/MacKit.framework": (nested_cdhash(original["Versions/A/MacKit"]),
                                              designated_requirement("com.example.MacKit", "dev_jane"))}
    return sealed_bundle(tree, "MacOS/GoodMac", lambda seal: Slice(
        "GoodMac", CPU_ARM64, SUB_ALL, platform=("macos", "13.0", "14.2"),
        signing=Signing("com.example.mac", TEAM, "dev_jane", MAC_ENTITLEMENTS, hashes=("sha256",), info_plist=main_info,
                        resources=seal)).build(), base="Contents/", mac=True, nested=nested)


def problem(code, executable, **detail):
    return dict(code=code, executable=executable, **detail)


def integrity():
    """Writes integrity/ and integrity/expected.json: each fixture's problems beyond what the fixture
    CA causes (trusted as an extra anchor, every one of them is clean but for these)."""
    shutil.rmtree(INTEGRITY, ignore_errors=True)
    good = good_app()
    main, kit = "Good", "Frameworks/GoodKit.framework/GoodKit"
    apps = {
        "Good": (good, []),
        "CodeModified": (tampered(good, Good=flip(good[main], CODE_BYTE)),
                         [problem("code-modified", main, page=1)]),
        "InfoPlistModified": (tampered(good, **{"Info.plist": ios_info("com.example.app", "Good", "9.1", "910",
                                                                        LSRequiresIPhoneOS=False)}),
                              [problem("info-plist-modified", main)]),
        "ResourceModified": (tampered(good, **{"Assets.car": flip(good["Assets.car"], 100)}),
                             [problem("resource-modified", main, path="Assets.car")]),
        "ResourceMissing": (tampered(good, **{"AppIcon60x60@2x.png": None}),
                            [problem("resource-missing", main, path="AppIcon60x60@2x.png")]),
        "ResourceAdded": (tampered(good, **{"Added.png": b"\x89PNG\r\n\x1a\n" + seeded_bytes("added", 700)}),
                          [problem("resource-added", main, path="Added.png")]),
        "FrameworkModified": (tampered(good, **{kit: flip(good[kit], CODE_BYTE)}),
                              [problem("code-modified", kit, page=1),
                               problem("resource-modified", main, path=kit)]),
        "SealModified": (tampered(good, **{"_CodeSignature/CodeResources": good["_CodeSignature/CodeResources"].replace(
                             b'<plist version="1.0">\n', b'<plist version="1.0">\n\n', 1)}),
                         [problem("resources-seal-modified", main)]),
        "SelfSigned": (good_app(main_signer=SelfSignedIdentity()),
                       [problem("certificate-not-apple", main), problem("certificate-not-in-profile", main)]),
        "SignatureInvalid": (tampered(good, Good=cms_signature_flipped(good[main])),
                             [problem("signature-invalid", main)]),
        "BareSetEntitlements": (good_app(der_form="bare", kit_entitlements={
            "com.example.goodkit.options": {"retries": 3, "verbose": False,
                                            "hosts": ["a.example.com", "b.example.com"],
                                            "limits": {"upload": 1048576, "download": 8388608}},
            "com.apple.developer.team-identifier": TEAM,
            "com.example.goodkit.level": 2}), []),
        "EntitlementsMismatch": (good_app(der_entitlements=ios_entitlements(
            "com.example.app", False, **{"aps-environment": "production",
                                         "keychain-access-groups": [TEAM + ".com.example.shared"]})),
                                 [problem("entitlements-mismatch", main)]),
        "EntitlementsModified": (tampered(good, Good=xml_entitlements_reindented(good[main])),
                                 [problem("entitlements-modified", main)]),
    }
    expected = {}
    for name, (tree, problems) in apps.items():
        write_tree(os.path.join(INTEGRITY, name + ".app"), tree)
        expected[name + ".app"] = problems
    for name in ("Good", "CodeModified"):
        write_ipa(os.path.join(INTEGRITY, name + ".ipa"), "Good", apps[name][0], stored=lambda _: False)
        expected[name + ".ipa"] = [dict(p, executable="Payload/Good.app/" + p["executable"]) for p in apps[name][1]]
    archive(os.path.join(INTEGRITY, "Good.xcarchive"), "Good", good, short="9.1", build="910",
            kit=("GoodKit", "com.example.GoodKit"))
    expected["Good.xcarchive"] = []
    write_tree(os.path.join(INTEGRITY, "GoodMac.app"), good_mac())
    expected["GoodMac.app"] = []
    write_tree(os.path.join(INTEGRITY, "NestedModifiedMac.app"), good_mac(kit_patch=(CODE_BYTE, 0x01)))
    expected["NestedModifiedMac.app"] = [problem("nested-code-modified", "Contents/MacOS/GoodMac",
                                                 path="Frameworks/MacKit.framework")]
    notes = ("Written by Fixtures/scripts/make_codesign.py and checked by check_integrity.py. fixtures: each build "
             "under integrity/ → the problems it gives beyond what the fixture CA causes, with certs/ca.pem trusted "
             "as an extra anchor (without it, every signed executable also gives certificate-not-apple) at as_of. "
             "One entry per (code, executable): executable is the path inside the build (relative to the .app "
             "folder; Payload/… in an .ipa); path names the file (relative to the seal's base: the iOS bundle "
             "root, or Contents/ of a macOS app) and page the first bad code page (4 KiB pages).")
    write(os.path.join(INTEGRITY, "expected.json"), (json.dumps(
        {"notes": notes, "as_of": "2026-09-01T00:00:00Z", "trust_anchor": "Fixtures/certs/ca.pem",
         "fixtures": dict(sorted(expected.items()))}, indent=2, ensure_ascii=False) + "\n").encode())


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    good = binaries()
    for name, data in good.items():
        write(os.path.join(MACHO, name), data)
    for name, data in malformed(good).items():
        write(os.path.join(MACHO, "malformed", name), data)

    signed = ios_app("Signed", nested=True)
    write_tree(os.path.join(OUT, "Signed.app"), signed)
    write_ipa(os.path.join(OUT, "Signed.ipa"), "Signed", signed)
    archive(os.path.join(OUT, "Signed.xcarchive"), "Signed", signed)
    write_tree(os.path.join(OUT, "SignedMac.app"), mac_app("SignedMac"))

    problems = {
        "Unsigned": dict(signer="unsigned"),
        "AdHoc": dict(signer=None),
        "NoProfile": dict(profile_name=None),
        "WrongCertificate": dict(signer="dev_jane"),
        "OtherTeam": dict(bundle_id="com.example.enterprise", profile_name="ios-enterprise.mobileprovision",
                          signer="ent_dist",
                          entitlements=ios_entitlements("com.example.enterprise", team="ENTRP12345")),
        "WrongBundleID": dict(bundle_id="com.example.other",
                              entitlements=ios_entitlements("com.example.app", **{"aps-environment": "production"})),
        "ExtraEntitlements": dict(entitlements=ios_entitlements("com.example.app", **{
            "aps-environment": "development", "com.apple.developer.icloud-services": ["CloudKit"]})),
        "ExpiredProfile": dict(bundle_id="com.example.expired", profile_name="wildcard.mobileprovision",
                               signer="dev_jane", entitlements=ios_entitlements("com.example.expired", True)),
        "ExpiredCertificate": dict(bundle_id="com.example.early", profile_name="cert-expires-first.mobileprovision",
                                   signer="old_b", entitlements=ios_entitlements("com.example.early", True)),
        "Debuggable": dict(entitlements=ios_entitlements("com.example.app", True, **{"aps-environment": "production"})),
    }
    for name, options in problems.items():
        write_tree(os.path.join(OUT, name + ".app"), ios_app(name, **options))
    integrity()


if __name__ == "__main__":
    main()
