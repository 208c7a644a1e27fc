#!/usr/bin/env python3
"""Generate the signature fixtures: profiles whose CMS signature, chain or DER copy is tampered.

Everything is built here in Python (stdlib only): RSA keys are derived from fixed seeds (so a clean
clone regenerates byte-identical files without any stored key), certificates and CMS envelopes are
assembled with der.py, and signatures are RSA PKCS#1 v1.5 with SHA-256 computed with pow().
Unlike make_profiles.py's openssl `-noattr` envelopes, these carry signed attributes (content type,
signing time, message digest), like Apple's. openssl then checks, independently, that each file is
or is not acceptable (see check()).

Outputs: Fixtures/signatures/*.mobileprovision, root.pem (the test root), apple-lookalike-root.der.
Expected statuses: Fixtures/README.md and Tests/CatalogCoreTests/SignatureFixtureTests.swift.
"""

import datetime as dt
import hashlib
import os
import plistlib
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import der  # noqa: E402

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # Fixtures/
OUT = os.path.join(HERE, "signatures")

SHA256_RSA = der.seq(der.oid("1.2.840.113549.1.1.11"), der.null())
RSA_ENCRYPTION = der.seq(der.oid("1.2.840.113549.1.1.1"), der.null())
SHA256 = der.seq(der.oid("2.16.840.1.101.3.4.2.1"), der.null())
DIGEST_INFO_SHA256 = bytes.fromhex("3031300d060960864801650304020105000420")


def D(y, mo, d, h=0, mi=0, s=0):
    return dt.datetime(y, mo, d, h, mi, s)


# ---------------------------------------------------------------------------------------------
# Deterministic RSA


def is_probable_prime(n, rnd):
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d //= 2
        r += 1
    for _ in range(40):
        a = rnd.randrange(2, n - 2)
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


class Key:
    """An RSA-2048 key derived from `seed`: the same seed always gives the same key."""

    def __init__(self, seed):
        rnd = random.Random("catalog-signature-fixture-" + seed)
        self.e = 65537
        while True:
            p, q = self._prime(rnd), self._prime(rnd)
            n = p * q
            phi = (p - 1) * (q - 1)
            if p != q and n.bit_length() == 2048 and phi % self.e != 0:
                break
        self.n, self.d = n, pow(self.e, -1, phi)

    def _prime(self, rnd):
        while True:
            c = rnd.getrandbits(1024) | (1 << 1023) | (1 << 1022) | 1
            if is_probable_prime(c, rnd):
                return c

    def spki(self):
        rsa_public = der.seq(der.integer(self.n), der.integer(self.e))
        return der.seq(RSA_ENCRYPTION, der.bitstring(rsa_public))

    def sign(self, message):
        """RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 §8.2): deterministic."""
        t = DIGEST_INFO_SHA256 + hashlib.sha256(message).digest()
        k = (self.n.bit_length() + 7) // 8
        em = b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t
        return pow(int.from_bytes(em, "big"), self.d, self.n).to_bytes(k, "big")


# ---------------------------------------------------------------------------------------------
# Certificates


def name(rdns, printable=False):
    oids = {"CN": "2.5.4.3", "OU": "2.5.4.11", "O": "2.5.4.10", "C": "2.5.4.6"}
    return der.seq(*[der.set_(der.seq(der.oid(oids[a]), der.printable(v) if printable or a == "C" else der.utf8(v)))
                     for a, v in rdns])


def ext(oid_, critical, value):
    return der.seq(der.oid(oid_), *([der.boolean(True)] if critical else []), der.octets(value))


class Cert:
    def __init__(self, subject, serial, not_before, not_after, key, issuer=None, ca=False):
        self.subject, self.key, self.serial = subject, key, serial
        issuer = issuer or self
        exts = [ext("2.5.29.19", True, der.seq(der.boolean(True)) if ca else der.seq()),
                ext("2.5.29.15", True, der.tlv(0x03, b"\x01\x06" if ca else b"\x07\x80"))]
        self.issuer_name = issuer.subject
        self.tbs = der.seq(der.explicit(0, der.integer(2)), der.integer(serial), SHA256_RSA, issuer.subject,
                           der.seq(der.time(not_before), der.time(not_after)), subject, key.spki(),
                           der.explicit(3, der.seq(*exts)))
        self.der = der.seq(self.tbs, SHA256_RSA, der.bitstring(issuer.key.sign(self.tbs)))

    def pem(self):
        import base64
        b = base64.b64encode(self.der).decode()
        return "-----BEGIN CERTIFICATE-----\n%s\n-----END CERTIFICATE-----\n" % "\n".join(
            b[i:i + 64] for i in range(0, len(b), 64))


# ---------------------------------------------------------------------------------------------
# CMS SignedData (RFC 5652), DER


def attribute(oid_, value):
    return der.seq(der.oid(oid_), der.set_(value))


def signed_attributes(content, signing_time, digest=None):
    return [attribute("1.2.840.113549.1.9.3", der.oid("1.2.840.113549.1.7.1")),
            attribute("1.2.840.113549.1.9.5", der.time(signing_time)),
            attribute("1.2.840.113549.1.9.4", der.octets(digest or hashlib.sha256(content).digest()))]


def signer_info(signer, content, signing_time, attrs=None, signature=None):
    attrs = attrs if attrs is not None else signed_attributes(content, signing_time)
    signed = der.set_of_sorted(*attrs)                    # what is signed: the SET OF (tag 0x31)
    signature = signature or signer.key.sign(signed)
    return der.seq(der.integer(1), der.seq(signer.issuer_name, der.integer(signer.serial)), SHA256,
                   b"\xa0" + signed[1:],                  # stored as [0] IMPLICIT
                   RSA_ENCRYPTION, der.octets(signature))


def envelope(content, certs, signer_infos):
    signed_data = der.seq(der.integer(1), der.set_(SHA256),
                          der.seq(der.oid("1.2.840.113549.1.7.1"), der.explicit(0, der.octets(content))),
                          der.tlv(0xA0, b"".join(c.der for c in certs)),
                          der.set_(*signer_infos))
    return der.seq(der.oid("1.2.840.113549.1.7.2"), der.explicit(0, signed_data))


def sign(content, signer, certs, signing_time):
    return envelope(content, certs, [signer_info(signer, content, signing_time)])


# ---------------------------------------------------------------------------------------------
# The profile and its DER copy (Apple's DER-plist encoding)


def uuid_for(label):
    """Each fixture its own UUID, so an ingest keeps them apart."""
    h = hashlib.sha256(("catalog-signature-" + label).encode()).hexdigest().upper()
    return "%s-%s-4%s-A%s-%s" % (h[:8], h[8:12], h[13:16], h[17:20], h[20:32])


TEAM = "TEAM123456"
CREATED = D(2026, 1, 15, 10)
EXPIRES = D(2027, 1, 15, 10)
DEVICES = ["00008030-001A2B3C4D5E6F70", "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"]
ENTITLEMENTS = {"application-identifier": TEAM + ".com.example.signed", "get-task-allow": True,
                "keychain-access-groups": [TEAM + ".*"], "com.apple.developer.team-identifier": TEAM}


def der_value(v):
    if isinstance(v, bool):
        return der.boolean(v)
    if isinstance(v, int):
        return der.integer(v)
    if isinstance(v, dt.datetime):
        return der.time(v)
    if isinstance(v, list):
        return der.seq(*[der_value(x) for x in v])
    if isinstance(v, dict):
        return der.tlv(0xB0, b"".join(der.seq(der.utf8(k), der_value(v[k])) for k in sorted(v)))
    return der.utf8(v)


def der_copy(fields, signer, certs):
    pairs = []
    for k, v in fields.items():
        enc = der.tlv(0x70, der.integer(1) + der_value(v)) if k == "Entitlements" else der_value(v)
        pairs.append(der.seq(der.utf8(k), enc))
    payload = der.set_of_sorted(*pairs)
    return sign(payload, signer, certs, CREATED)


def plist(label, signer, certs, der_name="Example Signed Profile"):
    fields = {"Name": "Example Signed Profile", "UUID": uuid_for(label), "TeamIdentifier": [TEAM], "TeamName": "Example Corp",
              "CreationDate": CREATED, "ExpirationDate": EXPIRES, "ProvisionedDevices": DEVICES,
              "Entitlements": ENTITLEMENTS, "Version": 1}
    copy = dict(fields, Name=der_name)
    p = dict(fields, AppIDName="Example Signed", ApplicationIdentifierPrefix=[TEAM], Platform=["iOS"],
             DeveloperCertificates=[], IsXcodeManaged=False, TimeToLive=365,
             **{"DER-Encoded-Profile": der_copy(copy, signer, certs)})
    return plistlib.dumps(p, fmt=plistlib.FMT_XML, sort_keys=True)


# ---------------------------------------------------------------------------------------------


def write(name_, data):
    with open(os.path.join(OUT, name_), "wb") as f:
        f.write(data)


def check(root_pem):
    """openssl's independent opinion: the files expected to verify do, the others do not. openssl
    ignores the signing time, so each file is checked at its own signing time."""
    attime = {"expired-since-signing.mobileprovision": D(2013, 3, 1, 12),
              "signed-before-valid.mobileprovision": D(2024, 6, 1)}
    expect_ok = {"good.mobileprovision", "der-mismatch.mobileprovision", "expired-since-signing.mobileprovision"}
    with tempfile.NamedTemporaryFile("w", suffix=".pem", delete=False) as f:
        f.write(root_pem)
    try:
        for fname in sorted(os.listdir(OUT)):
            if not fname.endswith(".mobileprovision"):
                continue
            r = subprocess.run(["openssl", "cms", "-verify", "-inform", "DER", "-in", os.path.join(OUT, fname),
                                "-CAfile", f.name, "-purpose", "any", "-attime",
                                str(int(attime.get(fname, CREATED).replace(tzinfo=dt.timezone.utc).timestamp())), "-out", os.devnull],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            ok = r.returncode == 0
            if ok != (fname in expect_ok):
                sys.stderr.write(r.stderr.decode(errors="replace"))
                raise SystemExit("make_signatures: openssl %s %s" % ("accepts" if ok else "rejects", fname))
    finally:
        os.unlink(f.name)


def main():
    os.makedirs(OUT, exist_ok=True)
    root = Cert(name([("CN", "Catalog Test Signature Root"), ("O", "Catalog Tests"), ("C", "US")]),
                1, D(2010, 1, 1), D(2045, 1, 1), Key("root"), ca=True)
    inter = Cert(name([("CN", "Catalog Test Signature Intermediate"), ("O", "Catalog Tests"), ("C", "US")]),
                 2, D(2010, 1, 1), D(2040, 1, 1), Key("intermediate"), root, ca=True)
    signer = Cert(name([("CN", "Catalog Test Profile Signing"), ("O", "Catalog Tests"), ("C", "US")]),
                  3, D(2025, 1, 1), D(2030, 1, 1), Key("signer"), inter)
    chain = [signer, inter, root]
    write("root.pem", root.pem().encode())

    # 1. the reference: verifies against root.pem
    body = plist("good", signer, chain)
    write("good.mobileprovision", sign(body, signer, chain, CREATED))

    # 2. one byte of the plist changed after signing (in the Name)
    body = plist("plist-edited", signer, chain)
    i = body.index(b"Example Signed Profile")
    write("plist-edited.mobileprovision", sign(body, signer, chain, CREATED).replace(
        body, body[:i] + b"X" + body[i + 1:]))

    # 3. re-signed with a non-Apple, non-test key: a self-made signer with the same name
    rogue_key = Key("rogue")
    rogue = Cert(signer.subject, 3, D(2025, 1, 1), D(2030, 1, 1), rogue_key)
    body = plist("resigned-other-key", signer, chain)
    write("resigned-other-key.mobileprovision", sign(body, rogue, [rogue, inter, root], CREATED))

    # 4. the SignerInfo removed (empty SignerInfos SET)
    body = plist("signer-removed", signer, chain)
    write("signer-removed.mobileprovision", envelope(body, chain, []))

    # 5. the signature's last byte flipped
    body = plist("signature-flipped", signer, chain)
    info = signer_info(signer, body, CREATED)
    sig = signer.key.sign(der.set_of_sorted(*signed_attributes(body, CREATED)))
    flipped = sig[:-1] + bytes([sig[-1] ^ 0xFF])
    write("signature-flipped.mobileprovision",
          envelope(body, chain, [signer_info(signer, body, CREATED, signature=flipped)]))
    assert info != signer_info(signer, body, CREATED, signature=flipped)

    # 6. the message-digest attribute changed, and the attributes re-signed with the real key: the
    #    signature is sound, only the digest check can catch it
    body = plist("digest-attribute-changed", signer, chain)
    wrong = bytearray(hashlib.sha256(body).digest())
    wrong[0] ^= 0x01
    attrs = signed_attributes(body, CREATED, digest=bytes(wrong))
    write("digest-attribute-changed.mobileprovision",
          envelope(body, chain, [signer_info(signer, body, CREATED, attrs=attrs)]))

    # 7. the intermediate left out of the envelope
    body = plist("intermediate-missing", signer, chain)
    write("intermediate-missing.mobileprovision", sign(body, signer, [signer, root], CREATED))

    # 8. a self-made "Apple Root CA": Apple's exact subject name, another key; with a look-alike
    #    WWDR intermediate and profile signer under it
    apple_root_name = name([("C", "US"), ("O", "Apple Inc."), ("OU", "Apple Certification Authority"),
                            ("CN", "Apple Root CA")], printable=True)
    fake_root = Cert(apple_root_name, 2, D(2006, 4, 25, 21, 40, 36), D(2035, 2, 9, 21, 40, 36),
                     Key("fake-apple-root"), ca=True)
    fake_wwdr = Cert(name([("CN", "Apple Worldwide Developer Relations Certification Authority"), ("OU", "G5"),
                           ("O", "Apple Inc."), ("C", "US")], printable=True),
                     0x1001, D(2020, 12, 16), D(2030, 12, 10), Key("fake-wwdr"), fake_root, ca=True)
    fake_signer = Cert(name([("CN", "Apple iPhone OS Provisioning Profile Signing"), ("O", "Apple Inc."),
                             ("C", "US")], printable=True),
                       0x2002, D(2025, 1, 1), D(2029, 12, 11), Key("fake-signer"), fake_wwdr)
    write("fake-apple-root.mobileprovision",
          sign(plist("fake-apple-root", fake_signer, [fake_signer, fake_wwdr, fake_root]), fake_signer,
               [fake_signer, fake_wwdr, fake_root], CREATED))
    write("apple-lookalike-root.der", fake_root.der)

    # 9. the DER copy disagrees with the XML (another Name); signature and chain are sound
    write("der-mismatch.mobileprovision",
          sign(plist("der-mismatch", signer, chain, der_name="Another Name"), signer, chain, CREATED))

    # 10. signed in 2013 by a signer that expired in 2014: valid at the signing time
    old_signer = Cert(name([("CN", "Catalog Test Profile Signing"), ("O", "Catalog Tests"), ("C", "US")]),
                      4, D(2012, 1, 1), D(2014, 1, 1), Key("old-signer"), inter)
    body = plist("expired-since-signing", signer, chain)
    write("expired-since-signing.mobileprovision",
          sign(body, old_signer, [old_signer, inter, root], D(2013, 3, 1, 12)))

    # 11. signed when the signer was not yet valid (signing time before notBefore)
    body = plist("signed-before-valid", signer, chain)
    write("signed-before-valid.mobileprovision", sign(body, signer, chain, D(2024, 6, 1)))

    # 12. a leaf (not a CA) issuing the signer: a developer certificate must not act as a CA
    leaf = Cert(name([("CN", "Apple Development: Jane Doe (ABCDE12345)"), ("O", "Example Corp"), ("C", "US")]),
                5, D(2025, 1, 1), D(2030, 1, 1), Key("developer-leaf"), inter)
    forged = Cert(signer.subject, 6, D(2025, 1, 1), D(2030, 1, 1), Key("forged-signer"), leaf)
    body = plist("leaf-as-issuer", signer, chain)
    write("leaf-as-issuer.mobileprovision", sign(body, forged, [forged, leaf, inter, root], CREATED))

    check(root.pem())


if __name__ == "__main__":
    main()
