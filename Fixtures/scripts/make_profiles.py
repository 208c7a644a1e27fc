#!/usr/bin/env python3
"""Generate the fake CA, developer certificates, provisioning profiles and malformed profiles.

Everything is deterministic: RSA keys are created once under Fixtures/keys/ (test-only keys, kept so
regenerating gives byte-identical certificates and envelopes: PKCS#1 v1.5 signatures are
deterministic and `-noattr` leaves no signing time), all dates are fixed.

Outputs: Fixtures/certs/, Fixtures/profiles/, Fixtures/malformed/*.mobileprovision.
"""

import atexit
import datetime as dt
import hashlib
import os
import plistlib
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import der  # noqa: E402

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # Fixtures/
KEYS = os.path.join(HERE, "keys")
CERTS = os.path.join(HERE, "certs")
PROFILES = os.path.join(HERE, "profiles")
MALFORMED = os.path.join(HERE, "malformed")
LENIENT = os.path.join(HERE, "lenient")
WORK = tempfile.mkdtemp(prefix="catalog-fixtures-")
atexit.register(shutil.rmtree, WORK, True)

OID = {
    "UID": "0.9.2342.19200300.100.1.1",
    "CN": "2.5.4.3",
    "OU": "2.5.4.11",
    "O": "2.5.4.10",
    "C": "2.5.4.6",
}
SHA256_RSA = der.seq(der.oid("1.2.840.113549.1.1.11"), der.null())


def run(args, data=None):
    r = subprocess.run(args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        sys.stderr.write(r.stderr.decode(errors="replace"))
        raise SystemExit("command failed: %s" % " ".join(args))
    return r.stdout


def D(y, mo, d, h=0, mi=0, s=0):
    return dt.datetime(y, mo, d, h, mi, s)


# ---------------------------------------------------------------------------------------------
# Keys and certificates


def key(name):
    os.makedirs(KEYS, exist_ok=True)
    path = os.path.join(KEYS, name + ".key.pem")
    if not os.path.exists(path):
        run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
             "-out", path])
    return path


def spki(key_path):
    return run(["openssl", "pkey", "-in", key_path, "-pubout", "-outform", "DER"])


def key_id(spki_der):
    # RFC 5280 method 1: SHA-1 of the subjectPublicKey BIT STRING value (minus unused-bits byte).
    node = der.parse(spki_der)
    return hashlib.sha1(node.children[1].content[1:]).digest()


def name(rdns):
    out = []
    for attr, value in rdns:
        enc = der.printable(value) if attr == "C" else der.utf8(value)
        out.append(der.set_(der.seq(der.oid(OID[attr]), enc)))
    return der.seq(*out)


def ext(oid_, critical, value):
    parts = [der.oid(oid_)]
    if critical:
        parts.append(der.boolean(True))
    parts.append(der.octets(value))
    return der.seq(*parts)


class Cert:
    def __init__(self, label, subject, serial, not_before, not_after, issuer=None, role="dev"):
        self.label = label
        self.subject = subject
        self.serial = serial
        self.not_before = not_before
        self.not_after = not_after
        self.issuer = issuer  # Cert or None (self-signed)
        self.role = role
        self.key = key(label)
        self.spki = spki(self.key)
        self.ski = key_id(self.spki)
        self.der = self._build()
        self.pem = os.path.join(WORK, label + ".pem")
        with open(self.pem, "wb") as f:
            f.write(run(["openssl", "x509", "-inform", "DER", "-outform", "PEM"], self.der))

    def _build(self):
        issuer = self.issuer or self
        exts = []
        if self.role == "ca":
            exts.append(ext("2.5.29.19", True, der.seq(der.boolean(True))))
            exts.append(ext("2.5.29.15", True, der.tlv(0x03, b"\x01\x06")))  # keyCertSign, cRLSign
        else:
            exts.append(ext("2.5.29.19", True, der.seq()))
            exts.append(ext("2.5.29.15", True, der.tlv(0x03, b"\x07\x80")))  # digitalSignature
            if self.role == "dev":
                exts.append(ext("2.5.29.37", True, der.seq(der.oid("1.3.6.1.5.5.7.3.3"))))
        exts.append(ext("2.5.29.14", False, der.octets(self.ski)))
        exts.append(ext("2.5.29.35", False, der.seq(der.tlv(0x80, issuer.ski))))
        tbs = der.seq(
            der.explicit(0, der.integer(2)),
            der.integer(self.serial),
            SHA256_RSA,
            name(issuer.subject),
            der.seq(der.time(self.not_before), der.time(self.not_after)),
            name(self.subject),
            self.spki,
            der.explicit(3, der.seq(*exts)),
        )
        sig = run(["openssl", "dgst", "-sha256", "-sign", issuer.key], tbs)
        return der.seq(tbs, SHA256_RSA, der.bitstring(sig))


def make_certs():
    c = {}
    c["ca"] = Cert("ca", [("CN", "Catalog Test WWDR CA"), ("OU", "Catalog Test Certification Authority"),
                          ("O", "Catalog Tests"), ("C", "US")],
                   0x01, D(2012, 1, 1), D(2049, 12, 31, 23, 59, 59), role="ca")
    ca = c["ca"]
    c["signer"] = Cert("signer", [("CN", "Catalog Test Provisioning Profile Signing"),
                                  ("O", "Catalog Tests"), ("C", "US")],
                       0x3C1B7E5D29A04F11, D(2012, 6, 1), D(2049, 6, 1), ca, role="signer")

    def dev(label, uid, cn, ou, o, serial, nb, na):
        c[label] = Cert(label, [("UID", uid), ("CN", cn), ("OU", ou), ("O", o), ("C", "US")],
                        serial, nb, na, ca)

    # serial with the high bit set (DER needs a leading 00; openssl prints 8A3F...)
    dev("dev_jane", "ABCDE12345", "Apple Development: Jane Doe (ABCDE12345)", "TEAM123456",
        "Example Corp", 0x8A3F5C2E91D04B76, D(2025, 12, 1, 9), D(2027, 12, 1, 8, 59, 59))
    # short serial
    dev("dist", "TEAM123456", "Apple Distribution: Example Corp (TEAM123456)", "TEAM123456",
        "Example Corp", 0x05, D(2025, 11, 20, 14, 30), D(2027, 11, 20, 14, 29, 59))
    # notAfter >= 2050: GeneralizedTime
    dev("devid", "TEAM123456", "Developer ID Application: Example Corp (TEAM123456)", "TEAM123456",
        "Example Corp", 0x1A2B3C4D5E6F7081, D(2025, 10, 1, 12), D(2052, 10, 1, 12))
    # non-ASCII CN (UTF8String)
    dev("dev_zh", "ZW12345678", "Apple Development: 张伟 (ZW12345678)", "TEAM123456",
        "Example Corp", 0x4E2D6587, D(2025, 6, 30, 3, 15), D(2027, 6, 30, 3, 14, 59))
    # CN longer than 64 characters (X.520 ub-common-name is 64; Apple does not care)
    dev("dev_long", "LONGCN1234",
        "Apple Development: Maximilian Alexander Bartholomew Featherstonehaugh-Worthington (LONGCN1234)",
        "TEAM123456", "Example Corp", 0x7F00000000000001, D(2025, 9, 9), D(2027, 9, 9))
    dev("mas", "TEAM123456", "3rd Party Mac Developer Application: Example Corp (TEAM123456)",
        "TEAM123456", "Example Corp", 0x6B5A493827160504, D(2025, 11, 20), D(2027, 11, 20))
    dev("ent_dist", "ENTRP12345", "iPhone Distribution: Example Enterprise Inc.", "ENTRP12345",
        "Example Enterprise Inc.", 0x2F9E8D7C6B5A4938, D(2026, 1, 10), D(2029, 1, 10))
    dev("dev_2013", "ABCDE12345", "iPhone Developer: Jane Doe (ABCDE12345)", "TEAM123456",
        "Example Corp", 0x5D3C1B0A, D(2013, 3, 1, 10), D(2014, 9, 1, 10))
    # three certificates that all expire before their profile, with different notAfter
    dev("old_a", "ABCDE12345", "Apple Development: Jane Doe (ABCDE12345)", "TEAM123456",
        "Example Corp", 0x11AA22BB33CC44DD, D(2025, 3, 1), D(2026, 3, 1))
    dev("old_b", "FGHIJ67890", "Apple Development: John Roe (FGHIJ67890)", "TEAM123456",
        "Example Corp", 0x9900AABBCCDDEEFF, D(2025, 5, 15, 12), D(2026, 5, 15, 12))
    dev("old_c", "ABCDE12345", "iPhone Developer: Jane Doe (ABCDE12345)", "TEAM123456",
        "Example Corp", 0x0123456789ABCDEF, D(2025, 4, 10), D(2026, 4, 10))
    return c


# ---------------------------------------------------------------------------------------------
# CMS


def cms_sign(content, signer, ca, out, stream=False, md="sha256", nocerts=False):
    src = os.path.join(WORK, "content.bin")
    with open(src, "wb") as f:
        f.write(content)
    args = ["openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-noattr",
            "-md", md, "-signer", signer.pem, "-inkey", signer.key, "-in", src, "-out", out]
    if nocerts:
        args.append("-nocerts")
    else:
        args += ["-certfile", ca.pem]
    if stream:
        args.append("-stream")
    run(args)
    with open(out, "rb") as f:
        return f.read()


def der_encoded_profile(fields, certs, signer, ca):
    """A small second CMS message like Apple's DER-Encoded-Profile: a DER SET of key/value pairs."""
    pairs = []
    for k, v in fields:
        if isinstance(v, bool):
            enc = der.boolean(v)
        elif isinstance(v, int):
            enc = der.integer(v)
        elif isinstance(v, dt.datetime):
            enc = der.tlv(0x18, v.strftime("%Y%m%d%H%M%SZ").encode())
        else:
            enc = der.utf8(v)
        pairs.append(der.seq(der.utf8(k), enc))
    hashes = der.seq(*[der.octets(hashlib.sha256(c.der).digest()) for c in certs])
    pairs.append(der.seq(der.utf8("DeveloperCertificates"), hashes))
    payload = der.set_of_sorted(*pairs)
    return cms_sign(payload, signer, ca, os.path.join(WORK, "dep.der"), nocerts=True)


# ---------------------------------------------------------------------------------------------
# Profile plists


def udid(i, style="ios"):
    h = hashlib.sha1(("catalog-device-%d" % i).encode()).hexdigest()
    if style == "mac":
        u = hashlib.md5(("catalog-mac-%d" % i).encode()).hexdigest().upper()
        return "%s-%s-%s-%s-%s" % (u[:8], u[8:12], u[12:16], u[16:20], u[20:])
    if i % 2:  # newer 25-character form
        return "0000%s-%s" % (h[:4].upper(), h[4:20].upper())
    return h  # 40-hex legacy form


def uuid_for(label):
    h = hashlib.sha256(("catalog-profile-" + label).encode()).hexdigest().upper()
    return "%s-%s-4%s-A%s-%s" % (h[:8], h[8:12], h[13:16], h[17:20], h[20:32])


CREATED = D(2026, 1, 15, 10)


def profile(label, *, name, app_id, certs, expires, created=CREATED, team="TEAM123456",
            team_name="Example Corp", platform=("iOS",), devices=None, all_devices=None,
            xcode_managed=False, ppq=True, entitlements=None, app_id_name=None, extra=True,
            mac_app_id=False, omit=(), signer=None, ca=None):
    ent = {}
    if mac_app_id == "both":
        ent["application-identifier"] = "%s.%s" % (team, app_id)
        ent["com.apple.application-identifier"] = "%s.%s" % (team, app_id)
        ent["com.apple.developer.team-identifier"] = team
    elif mac_app_id:
        ent["com.apple.application-identifier"] = "%s.%s" % (team, app_id)
        ent["com.apple.developer.team-identifier"] = team
    else:
        ent["application-identifier"] = "%s.%s" % (team, app_id)
        ent["com.apple.developer.team-identifier"] = team
    ent["keychain-access-groups"] = ["%s.*" % team, "com.apple.token"]
    ent.update(entitlements or {})
    p = {
        "AppIDName": app_id_name or ("Example " + app_id),
        "ApplicationIdentifierPrefix": [team],
        "CreationDate": created,
        "ExpirationDate": expires,
        "DeveloperCertificates": [c.der for c in certs],
        "Entitlements": ent,
        "IsXcodeManaged": xcode_managed,
        "Name": name,
        "Platform": list(platform) if platform else None,
        "PPQCheck": ppq,
        "TeamIdentifier": [team],
        "TeamName": team_name,
        "TimeToLive": (expires - created).days,
        "UUID": uuid_for(label),
        "Version": 1,
    }
    if devices is not None:
        p["ProvisionedDevices"] = devices
    if all_devices is not None:
        p["ProvisionsAllDevices"] = all_devices
    if extra:
        p["ExtraKeyForTests"] = {"purpose": "unknown keys must be kept", "n": 42}
    p["DER-Encoded-Profile"] = der_encoded_profile(
        [("Name", name), ("UUID", p["UUID"]), ("TeamIdentifier", team), ("Version", 1),
         ("CreationDate", created), ("ExpirationDate", expires)], certs, signer, ca)
    for k in omit:
        p.pop(k, None)
    return {k: v for k, v in p.items() if v is not None}


def xml(p):
    return plistlib.dumps(p, fmt=plistlib.FMT_XML, sort_keys=True)


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def chunk_econtent(data, size):
    """Definite-length DER in, eContent re-encoded as a constructed OCTET STRING of `size` chunks."""
    root = der.parse(data)
    assert root.encode() == data, "input is not minimal definite-length DER"
    explicit0 = der.encap_content(der.signed_data(root)).children[1]
    octet = explicit0.children[0]
    assert octet.tag == 0x04
    body = octet.content
    chunks = [der.Node(0x04, 0, 0, False, content=body[i:i + size]) for i in range(0, len(body), size)]
    explicit0.children[0] = der.Node(0x24, 0, 0, False, children=chunks)
    return root.encode()


def duplicate_first_cert(data):
    root = der.parse(data)
    assert root.encode() == data
    certs = der.certificates(der.signed_data(root))
    certs.children.append(certs.children[0])
    return root.encode()


def main():
    for d in (CERTS, PROFILES, LENIENT, MALFORMED):
        os.makedirs(d, exist_ok=True)
    c = make_certs()
    ca, signer = c["ca"], c["signer"]
    for label, cert in c.items():
        write(os.path.join(CERTS, label + ".der"), cert.der)
    write(os.path.join(CERTS, "ca.pem"), open(ca.pem, "rb").read())
    write(os.path.join(CERTS, "signer.pem"), open(signer.pem, "rb").read())

    ios_devices = [udid(i) for i in range(3)]
    mac_devices = [udid(i, "mac") for i in range(2)]
    common = dict(signer=signer, ca=ca)
    E27 = D(2027, 1, 15, 10)

    specs = {}
    specs["ios-development.mobileprovision"] = profile(
        "ios-development", name="iOS Team Provisioning Profile: com.example.app",
        app_id="com.example.app", certs=[c["dev_jane"], c["dev_zh"]], expires=E27,
        devices=ios_devices, xcode_managed=True, app_id_name="XC com example app",
        entitlements={"get-task-allow": True, "aps-environment": "development",
                      "com.apple.developer.associated-domains": ["applinks:example.com"],
                      "com.apple.developer.icloud-container-identifiers": ["iCloud.com.example.app"]},
        **common)
    specs["ios-adhoc.mobileprovision"] = profile(
        "ios-adhoc", name="Example App AdHoc", app_id="com.example.app", certs=[c["dist"]],
        expires=D(2026, 12, 1, 10), devices=[udid(i) for i in range(5)],
        entitlements={"get-task-allow": False, "aps-environment": "production"}, **common)
    specs["ios-widget-adhoc.mobileprovision"] = profile(
        "ios-widget-adhoc", name="Example Widget AdHoc", app_id="com.example.app.widget",
        certs=[c["dist"]], expires=D(2026, 12, 1, 10), devices=[udid(i) for i in range(5)],
        entitlements={"get-task-allow": False}, **common)
    specs["ios-appstore.mobileprovision"] = profile(
        "ios-appstore", name="Example App Store", app_id="com.example.app", certs=[c["dist"]],
        expires=E27, entitlements={"get-task-allow": False, "beta-reports-active": True,
                                   "aps-environment": "production"}, **common)
    specs["ios-enterprise.mobileprovision"] = profile(
        "ios-enterprise", name="Example Enterprise In House", app_id="com.example.enterprise",
        certs=[c["ent_dist"]], expires=E27, team="ENTRP12345", team_name="Example Enterprise Inc.",
        all_devices=True, entitlements={"get-task-allow": False}, **common)
    specs["tvos-appstore.mobileprovision"] = profile(
        "tvos-appstore", name="Example TV App Store", app_id="com.example.tv", certs=[c["dist"]],
        expires=D(2026, 10, 15, 10), platform=("tvOS",),
        entitlements={"get-task-allow": False, "beta-reports-active": True}, **common)
    specs["visionos-development.mobileprovision"] = profile(
        "visionos-development", name="visionOS Team Provisioning Profile: com.example.vision",
        app_id="com.example.vision", certs=[c["dev_long"]], expires=E27, platform=("xrOS", "visionOS"),
        devices=[udid(i) for i in range(10, 12)], xcode_managed=True,
        entitlements={"get-task-allow": True}, **common)
    specs["macos-development.provisionprofile"] = profile(
        "macos-development", name="Mac Team Provisioning Profile: com.example.mac",
        app_id="com.example.mac", certs=[c["dev_jane"]], expires=E27, platform=("OSX",),
        devices=mac_devices, xcode_managed=True, mac_app_id=True,
        entitlements={"com.apple.developer.aps-environment": "development"}, **common)
    specs["macos-developer-id.provisionprofile"] = profile(
        "macos-developer-id", name="Example Mac Developer ID", app_id="com.example.mac",
        certs=[c["devid"]], expires=E27, platform=("OSX",), all_devices=True, mac_app_id=True,
        **common)
    specs["macos-appstore.provisionprofile"] = profile(
        "macos-appstore", name="Example Mac App Store", app_id="com.example.mac", certs=[c["mas"]],
        expires=E27, platform=("OSX",), mac_app_id=True,
        entitlements={"com.apple.developer.aps-environment": "production"}, **common)
    # Mac Catalyst: a macOS profile (Platform OSX) for a maccatalyst.* app id; entitlements carry
    # both application-identifier keys with the same value.
    specs["catalyst.provisionprofile"] = profile(
        "catalyst", name="Mac Catalyst Team Provisioning Profile: maccatalyst.com.example.app",
        app_id="maccatalyst.com.example.app", certs=[c["dev_jane"]], expires=E27, platform=("OSX",),
        devices=mac_devices, xcode_managed=True, mac_app_id="both",
        entitlements={"get-task-allow": True, "aps-environment": "development"}, **common)
    specs["legacy-2013.mobileprovision"] = profile(
        "legacy-2013", name="Legacy Wildcard Development", app_id="*", certs=[c["dev_2013"]],
        created=D(2013, 5, 20, 8, 30), expires=D(2014, 5, 20, 8, 30), platform=None,
        devices=[udid(i) for i in range(0, 4, 2)], app_id_name="Xcode: Wildcard AppID",
        entitlements={"get-task-allow": True}, extra=False,
        omit=("IsXcodeManaged", "PPQCheck"), **common)
    specs["wildcard.mobileprovision"] = profile(
        "wildcard", name="Example Wildcard Development", app_id="com.example.*",
        certs=[c["dev_jane"]], expires=D(2026, 7, 15, 10), devices=ios_devices,
        entitlements={"get-task-allow": True}, **common)
    lower = profile(
        "lowercase-uuid", name="Example Lowercase UUID", app_id="com.example.lower", certs=[c["dist"]],
        expires=D(2026, 9, 1, 10), entitlements={"get-task-allow": False}, **common)
    lower["UUID"] = lower["UUID"].lower()
    specs["lowercase-uuid.mobileprovision"] = lower
    specs["ber-indefinite.mobileprovision"] = profile(
        "ber-indefinite", name="Example BER Indefinite (100 devices)", app_id="com.example.ber",
        certs=[c["dev_jane"]], expires=E27, devices=[udid(i) for i in range(100, 200)],
        entitlements={"get-task-allow": True}, **common)
    specs["chunked-econtent.mobileprovision"] = profile(
        "chunked-econtent", name="Example Chunked eContent", app_id="com.example.chunked",
        certs=[c["dist"]], expires=E27, devices=[udid(i) for i in range(20, 40)],
        entitlements={"get-task-allow": False}, **common)
    specs["duplicate-certs.mobileprovision"] = profile(
        "duplicate-certs", name="Example Duplicate Envelope Certificates", app_id="com.example.dup",
        certs=[c["dev_jane"]], expires=E27, devices=ios_devices,
        entitlements={"get-task-allow": True}, **common)
    specs["cert-expires-first.mobileprovision"] = profile(
        "cert-expires-first", name="Example Certificates Expire First", app_id="com.example.early",
        certs=[c["old_a"], c["old_b"], c["old_c"]], created=D(2025, 6, 1, 10), expires=E27,
        devices=ios_devices, entitlements={"get-task-allow": True}, **common)
    uni = profile(
        "unicode-names", name="@@NAME@@", app_id="com.example.unicode", certs=[c["dev_zh"]],
        expires=E27, team_name="@@TEAM@@", app_id_name="@@APPID@@", devices=ios_devices,
        entitlements={"get-task-allow": True}, **common)
    bare = profile(
        "bare-plist", name="Example Bare XML Plist", app_id="com.example.bare", certs=[c["dev_jane"]],
        expires=E27, devices=ios_devices, entitlements={"get-task-allow": True}, **common)
    bare_bin = profile(
        "bare-binary", name="Example Bare Binary Plist", app_id="com.example.barebin",
        certs=[c["dist"]], expires=E27, entitlements={"get-task-allow": False}, **common)

    for fname, p in specs.items():
        out = os.path.join(PROFILES, fname)
        body = xml(p)
        if fname == "ber-indefinite.mobileprovision":
            cms_sign(body, signer, ca, out, stream=True)
        elif fname == "legacy-2013.mobileprovision":
            cms_sign(body, signer, ca, out, md="sha1")
        else:
            data = cms_sign(body, signer, ca, out)
            if fname == "chunked-econtent.mobileprovision":
                write(out, chunk_econtent(data, 1000))
            elif fname == "duplicate-certs.mobileprovision":
                write(out, duplicate_first_cert(data))

    # Numeric character references, &amp; and &apos; can only come from hand-written XML.
    body = xml(uni).decode("utf-8")
    body = body.replace("@@NAME@@", "&#32418;&#33394; Team&apos;s App &amp; Co &#8212; Ünïcødé 🚀")
    body = body.replace("@@TEAM@@", "Ex&amp;mple &apos;Corp&apos; 株式会社 &#x00C9;quipe")
    body = body.replace("@@APPID@@", "Caf&#233; &lt;Unicode&gt;")
    cms_sign(body.encode("utf-8"), signer, ca, os.path.join(PROFILES, "unicode-names.mobileprovision"))

    write(os.path.join(PROFILES, "bare-plist.mobileprovision"), xml(bare))
    write(os.path.join(PROFILES, "bare-binary.mobileprovision"),
          plistlib.dumps(bare_bin, fmt=plistlib.FMT_BINARY, sort_keys=True))

    # ----- lenient: a part is not quite right, the rest must still be read
    undecodable = profile(
        "undecodable-certificates", name="Example Undecodable Certificates", app_id="com.example.undecodable",
        certs=[c["old_b"]], created=D(2025, 6, 1, 10), expires=E27, devices=ios_devices,
        entitlements={"get-task-allow": True}, **common)
    # An empty <data/> and bytes that are not DER (PEM text) around the one good certificate, whose
    # 2026-05-15 notAfter alone decides the effective expiry.
    undecodable["DeveloperCertificates"] = [b"", c["old_b"].der, b"-----BEGIN CERTIFICATE-----\nnot DER\n"]
    cms_sign(xml(undecodable), signer, ca, os.path.join(LENIENT, "undecodable-certificates.mobileprovision"))
    trailing = profile(
        "trailing-newline", name="Example Trailing Newline", app_id="com.example.trailing", certs=[c["dist"]],
        expires=E27, entitlements={"get-task-allow": False}, **common)
    signed = cms_sign(xml(trailing), signer, ca, os.path.join(WORK, "trailing.der"))
    # A newline added by a download or a copy-paste: openssl still reads it.
    write(os.path.join(LENIENT, "trailing-newline.mobileprovision"), signed + b"\n")
    # Far more than a line ending after the envelope stays an error.
    write(os.path.join(MALFORMED, "trailing-garbage.mobileprovision"), signed + b"\r\n" * 40)

    # ----- malformed profiles
    os.makedirs(MALFORMED, exist_ok=True)
    write(os.path.join(MALFORMED, "empty.mobileprovision"), b"")
    good = open(os.path.join(PROFILES, "ios-development.mobileprovision"), "rb").read()
    write(os.path.join(MALFORMED, "truncated.mobileprovision"), good[:len(good) // 2])
    rnd = random.Random(20260115)
    garbage = bytes(rnd.getrandbits(8) for _ in range(4096))
    # never let the first byte look like a SEQUENCE, '<' or "bplist"
    write(os.path.join(MALFORMED, "garbage.mobileprovision"), b"\x9c" + garbage[1:])
    wrong = profile("wrong-types", name="Example Wrong Types", app_id="com.example.wrong",
                    certs=[c["dev_jane"]], expires=E27, devices=ios_devices, **common)
    wrong["UUID"] = 12345
    wrong["ExpirationDate"] = "2027-01-15T10:00:00Z"
    wrong["ProvisionedDevices"] = "00008030-001A2B3C4D5E6F70"
    cms_sign(xml(wrong), signer, ca, os.path.join(MALFORMED, "wrong-types.mobileprovision"))
    missing = profile("missing-uuid", name="Example Missing UUID", app_id="com.example.missing",
                      certs=[c["dist"]], expires=E27, omit=("UUID",), **common)
    cms_sign(xml(missing), signer, ca, os.path.join(MALFORMED, "missing-uuid.mobileprovision"))
    # A well-formed DER ContentInfo, but of type id-data (1.2.840.113549.1.7.1), not SignedData.
    not_cms = der.seq(der.oid("1.2.840.113549.1.7.1"),
                      der.explicit(0, der.octets(xml(missing))))
    write(os.path.join(MALFORMED, "not-cms.mobileprovision"), not_cms)


if __name__ == "__main__":
    main()
