#!/usr/bin/env python3
"""Re-derive, from the written files alone, what every build under Fixtures/integrity/ and
Fixtures/codesign/ breaks, and fail unless it is exactly what it should be.

Shares no code with make_codesign.py or der.py (python3 stdlib, and the openssl CLI for RSA and
X.509): its own Mach-O, SuperBlob, BER, DER-entitlements and seal readers. For each build (an .app
folder, an .ipa read from the zip, an .xcarchive's app), every bundle with a seal and every other
Mach-O inside it is checked as its own code:
- each CodeDirectory (SHA-1 and SHA-256) of each slice: code slots against the page hashes
  (pageSize, codeLimit/codeLimit64), special slots −1 (the bundle's Info.plist), −2 (requirements
  blob), −3 (`_CodeSignature/CodeResources`), −4 (the wrapper's payload), −5 and −7 (entitlements
  blobs); XML against DER entitlements (both DER forms: [APPLICATION 16] and a bare SET);
- the CMS blob: messageDigest = SHA-256 of the slot-0 CodeDirectory, Apple's CDHashes attributes
  (1.2.840.113635.100.9.1 and .2) against every CodeDirectory, the signature over the signed
  attributes with the signer's key (`openssl dgst -verify`), the signer's chain to certs/ca.pem at
  the signing time (`openssl verify`), and the signer among the embedded profile's certificates;
- the seal: files2 (hash2, else hash; symlinks; nested code's cdhash) against the files, rules2
  (highest weight wins, omit wins a tie) for files the seal should list and does not.
integrity/expected.json says what each integrity fixture must give; the codesign/ builds must give
nothing but their own signing problem where it is one of these (unsigned, ad-hoc,
certificate-not-in-profile). Exit 1 with the differences otherwise.
"""

import datetime
import hashlib
import json
import os
import plistlib
import struct
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # Fixtures/
CA = os.path.join(HERE, "certs", "ca.pem")
WORK = tempfile.mkdtemp(prefix="catalog-check-integrity-")
MACHO_MAGICS = (b"\xca\xfe\xba\xbe", b"\xca\xfe\xba\xbf", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe",
                b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf")
SEAL = "_CodeSignature/CodeResources"
# What codesign/ builds give here (their other signing problems are profile checks, not read here).
CODESIGN_EXPECTED = {"Unsigned.app": [("unsigned", "Unsigned")], "AdHoc.app": [("ad-hoc", "AdHoc")],
                     "WrongCertificate.app": [("certificate-not-in-profile", "WrongCertificate")]}


def openssl(args, data=None):
    r = subprocess.run(["openssl"] + args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, r.stdout


def scratch(name, data):
    path = os.path.join(WORK, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


# ---------------------------------------------------------------------------------------------
# Builds as path → bytes (or ("symlink", target))


def load(path):
    """(files, app root) of a build: an .app folder, an .ipa, or an .xcarchive."""
    files = {}
    if path.endswith(".ipa"):
        with zipfile.ZipFile(path) as z:
            for name in z.namelist():
                if not name.endswith("/"):
                    files[name] = z.read(name)
        apps = sorted({n[:n.index(".app/") + 5] for n in files if n.startswith("Payload/") and ".app/" in n}, key=len)
        return files, apps[0]
    for folder, dirs, names in os.walk(path):
        for name in names + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            full = os.path.join(folder, name)
            relative = os.path.relpath(full, path).replace(os.sep, "/")
            if os.path.islink(full):
                files[relative] = ("symlink", os.readlink(full))
            else:
                with open(full, "rb") as f:
                    files[relative] = f.read()
    if path.endswith(".xcarchive"):
        info = plistlib.loads(files["Info.plist"])
        return files, "Products/" + info["ApplicationProperties"]["ApplicationPath"] + "/"
    return files, ""


def resolve(files, path):
    """`path` with the symlinks among its folders followed (targets relative to their folder)."""
    parts = path.split("/")
    for i in range(1, len(parts)):
        prefix = "/".join(parts[:i])
        entry = files.get(prefix)
        if isinstance(entry, tuple):
            target = os.path.normpath(os.path.join(os.path.dirname(prefix), entry[1])).replace(os.sep, "/")
            return resolve(files, target + "/" + "/".join(parts[i:]))
    return path


# ---------------------------------------------------------------------------------------------
# BER (definite and indefinite lengths)


class Node:
    def __init__(self, data, at):
        self.start, self.tag = at, data[at]
        first, pos = data[at + 1], at + 2
        if first == 0x80:
            length = None
        elif first & 0x80:
            length = int.from_bytes(data[pos:pos + (first & 0x7F)], "big")
            pos += first & 0x7F
        else:
            length = first
        self.body = pos
        self.children = []
        if self.tag & 0x20:
            while (pos < self.body + length) if length is not None else data[pos:pos + 2] != b"\0\0":
                child = Node(data, pos)
                self.children.append(child)
                pos = child.end
            self.end = pos if length is not None else pos + 2
        else:
            self.end = pos + length
        self.content = data[self.body:self.end]
        self.raw = data[at:self.end]


def oid_text(content):
    parts, value = [content[0] // 40, content[0] % 40], 0
    for b in content[1:]:
        value = value << 7 | (b & 0x7F)
        if not b & 0x80:
            parts.append(value)
            value = 0
    return ".".join(map(str, parts))


def typed(v):
    """A plist value with its type kept (True is not 1 here)."""
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int):
        return ("int", v)
    if isinstance(v, str):
        return ("str", v)
    if isinstance(v, list):
        return ("array", [typed(x) for x in v])
    if isinstance(v, dict):
        return ("dict", {k: typed(x) for k, x in v.items()})
    return ("other", repr(v))


def der_plist(node, data):
    """A DER entitlements value: BOOLEAN, INTEGER, UTF8String, SEQUENCE (array), SET or
    [CONTEXT 16] of SEQUENCE { key, value } (dictionary)."""
    if node.tag == 0x01:
        return ("bool", node.content != b"\0")
    if node.tag == 0x02:
        return ("int", int.from_bytes(node.content, "big", signed=True))
    if node.tag == 0x0C:
        return ("str", node.content.decode())
    if node.tag == 0x30:
        return ("array", [der_plist(c, data) for c in node.children])
    if node.tag in (0x31, 0xB0):
        return ("dict", {pair.children[0].content.decode(): der_plist(pair.children[1], data) for pair in node.children})
    raise ValueError("DER entitlements: tag %02x" % node.tag)


def der_entitlements(payload):
    root = Node(payload, 0)
    if root.tag == 0x70:  # [APPLICATION 16] { INTEGER 1, [CONTEXT 16] dict }
        return der_plist(root.children[1], payload)
    if root.tag == 0x31:  # bare SET of SEQUENCE { key, value }
        return der_plist(root, payload)
    raise ValueError("DER entitlements: outer tag %02x" % root.tag)


# ---------------------------------------------------------------------------------------------
# Mach-O code signatures


def slices(data):
    if data[:4] in (b"\xca\xfe\xba\xbe", b"\xca\xfe\xba\xbf"):
        is64, out = data[3] == 0xBF, []
        for i in range(struct.unpack_from(">I", data, 4)[0]):
            if is64:
                _, _, offset, size = struct.unpack_from(">IIQQ", data, 8 + 32 * i)
            else:
                _, _, offset, size = struct.unpack_from(">IIII", data, 8 + 20 * i)
            out.append(data[offset:offset + size])
        return out
    return [data]


def superblob(thin):
    """slot → blob of a thin slice's code signature, or None when it has none."""
    e = ">" if thin[:4] in (b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf") else "<"
    magic, ncmds = struct.unpack_from(e + "I", thin, 0)[0], struct.unpack_from(e + "I", thin, 16)[0]
    at = 32 if magic == 0xFEEDFACF else 28
    for _ in range(ncmds):
        cmd, size = struct.unpack_from(e + "II", thin, at)
        if cmd == 0x1D:
            dataoff, datasize = struct.unpack_from(e + "II", thin, at + 8)
            blob = thin[dataoff:dataoff + datasize]
            count = struct.unpack_from(">I", blob, 8)[0]
            out = {}
            for i in range(count):
                slot, offset = struct.unpack_from(">II", blob, 12 + 8 * i)
                out[slot] = blob[offset:offset + struct.unpack_from(">I", blob, offset + 4)[0]]
            return out
        at += size
    return None


def directories(blobs):
    return [blobs[s] for s in sorted(blobs) if s == 0 or 0x1000 <= s < 0x1005]


def hash_fn(cd):
    return {1: hashlib.sha1, 2: hashlib.sha256}[cd[37]]


def cdhash(cd):
    return hash_fn(cd)(cd).digest()


def nested_cdhash(macho):
    cds = directories(superblob(slices(macho)[0]))
    return cdhash(next((c for c in cds if c[37] == 2), cds[0]))[:20]


def check_directory(thin, cd, bound, problems, executable):
    """Code slots and special slots of one CodeDirectory. `bound`: special slot → bytes it must hash
    (None where the thing is absent)."""
    version, _, hash_offset, _, n_special, n_code, code_limit = struct.unpack_from(">IIIIIII", cd, 8)
    hash_size, page_log2 = cd[36], cd[39]
    if version >= 0x20300 and struct.unpack_from(">Q", cd, 56)[0]:
        code_limit = struct.unpack_from(">Q", cd, 56)[0]
    fn = hash_fn(cd)
    page = 1 << page_log2 if page_log2 else code_limit
    for i in range(n_code):
        slot = cd[hash_offset + i * hash_size:hash_offset + (i + 1) * hash_size]
        if fn(thin[i * page:min((i + 1) * page, code_limit)]).digest() != slot:
            problems.add(("code-modified", executable, ("page", i)))
            break
    codes = {1: "info-plist-modified", 2: "signature-invalid", 3: "resources-seal-modified", 4: "signature-invalid",
             5: "entitlements-modified", 7: "entitlements-modified"}
    for k in range(1, n_special + 1):
        slot = cd[hash_offset - k * hash_size:hash_offset - (k - 1) * hash_size]
        if slot == b"\0" * hash_size or k not in codes:
            continue
        if bound.get(k) is None or fn(bound[k]).digest() != slot:
            problems.add((codes[k], executable, None))


CHECKED = {}


def openssl_checks(leaf, signed_attributes, signature, when):
    """(signature verifies with the leaf's key, the leaf chains to certs/ca.pem at `when`)."""
    key = (leaf, signed_attributes, signature, when)
    if key not in CHECKED:
        leaf_path = scratch("leaf.der", leaf)
        _, pem = openssl(["x509", "-inform", "DER", "-in", leaf_path])
        pem_path = scratch("leaf.pem", pem)
        _, public = openssl(["x509", "-in", pem_path, "-pubkey", "-noout"])
        rc, out = openssl(["dgst", "-sha256", "-verify", scratch("public.pem", public), "-signature",
                           scratch("signature.bin", signature), scratch("attributes.der", signed_attributes)])
        verified = rc == 0 and b"Verified OK" in out
        rc, out = openssl(["verify", "-CAfile", CA, "-attime", str(int(when.timestamp())), pem_path])
        CHECKED[key] = (verified, rc == 0 and out.strip().endswith(b": OK"))
    return CHECKED[key]


def check_cms(wrapper, cds, problems, executable):
    """The CMS blob over the CodeDirectories; returns the signer's certificate (None: ad hoc)."""
    if not wrapper:
        problems.add(("ad-hoc", executable, None))
        return None
    content_info = Node(wrapper, 0)
    signed_data = content_info.children[1].children[0]
    certificates = next(c for c in signed_data.children if c.tag == 0xA0).children
    signer = signed_data.children[-1].children[0]
    sid = signer.children[1]
    attrs_node = next(c for c in signer.children if c.tag == 0xA0)
    signature = signer.children[-1].content
    attrs = {}
    for attr in attrs_node.children:
        attrs[oid_text(attr.children[0].content)] = attr.children[1].children
    ok = True
    ok &= attrs["1.2.840.113549.1.9.4"][0].content == hashlib.sha256(cds[0]).digest()
    ok &= oid_text(attrs["1.2.840.113549.1.9.3"][0].content) == "1.2.840.113549.1.7.1"
    if "1.2.840.113635.100.9.1" in attrs:
        listed = plistlib.loads(attrs["1.2.840.113635.100.9.1"][0].content)["cdhashes"]
        ok &= listed == [cdhash(cd)[:20] for cd in cds]
    if "1.2.840.113635.100.9.2" in attrs:
        names = {"1.3.14.3.2.26": 1, "2.16.840.1.101.3.4.2.1": 2}
        pairs = {(names[oid_text(v.children[0].content)], v.children[1].content) for v in attrs["1.2.840.113635.100.9.2"]}
        ok &= pairs == {(cd[37], cdhash(cd)) for cd in cds}
    when = datetime.datetime.strptime(attrs["1.2.840.113549.1.9.5"][0].content.decode(), "%y%m%d%H%M%SZ").replace(
        tzinfo=datetime.timezone.utc)

    def issuer_serial(cert):
        tbs = Node(cert, 0).children[0]
        fields = tbs.children[1:] if tbs.children[0].tag == 0xA0 else tbs.children
        return fields[2].raw, fields[0].raw

    leaf = next(c.raw for c in certificates if issuer_serial(c.raw) == (sid.children[0].raw, sid.children[1].raw))
    verified, chained = openssl_checks(leaf, b"\x31" + attrs_node.raw[1:], signature, when)
    if not (ok and verified):
        problems.add(("signature-invalid", executable, None))
    if not chained:
        problems.add(("certificate-not-apple", executable, None))
    return leaf


def profile_certificates(data):
    rc, out = openssl(["cms", "-verify", "-noverify", "-inform", "DER", "-in", scratch("profile.der", data)])
    return plistlib.loads(out).get("DeveloperCertificates", []) if rc == 0 else []


def check_code(data, executable, problems, info=None, seal=None, profile=None):
    """One Mach-O as its own code: every slice's CodeDirectories, entitlements and CMS."""
    for thin in slices(data):
        blobs = superblob(thin)
        if blobs is None:
            problems.add(("unsigned", executable, None))
            continue
        cds = directories(blobs)
        bound = {1: info, 2: blobs.get(2), 3: seal, 4: blobs[4][8:] if 4 in blobs else None, 5: blobs.get(5),
                 7: blobs.get(7)}
        for cd in cds:
            check_directory(thin, cd, bound, problems, executable)
        if 5 in blobs and 7 in blobs:
            if typed(plistlib.loads(blobs[5][8:])) != der_entitlements(blobs[7][8:]):
                problems.add(("entitlements-mismatch", executable, None))
        leaf = check_cms(blobs.get(0x10000, b"\0" * 8)[8:], cds, problems, executable)
        if leaf is not None and profile is not None and leaf not in profile_certificates(profile):
            problems.add(("certificate-not-in-profile", executable, None))


# ---------------------------------------------------------------------------------------------
# Resource seals


def best_rule(rules, path):
    import re
    best = None
    for pattern, value in rules.items():
        if re.search(pattern, path):
            rule = value if isinstance(value, dict) else {}
            weight = rule.get("weight", 1)
            if best is None or weight > best[0] or (weight == best[0] and rule.get("omit") and not best[1].get("omit")):
                best = (weight, rule)
    return best[1] if best else None


def bundle_executable(files, folder):
    """(Info.plist path, executable path) of the bundle at `folder` (…/), following symlinks."""
    for info, exe_folder in (("Contents/Info.plist", "Contents/MacOS/"), ("Resources/Info.plist", ""),
                             ("Info.plist", "")):
        path = resolve(files, folder + info)
        if isinstance(files.get(path), bytes):
            name = plistlib.loads(files[path])["CFBundleExecutable"]
            base = path[:-len(info)] if info != "Resources/Info.plist" else path[:-len(info)]
            return path, resolve(files, base + exe_folder + name)
    return None, None


def check_seal(files, base, executable_rel, executable, problems):
    seal = plistlib.loads(files[base + SEAL])
    listed, rules2 = seal["files2"], seal["rules2"]
    for path, entry in listed.items():
        full = base + path
        actual = files.get(full)
        if "cdhash" in entry:
            _, exe = bundle_executable(files, full + "/")
            if exe is None or exe not in files:
                problems.add(("resource-missing", executable, ("path", path)))
            elif nested_cdhash(files[exe]) != entry["cdhash"]:
                problems.add(("nested-code-modified", executable, ("path", path)))
        elif actual is None:
            if not entry.get("optional"):
                problems.add(("resource-missing", executable, ("path", path)))
        elif "symlink" in entry:
            if actual != ("symlink", entry["symlink"]):
                problems.add(("resource-modified", executable, ("path", path)))
        elif isinstance(actual, tuple):
            problems.add(("resource-modified", executable, ("path", path)))
        else:
            ok = (hashlib.sha256(actual).digest() == entry["hash2"]) if "hash2" in entry else \
                (hashlib.sha1(actual).digest() == entry["hash"])
            if not ok:
                problems.add(("resource-modified", executable, ("path", path)))
    for full in files:
        if not full.startswith(base):
            continue
        path = full[len(base):]
        if path == executable_rel or path.startswith("_CodeSignature/") or path in listed:
            continue
        parts = path.split("/")
        nested = next(("/".join(parts[:i]) for i in range(1, len(parts))
                       if "." in parts[i - 1] and (best_rule(rules2, "/".join(parts[:i])) or {}).get("nested")), None)
        if nested is not None:
            if nested not in listed:
                problems.add(("resource-added", executable, ("path", nested)))
            continue
        rule = best_rule(rules2, path)
        if rule is not None and not rule.get("omit"):
            problems.add(("resource-added", executable, ("path", path)))


# ---------------------------------------------------------------------------------------------
# Builds


def check_build(path):
    files, app = load(path)
    problems = set()
    bases = sorted({p[:-len(SEAL)] for p in files if p.startswith(app) and p.endswith(SEAL)})
    if not bases:  # an unsigned app has no seal: its executable is still checked
        bases = [app + "Contents/" if app + "Contents/Info.plist" in files else app]
    executables = set()
    for base in bases:
        folder = base[:-len("Contents/")] if base.endswith("Contents/") else base
        info_path, exe = bundle_executable(files, folder)
        if exe is None or exe not in files:
            continue
        executables.add(exe)
        executable = exe[len(app):] if path.endswith(".app") else exe
        profile = files.get(base + "embedded.mobileprovision") or files.get(base + "embedded.provisionprofile")
        check_code(files[exe], executable, problems, info=files.get(info_path), seal=files.get(base + SEAL),
                   profile=profile)
        if base + SEAL in files:
            check_seal(files, base, exe[len(base):], executable, problems)
    for other in sorted(files):  # Mach-O files that are no bundle's executable (dylibs)
        data = files[other]
        if other.startswith(app) and other not in executables and isinstance(data, bytes) and data[:4] in MACHO_MAGICS:
            check_code(data, other[len(app):] if path.endswith(".app") else other, problems)
    return problems


def as_entries(problems):
    out = []
    for code, executable, detail in sorted(problems, key=lambda p: (p[1], p[0], str(p[2]))):
        entry = {"code": code, "executable": executable}
        if detail:
            entry[detail[0]] = detail[1]
        out.append(entry)
    return out


def main():
    failures = []
    integrity = os.path.join(HERE, "integrity")
    with open(os.path.join(integrity, "expected.json")) as f:
        expected = json.load(f)["fixtures"]
    found = sorted(n for n in os.listdir(integrity) if n.endswith((".app", ".ipa", ".xcarchive")))
    if found != sorted(expected):
        failures.append("integrity/: builds %s, expected.json lists %s" % (found, sorted(expected)))
    key = lambda e: (e["executable"], e["code"], json.dumps(e, sort_keys=True))  # noqa: E731
    for name in found:
        got = as_entries(check_build(os.path.join(integrity, name)))
        if sorted(got, key=key) != sorted(expected.get(name, []), key=key):
            failures.append("integrity/%s: found %s, expected %s" % (name, got, expected.get(name)))
    codesign = os.path.join(HERE, "codesign")
    for name in sorted(n for n in os.listdir(codesign) if n.endswith((".app", ".ipa", ".xcarchive"))):
        got = sorted((e["code"], e["executable"].split("/")[-1]) for e in as_entries(check_build(os.path.join(codesign, name))))
        if got != sorted(CODESIGN_EXPECTED.get(name, [])):
            failures.append("codesign/%s: found %s" % (name, got))
    if failures:
        print("check_integrity.py: FAILED\n  " + "\n  ".join(failures), file=sys.stderr)
        return 1
    print("check_integrity.py: %d integrity/ builds give exactly their problems; codesign/ builds are intact"
          % len(found))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        import shutil
        shutil.rmtree(WORK, ignore_errors=True)
