#!/usr/bin/env python3
"""Compute Fixtures/expected.json from the generated files alone, independently of both the Swift
decoder and the generator scripts: `openssl cms -verify -noverify` extracts the plist, plistlib reads
it, `openssl x509` reports certificate facts, zipfile reads the IPA. Same shape as
shared/real-corpus/expected.json (`profiles`, `files`, `builds`) plus `malformed`.
"""

import datetime as dt
import hashlib
import io
import json
import os
import plistlib
import struct
import subprocess
import tempfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # Fixtures/
PROFILE_EXT = (".mobileprovision", ".provisionprofile")


def rel(path):
    return os.path.relpath(path, os.path.dirname(HERE))  # "Fixtures/..."


def openssl(args, data=None):
    r = subprocess.run(["openssl"] + args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, r.stdout


def iso(d):
    if d is None:
        return None
    if d.tzinfo is not None:
        d = d.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")


def extract_plist(data):
    """(plist dict, envelope form) or raises ValueError."""
    if not data:
        raise ValueError("empty")
    if data.startswith(b"bplist") or data.lstrip().startswith(b"<"):
        return plistlib.loads(data), ("bare-binary" if data.startswith(b"bplist") else "bare-xml")
    rc, out = openssl(["cms", "-verify", "-noverify", "-inform", "DER", "-out", "-"], data)
    if rc != 0:
        raise ValueError("openssl cms could not read the envelope")
    return plistlib.loads(out), "cms"


def envelope_cert_count(data):
    rc, out = openssl(["pkcs7", "-inform", "DER", "-print_certs"], data)
    return out.count(b"subject=") if rc == 0 else None


def openssl_date(s):
    return dt.datetime.strptime(" ".join(s.split()), "%b %d %H:%M:%S %Y GMT")


def cert_facts(der_bytes):
    _, out = openssl(["x509", "-inform", "DER", "-noout", "-serial", "-startdate", "-enddate",
                      "-subject", "-issuer", "-nameopt", "utf8,sep_multiline,sname"], der_bytes)
    facts, section = {"subject": {}, "issuer": {}}, None
    for line in out.decode("utf-8").splitlines():
        if line.startswith("serial="):
            facts["serial"] = line.split("=", 1)[1]
        elif line.startswith("notBefore="):
            facts["not_before"] = openssl_date(line.split("=", 1)[1])
        elif line.startswith("notAfter="):
            facts["not_after"] = openssl_date(line.split("=", 1)[1])
        elif line.startswith("subject="):
            section = "subject"
        elif line.startswith("issuer="):
            section = "issuer"
        elif line.startswith("    ") and section:
            k, v = line.strip().split("=", 1)
            facts[section][k] = v
    fps = {}
    for alg in ("sha1", "sha256"):
        _, o = openssl(["x509", "-inform", "DER", "-noout", "-fingerprint", "-" + alg], der_bytes)
        fps[alg] = o.decode().strip().split("=", 1)[1].replace(":", "").upper()
    return {
        "common_name": facts["subject"].get("CN"),
        "team_id": facts["subject"].get("OU"),
        "organization": facts["subject"].get("O"),
        "issuer_common_name": facts["issuer"].get("CN"),
        "serial": facts["serial"].upper(),
        "not_before": facts["not_before"],
        "not_after": facts["not_after"],
        "sha1": fps["sha1"],
        "sha256": fps["sha256"],
    }


KNOWN = {"AppIDName", "ApplicationIdentifierPrefix", "CreationDate", "ExpirationDate",
         "DeveloperCertificates", "DER-Encoded-Profile", "Entitlements", "IsXcodeManaged", "Name",
         "Platform", "PPQCheck", "ProvisionedDevices", "ProvisionsAllDevices", "TeamIdentifier",
         "TeamName", "TimeToLive", "UUID", "Version"}


def kind(p, platforms, gta):
    mac = any(x in ("OSX", "macOS") for x in platforms)
    if p.get("ProvisionsAllDevices") is True:
        return "developer-id" if mac else "enterprise"
    if p.get("ProvisionedDevices"):
        if mac:
            return "development"
        return "development" if gta is True else "ad-hoc"
    return "app-store"


def is_certificate(der_bytes):
    rc, _ = openssl(["x509", "-inform", "DER", "-noout"], der_bytes)
    return bool(der_bytes) and rc == 0


def trailing_bytes(data):
    """Bytes after the outermost DER element, from `openssl asn1parse`'s first line (definite lengths)."""
    _, out = openssl(["asn1parse", "-inform", "DER"], data)
    first = out.decode(errors="replace").splitlines()[0]
    header = int(first.split("hl=")[1].split()[0])
    length = first.split(" l=")[1].split()[0]
    return 0 if length == "inf" else len(data) - header - int(length)


def describe_profile(path):
    data = open(path, "rb").read()
    p, form = extract_plist(data)
    ent = p.get("Entitlements", {})
    platforms = p.get("Platform") or ["iOS"]
    gta = ent.get("get-task-allow", ent.get("com.apple.security.get-task-allow"))
    app_id = ent.get("application-identifier", ent.get("com.apple.application-identifier"))
    entries = list(enumerate(p.get("DeveloperCertificates", [])))
    # Entries openssl cannot read as a certificate are listed by raw-byte fingerprints, not decoded.
    certs = [cert_facts(c) for _, c in entries if is_certificate(c)]
    undecodable = [{"index": i, "size": len(c), "sha1": hashlib.sha1(c).hexdigest().upper(),
                    "sha256": hashlib.sha256(c).hexdigest().upper()} for i, c in entries if not is_certificate(c)]
    exp = p["ExpirationDate"]
    latest = max((c["not_after"] for c in certs), default=None)
    effective = min(exp, latest) if latest else exp
    teams = p.get("TeamIdentifier") or p.get("ApplicationIdentifierPrefix") or [None]
    for c in certs:
        c["not_before"], c["not_after"] = iso(c["not_before"]), iso(c["not_after"])
    if form == "cms":
        r = open(path, "rb").read(2)
        form = "cms-ber-indefinite" if r == b"\x30\x80" else "cms-der"
    return {
        "path": rel(path),
        "uuid": p["UUID"].upper(),
        "uuid_as_written": p["UUID"],
        "name": p.get("Name"),
        "app_id_name": p.get("AppIDName"),
        "team_id": teams[0],
        "team_name": p.get("TeamName"),
        "platforms": list(p.get("Platform") or []),  # as written; kind reads absent as iOS
        "platform_key_present": "Platform" in p,
        "kind": kind(p, platforms, gta),
        "xcode_managed": p.get("IsXcodeManaged"),
        "ppq_check": p.get("PPQCheck"),
        "creation_date": iso(p["CreationDate"]),
        "expiration_date": iso(exp),
        "effective_expiration_date": iso(effective),
        "expiry_cause": "certificate" if latest is not None and latest < exp else "profile",
        "application_identifier": app_id,
        "bundle_id": app_id.split(".", 1)[1] if app_id and "." in app_id else app_id,
        "aps_environment": ent.get("aps-environment", ent.get("com.apple.developer.aps-environment")),
        "get_task_allow": gta,
        "device_count": len(p.get("ProvisionedDevices") or []),
        "provisions_all_devices": p.get("ProvisionsAllDevices", False),
        "time_to_live": p.get("TimeToLive"),
        "version": p.get("Version"),
        "entitlement_keys": sorted(ent.keys()),
        "unknown_keys": sorted(k for k in p if k not in KNOWN),
        "has_der_encoded_profile": "DER-Encoded-Profile" in p,
        "envelope": form,
        "envelope_certificates": envelope_cert_count(data) if form.startswith("cms") else 0,
        "sha256": hashlib.sha256(data).hexdigest().upper(),
        "certificates": certs,
        "undecodable_certificates": undecodable,
        "envelope_trailing_bytes": trailing_bytes(data) if form.startswith("cms") else 0,
    }


def info_fields(p):
    fields = {
        "bundle_id": p.get("CFBundleIdentifier"),
        "short_version": p.get("CFBundleShortVersionString"),
        "build": p.get("CFBundleVersion"),
        "package_type": p.get("CFBundlePackageType"),
    }
    fields["unresolved"] = any(isinstance(fields[k], str) and "$(" in fields[k]
                               for k in ("bundle_id", "short_version", "build"))
    return fields


def describe_plist(path):
    data = open(path, "rb").read()
    try:
        p = plistlib.loads(data)
    except Exception:
        return {"path": rel(path), "type": "invalid", "error": "malformedPlist"}
    entry = {"path": rel(path), "type": "info-plist",
             "format": "binary" if data.startswith(b"bplist") else "xml"}
    entry.update(info_fields(p))
    return entry


def walk(top):
    for root, dirs, files in os.walk(top):
        dirs.sort()
        for f in sorted(files):
            yield os.path.join(root, f)


def files_and_profiles():
    files, profiles = [], []
    for top in ("profiles", "renewals", "report", "plists", "bundles", "lenient", "codesign"):
        for path in walk(os.path.join(HERE, top)):
            name = os.path.basename(path)
            if name.endswith(PROFILE_EXT):
                try:
                    prof = describe_profile(path)
                except Exception as e:  # noqa: BLE001
                    files.append({"path": rel(path), "type": "invalid", "error": str(e)})
                    continue
                profiles.append(prof)
                files.append({"path": rel(path), "type": "profile", "uuid": prof["uuid"]})
            elif name.endswith(".plist"):
                if os.path.dirname(path).endswith(".xcarchive"):
                    continue  # archive metadata, reported under `builds`
                files.append(describe_plist(path))
    return files, profiles


def profile_uuid(path):
    if not os.path.exists(path):
        return None
    p, _ = extract_plist(open(path, "rb").read())
    return p["UUID"].upper()


def app_build(app_dir):
    mac = os.path.isdir(os.path.join(app_dir, "Contents"))
    info_path = os.path.join(app_dir, "Contents", "Info.plist") if mac else os.path.join(app_dir, "Info.plist")
    emb = os.path.join(app_dir, "Contents", "embedded.provisionprofile") if mac else \
        os.path.join(app_dir, "embedded.mobileprovision")
    p = plistlib.load(open(info_path, "rb"))
    f = info_fields(p)
    return {"path": rel(app_dir), "source_kind": "app", "bundle_id": f["bundle_id"],
            "short_version": f["short_version"], "build": f["build"], "profile_uuid": profile_uuid(emb)}


def archive_build(arc):
    info = plistlib.load(open(os.path.join(arc, "Info.plist"), "rb"))
    props = info.get("ApplicationProperties")
    apps_dir = os.path.join(arc, "Products", "Applications")
    if props:
        app = os.path.join(arc, "Products", props["ApplicationPath"])
        bundle_id, short, build = props.get("CFBundleIdentifier"), props.get("CFBundleShortVersionString"), \
            props.get("CFBundleVersion")
    else:
        app = os.path.join(apps_dir, sorted(a for a in os.listdir(apps_dir) if a.endswith(".app"))[0])
        f = info_fields(plistlib.load(open(os.path.join(app, "Info.plist"), "rb")))
        bundle_id, short, build = f["bundle_id"], f["short_version"], f["build"]
    return {"path": rel(arc), "source_kind": "xcarchive", "bundle_id": bundle_id, "short_version": short,
            "build": build, "profile_uuid": profile_uuid(os.path.join(app, "embedded.mobileprovision")),
            "archived_at": iso(info.get("CreationDate")), "team_id": (props or {}).get("Team"),
            "scheme": info.get("SchemeName"), "signing_identity": (props or {}).get("SigningIdentity"),
            "app_path": rel(app), "has_application_properties": props is not None}


def ipa_build(path):
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        apps = sorted({n.split("/")[1] for n in names
                       if n.startswith("Payload/") and n.count("/") >= 2 and n.split("/")[1].endswith(".app")})
        if apps:
            app = "Payload/%s/" % apps[0]  # the shortest Payload/*.app: direct child of Payload/
        else:  # Finder's "Compress": Top/Payload/X.app/, with __MACOSX/ AppleDouble entries beside it
            nested = sorted({"/".join(n.split("/")[:3]) + "/" for n in names
                             if not n.startswith("__MACOSX/") and n.count("/") >= 3
                             and n.split("/")[1] == "Payload" and n.split("/")[2].endswith(".app")})
            app = nested[0]
        f = info_fields(plistlib.loads(z.read(app + "Info.plist")))
        emb = z.read(app + "embedded.mobileprovision") if app + "embedded.mobileprovision" in names else None
    uuid = extract_plist(emb)[0]["UUID"].upper() if emb else None
    return {"path": rel(path), "source_kind": "ipa", "bundle_id": f["bundle_id"],
            "short_version": f["short_version"], "build": f["build"], "profile_uuid": uuid,
            "app_path": app.rstrip("/")}


def zip_app(path):
    """`X.app/` when the zip's top level holds exactly one .app with an Info.plist (flat or in
    Contents/), __MACOSX/ aside: a macOS app zipped for Developer ID distribution; else None."""
    with zipfile.ZipFile(path) as z:
        names = [n for n in z.namelist() if not n.startswith("__MACOSX/")]
    apps = {n.split("/")[0] for n in names if "/" in n and n.split("/")[0].endswith(".app")}
    if len(apps) != 1:
        return None
    app = apps.pop() + "/"
    return app if app + "Info.plist" in names or app + "Contents/Info.plist" in names else None


def zip_build(path, app):
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        mac = app + "Contents/Info.plist" in names
        f = info_fields(plistlib.loads(z.read(app + ("Contents/Info.plist" if mac else "Info.plist"))))
        profile = app + ("Contents/embedded.provisionprofile" if mac else "embedded.mobileprovision")
        emb = z.read(profile) if profile in names else None
    uuid = extract_plist(emb)[0]["UUID"].upper() if emb else None
    return {"path": rel(path), "source_kind": "zip", "bundle_id": f["bundle_id"],
            "short_version": f["short_version"], "build": f["build"], "profile_uuid": uuid,
            "app_path": app.rstrip("/")}


# ---------------------------------------------------------------------------------------------
# Mach-O binaries under codesign/: read here with struct, hashlib and openssl alone (no code shared
# with make_codesign.py), as llvm-objdump and `codesign -d` report them.

ARCH_NAMES = {(0x0100000C, 0): "arm64", (0x0100000C, 2): "arm64e", (0x01000007, 3): "x86_64", (12, 9): "armv7",
              (12, 12): "armv7k", (0x0200000C, 1): "arm64_32", (18, 0): "ppc"}
PLATFORM_NAMES = {1: "macOS", 2: "iOS", 3: "tvOS", 4: "watchOS", 7: "iOS Simulator"}
VERSION_MIN = {0x24: "macOS", 0x25: "iOS", 0x2F: "tvOS", 0x30: "watchOS"}
MACHO_MAGICS = (b"\xca\xfe\xba\xbe", b"\xca\xfe\xba\xbf", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe",
                b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf")


def is_macho(path):
    if os.path.islink(path) or not os.path.isfile(path):
        return False
    with open(path, "rb") as f:
        return f.read(4) in MACHO_MAGICS


def os_version(v):
    major, minor, patch = v >> 16, (v >> 8) & 0xFF, v & 0xFF
    return "%d.%d.%d" % (major, minor, patch) if patch else "%d.%d" % (major, minor)


def signer_certificate(cms, content):
    """SHA-1 and CN of the certificate openssl names as the signer of `cms` over `content`."""
    with tempfile.TemporaryDirectory() as work:
        paths = [os.path.join(work, n) for n in ("cms.der", "content.bin", "signer.pem")]
        for path, data in zip(paths, (cms, content)):
            with open(path, "wb") as f:
                f.write(data)
        rc, _ = openssl(["cms", "-verify", "-noverify", "-binary", "-inform", "DER", "-in", paths[0],
                         "-content", paths[1], "-signer", paths[2], "-out", os.devnull])
        if rc != 0:
            raise ValueError("openssl cms could not verify the code signature's CMS blob")
        _, der_bytes = openssl(["x509", "-in", paths[2], "-outform", "DER"])
    facts = cert_facts(der_bytes)
    return facts["sha1"], facts["common_name"]


def code_signature(blob):
    magic, length, count = struct.unpack_from(">III", blob, 0)
    assert magic == 0xFADE0CC0
    slots = {}
    for i in range(count):
        slot, offset = struct.unpack_from(">II", blob, 12 + 8 * i)
        _, size = struct.unpack_from(">II", blob, offset)
        slots[slot] = blob[offset:offset + size]
    directories = []
    for slot in sorted(k for k in slots if k == 0 or 0x1000 <= k < 0x1005):
        cd = slots[slot]
        version, _, _, ident_offset = struct.unpack_from(">IIII", cd, 8)
        hash_type = cd[37]
        team_offset = struct.unpack_from(">I", cd, 48)[0] if version >= 0x20200 else 0
        digest = (hashlib.sha1 if hash_type == 1 else hashlib.sha256)(cd).hexdigest().upper()
        directories.append({"slot": slot, "hash_type": {1: "sha1", 2: "sha256"}[hash_type], "hash": digest,
                            "identifier": cd[ident_offset:cd.index(b"\0", ident_offset)].decode(),
                            "team_id": cd[team_offset:cd.index(b"\0", team_offset)].decode() if team_offset else None})
    preferred = [d for d in directories if d["hash_type"] == "sha256"] or directories
    wrapper = slots.get(0x10000, b"")[8:]
    sha1, name = signer_certificate(wrapper, slots[0]) if wrapper else (None, None)
    entitlements = plistlib.loads(slots[5][8:]) if 5 in slots else None
    return {"cdhash": preferred[0]["hash"][:40], "identifier": directories[0]["identifier"],
            "team_id": directories[0]["team_id"], "certificate_sha1": sha1, "certificate_name": name,
            "entitlement_keys": sorted(entitlements) if entitlements is not None else None,
            "has_der_entitlements": 7 in slots,
            "code_directories": [{"hash_type": d["hash_type"], "cdhash": d["hash"][:40]} for d in directories]}


def thin_facts(data):
    e = ">" if data[:4] in (b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf") else "<"
    magic, cpu, sub, filetype, ncmds, _ = struct.unpack_from(e + "IIIIII", data, 0)
    is64 = magic == 0xFEEDFACF
    facts = {"arch": ARCH_NAMES[(cpu, sub & 0xFFFFFF)], "file_type": filetype, "uuid": None, "platform": None,
             "minimum_os": None, "sdk": None, "code_signature": None}
    offset = 32 if is64 else 28
    for _ in range(ncmds):
        cmd, size = struct.unpack_from(e + "II", data, offset)
        if cmd == 0x1B:
            u = data[offset + 8:offset + 24].hex().upper()
            facts["uuid"] = "-".join((u[:8], u[8:12], u[12:16], u[16:20], u[20:]))
        elif cmd == 0x32:
            platform, minos, sdk = struct.unpack_from(e + "III", data, offset + 8)
            facts.update(platform=PLATFORM_NAMES[platform], minimum_os=os_version(minos), sdk=os_version(sdk))
        elif cmd in VERSION_MIN:
            minos, sdk = struct.unpack_from(e + "II", data, offset + 8)
            facts.update(platform=VERSION_MIN[cmd], minimum_os=os_version(minos), sdk=os_version(sdk))
        elif cmd == 0x1D:
            dataoff, datasize = struct.unpack_from(e + "II", data, offset + 8)
            facts["code_signature"] = code_signature(data[dataoff:dataoff + datasize])
        offset += size
    return facts


def macho_facts(data):
    if data[:4] in (b"\xca\xfe\xba\xbe", b"\xca\xfe\xba\xbf"):
        is64 = data[3] == 0xBF
        slices = []
        for i in range(struct.unpack_from(">I", data, 4)[0]):
            if is64:
                _, _, offset, size = struct.unpack_from(">IIQQ", data, 8 + 32 * i)
            else:
                _, _, offset, size = struct.unpack_from(">IIII", data, 8 + 20 * i)
            slices.append(thin_facts(data[offset:offset + size]))
        return {"layout": "fat64" if is64 else "fat", "slices": slices}
    return {"layout": "thin", "slices": [thin_facts(data)]}


def binaries():
    """Every Mach-O under codesign/ (files; an .ipa's or .zip's members as `X.ipa!member`), malformed/ aside."""
    out = []
    top = os.path.join(HERE, "codesign")
    for path in walk(top):
        if os.sep + "malformed" + os.sep in path:
            continue
        if path.endswith((".ipa", ".zip")):
            with zipfile.ZipFile(path) as z:
                for name in z.namelist():
                    data = z.read(name)
                    if data[:4] in MACHO_MAGICS:
                        out.append(dict(path=rel(path) + "!" + name, **macho_facts(data)))
        elif is_macho(path):
            with open(path, "rb") as f:
                out.append(dict(path=rel(path), **macho_facts(f.read())))
    return out


def build_binaries(build, binaries_list):
    """The `executables` (and for an archive `dsyms`) of a codesign/ build: every Mach-O inside it, by
    path inside the build, with its architectures."""
    path = build["path"]
    inside = []
    for b in binaries_list:
        for prefix in (path + "/", path + "!"):
            if b["path"].startswith(prefix):
                inside.append((b["path"][len(prefix):], b))
    def entry(relative, b):
        return {"path": relative, "architectures": [{"arch": s["arch"], "uuid": s["uuid"]} for s in b["slices"]],
                "cdhash": next((s["code_signature"]["cdhash"] for s in b["slices"] if s["code_signature"]), None)}
    build["executables"] = [entry(r, b) for r, b in sorted(inside, key=lambda x: x[0]) if not r.startswith("dSYMs/")]
    if build["source_kind"] == "xcarchive":
        build["dsyms"] = [entry(r, b) for r, b in sorted(inside, key=lambda x: x[0]) if r.startswith("dSYMs/")]
        # The archive's executables are its app's.
    return build


# Where an app keeps bundles that are builds of their own (with the app as parent), and their suffix.
NESTED = [("PlugIns", ".appex"), ("Watch", ".app"), ("AppClips", ".app"), ("Contents/PlugIns", ".appex"), ("Contents/Extensions", ".appex"),
          ("Contents/Library/LoginItems", ".app"), ("Contents/Library/SystemExtensions", ".systemextension")]


def nested_builds(app_dir):
    out = []
    for folder, suffix in NESTED:
        full = os.path.join(app_dir, folder)
        if not os.path.isdir(full):
            continue
        for name in sorted(os.listdir(full)):
            if name.endswith(suffix):
                child = os.path.join(full, name)
                build = app_build(child)
                build["parent"] = rel(app_dir)
                out.append(build)
                out.extend(nested_builds(child))
    return out


def builds():
    b = []
    bundles = os.path.join(HERE, "bundles")
    for name in sorted(os.listdir(bundles)):
        path = os.path.join(bundles, name)
        if name.endswith(".app"):
            b.append(app_build(path))
            b.extend(nested_builds(path))
        elif name.endswith(".xcarchive"):
            b.append(archive_build(path))
            apps = os.path.join(path, "Products", "Applications")
            for a in sorted(os.listdir(apps)):
                b.append(app_build(os.path.join(apps, a)))
    for top in ("ipa", "lenient"):
        for name in sorted(os.listdir(os.path.join(HERE, top))):
            if name.endswith(".ipa"):
                b.append(ipa_build(os.path.join(HERE, top, name)))
    # codesign/: builds whose executables are real signed Mach-O files, listed with them.
    codesign, found = os.path.join(HERE, "codesign"), binaries()
    for name in sorted(os.listdir(codesign)):
        path = os.path.join(codesign, name)
        if name.endswith(".app"):
            builds_here = [app_build(path)] + nested_builds(path)
        elif name.endswith(".xcarchive"):
            apps = os.path.join(path, "Products", "Applications")
            builds_here = [archive_build(path)] + [app_build(os.path.join(apps, a)) for a in sorted(os.listdir(apps))]
        elif name.endswith(".ipa"):
            builds_here = [ipa_build(path)]
        elif name.endswith(".zip") and zip_app(path):
            builds_here = [zip_build(path, zip_app(path))]
        else:
            continue
        b.extend(build_binaries(build, found) for build in builds_here)
    return b


MALFORMED = {
    "empty.mobileprovision": ("empty", "0 bytes"),
    "truncated.mobileprovision": ("malformedEnvelope", "ios-development.mobileprovision cut in half"),
    "garbage.mobileprovision": ("unrecognized", "4096 seeded random bytes, first byte 0x9C"),
    "wrong-types.mobileprovision": ("invalidValue",
                                    "signed envelope; UUID is an integer, ExpirationDate a string, "
                                    "ProvisionedDevices a string"),
    "missing-uuid.mobileprovision": ("invalidValue", "signed envelope; plist has no UUID"),
    "trailing-garbage.mobileprovision": ("malformedEnvelope",
                                         "trailing-newline.mobileprovision's envelope followed by 80 bytes "
                                         "(40 CRLF), more than a line ending"),
    "not-cms.mobileprovision": ("malformedEnvelope",
                                "DER ContentInfo of type id-data (1.2.840.113549.1.7.1), not SignedData"),
    "lying-size.ipa": ("tooLarge",
                       "central directory says Payload/Liar.app/Info.plist is 3,000,000,000 bytes "
                       "(local header and data are 303 bytes); malformedZip is also defensible"),
    "empty-dir.xcarchive": ("invalidBundle", "directory holding only .keep"),
}


def malformed():
    out = []
    mdir = os.path.join(HERE, "malformed")
    for name in sorted(os.listdir(mdir)):
        cat, why = MALFORMED[name]
        out.append({"path": rel(os.path.join(mdir, name)), "error": cat, "what": why})
    return out


def main():
    files, profiles = files_and_profiles()
    doc = {
        "reference_now": "2026-06-01T00:00:00Z",
        "kind_rule": "ProvisionsAllDevices: developer-id on OSX/macOS, else enterprise; devices: "
                     "development on macOS, else development if get-task-allow true, ad-hoc otherwise; "
                     "no devices: app-store. No Platform key: iOS.",
        "notes": "Computed by Fixtures/scripts/make_expected.py from the files only (openssl cms/x509/"
                 "pkcs7, plistlib, zipfile). Dates are UTC. Serials and fingerprints are uppercase hex "
                 "as openssl prints them. platforms is Platform as written ([] when absent; the kind reads that as iOS) "
                 "(platform_key_present tells). files lists profile and Info.plist candidates under "
                 "profiles/, renewals/, report/, plists/, bundles/ (xcarchive top-level Info.plist is in builds, not files). "
                 "envelope_certificates is the raw count in the CMS certificates SET, duplicates included. "
                 "Builds nested in an app (PlugIns/*.appex, Watch/*.app, AppClips/*.app, and on macOS Contents/PlugIns, "
                 "Contents/Extensions/*.appex, Contents/Library/LoginItems/*.app, "
                 "Contents/Library/SystemExtensions/*.systemextension) carry parent: the app's path. "
                 "binaries lists every Mach-O under codesign/ (an .ipa's as X.ipa!member) with its slices "
                 "(llvm-objdump's facts; cdhash of the SHA-256 CodeDirectory, else the SHA-1 one; the CMS "
                 "signer as openssl cms -verify names it); codesign/ builds list those inside them as "
                 "executables (and an archive's dSYMs as dsyms), by path inside the build.",
        "profiles": profiles,
        "files": files,
        "builds": builds(),
        "binaries": binaries(),
        "malformed": malformed(),
    }
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
