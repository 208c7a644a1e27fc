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
import subprocess
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
    for top in ("profiles", "renewals", "report", "plists", "bundles", "lenient"):
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


# Where an app keeps bundles that are builds of their own (with the app as parent), and their suffix.
NESTED = [("PlugIns", ".appex"), ("Watch", ".app"), ("Contents/PlugIns", ".appex"), ("Contents/Extensions", ".appex"),
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
                 "Builds nested in an app (PlugIns/*.appex, Watch/*.app, and on macOS Contents/PlugIns, "
                 "Contents/Extensions/*.appex, Contents/Library/LoginItems/*.app, "
                 "Contents/Library/SystemExtensions/*.systemextension) carry parent: the app's path.",
        "profiles": profiles,
        "files": files,
        "builds": builds(),
        "malformed": malformed(),
    }
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
