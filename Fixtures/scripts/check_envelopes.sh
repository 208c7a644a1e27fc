#!/usr/bin/env bash
# Prove the envelope forms the BER fixtures exist for, with openssl asn1parse (not our own parser),
# and that every signed profile verifies against the fake CA. Exits non-zero on any mismatch.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
p="$here/profiles"
fail() { echo "check_envelopes: $*" >&2; exit 1; }

# 1. ber-indefinite: starts 30 80, eContent is a constructed indefinite OCTET STRING with >1 chunk.
f="$p/ber-indefinite.mobileprovision"
[ "$(head -c 2 "$f" | od -An -tx1 | tr -d ' \n')" = "3080" ] || fail "ber-indefinite does not start with 30 80"
a="$(openssl asn1parse -inform DER -in "$f" -i)"
grep -qE 'l=inf +cons: +OCTET STRING' <<<"$a" || fail "ber-indefinite eContent is not 24 80"
n=$(grep -cE 'd=6 +hl=[0-9]+ +l= *[0-9]+ +prim: +OCTET STRING' <<<"$a" || true)
[ "$n" -ge 2 ] || fail "ber-indefinite eContent has $n chunks"
echo "ber-indefinite: 30 80 ..., eContent 24 80 with $n OCTET STRING chunks"

# 2. chunked-econtent: definite lengths throughout, eContent constructed (24 len) with >1 chunk.
f="$p/chunked-econtent.mobileprovision"
a="$(openssl asn1parse -inform DER -in "$f" -i)"
! grep -q 'l=inf' <<<"$a" || fail "chunked-econtent has an indefinite length"
grep -qE 'd=5 +hl=[0-9]+ +l= *[0-9]+ +cons: +OCTET STRING' <<<"$a" || fail "chunked-econtent eContent not constructed"
n=$(grep -cE 'd=6 +hl=[0-9]+ +l= *[0-9]+ +prim: +OCTET STRING' <<<"$a" || true)
[ "$n" -ge 2 ] || fail "chunked-econtent has $n chunks"
echo "chunked-econtent: definite-length, eContent constructed OCTET STRING with $n chunks"

# 3. duplicate-certs: the certificates [0] SET holds the same certificate twice.
f="$p/duplicate-certs.mobileprovision"
n=$(openssl pkcs7 -inform DER -in "$f" -print_certs | grep -c '^subject=')
u=$(openssl pkcs7 -inform DER -in "$f" -print_certs | grep '^subject=' | sort -u | wc -l)
[ "$n" -eq 3 ] && [ "$u" -eq 2 ] || fail "duplicate-certs holds $n certs, $u distinct"
echo "duplicate-certs: $n certificates in the SET, $u distinct"

# 4. every signed profile verifies (signature + chain to the fake CA; -purpose any, dates ignored).
for f in "$p"/*.mobileprovision "$p"/*.provisionprofile; do
  case "$f" in */bare-*) continue ;; esac
  openssl cms -verify -inform DER -in "$f" -CAfile "$here/certs/ca.pem" -purpose any \
      -no_check_time -out /dev/null 2>/dev/null || fail "$(basename "$f") does not verify"
done
echo "all signed profiles verify against certs/ca.pem"
