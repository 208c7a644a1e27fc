#!/usr/bin/env bash
# Regenerate every fixture under Fixtures/ (OpenSSL 3 + python3 stdlib only).
# Usage: bash Fixtures/generate.sh   (from any directory)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

command -v python3 >/dev/null || { echo "generate.sh: python3 is required" >&2; exit 1; }
# The scripts need OpenSSL 3 (`openssl cms`, `genpkey -pkeyopt`, `x509 -fingerprint -sha256`…). macOS
# ships LibreSSL as /usr/bin/openssl, which differs in those: checked here, before anything is deleted.
openssl_version="$(openssl version 2>/dev/null || true)"
if ! [[ "$openssl_version" =~ ^OpenSSL\ ([0-9]+)\. ]] || [ "${BASH_REMATCH[1]}" -lt 3 ]; then
    {
        echo "generate.sh: needs OpenSSL 3 or later as \`openssl\` on PATH;"
        echo "  found: ${openssl_version:-no openssl} ($(command -v openssl || echo 'not on PATH'))."
        echo "  On macOS (which ships LibreSSL) install OpenSSL with Homebrew and put it first on PATH:"
        echo "    brew install openssl@3"
        echo "    export PATH=\"\$(brew --prefix openssl@3)/bin:\$PATH\""
        echo "  On Debian/Ubuntu: apt-get install openssl. Nothing was changed."
    } >&2
    exit 1
fi

# The test-only signing keys are git-ignored (committed private keys trip secret scanners) but the
# set the committed fixtures were signed with is in the history: restore it when keys/ is missing,
# so regenerating changes only what a script change changes. Without git (or that commit), fresh
# keys are made and every signed output changes with expected.json.
keys_commit=3126a19
if [ ! -d "$here/keys" ] && git -C "$here" cat-file -e "$keys_commit^:Fixtures/keys" 2>/dev/null; then
    mkdir -p "$here/keys"
    for key in $(git -C "$here" ls-tree --full-tree --name-only "$keys_commit^:Fixtures/keys"); do
        git -C "$here" show "$keys_commit^:Fixtures/keys/$key" > "$here/keys/$key"
    done
    echo "generate.sh: restored the fixture signing keys from commit $keys_commit^"
fi

# Outputs are recreated from scratch; keys/ is kept so regenerated files are byte-identical.
rm -rf "$here/certs" "$here/profiles" "$here/renewals" "$here/report" "$here/plists" "$here/bundles" "$here/ipa" \
    "$here/malformed" "$here/signatures" "$here/lenient" "$here/codesign" "$here/integrity" "$here/dsyms"
rm -f "$here/expected.json"

python3 "$here/scripts/make_profiles.py"   # certs/, profiles/, malformed/*.mobileprovision, lenient/ profiles
python3 "$here/scripts/make_renewals.py"   # renewals/: profiles that supersede others, and some that do not
python3 "$here/scripts/make_report_fixtures.py"   # report/: a profile whose name, team and app id carry markup
python3 "$here/scripts/make_bundles.py"    # plists/, bundles/, ipa/, malformed/ bundle inputs, lenient/ IPA
python3 "$here/scripts/make_codesign.py"   # codesign/, integrity/: signed Mach-O binaries, sealed builds, tampered ones
python3 "$here/scripts/make_app_zips.py"   # codesign/*.zip: SignedMac.app zipped as ditto does (and tampered), a zip of two apps
python3 "$here/scripts/make_dsyms.py"   # dsyms/: loose, zipped and App Store Connect dSYMs (of symbolication/ and codesign/)
python3 "$here/scripts/make_crash_reports.py"   # crash/: .ips and .crash reports of the codesign builds (their UUIDs)
python3 "$here/scripts/check_integrity.py" # fails unless each integrity/ build breaks exactly what expected.json says
python3 "$here/scripts/make_expected.py"   # expected.json, from the files via openssl + plistlib
python3 "$here/scripts/make_signatures.py"  # signatures/: tampered signatures, chains and DER copies (own seeded keys)
bash "$here/scripts/check_envelopes.sh"    # asn1parse proof of the BER/chunked/duplicate forms
# Generic zip edge cases (Fixtures/zip/) are owned by make_zips.py, written separately.
[ -f "$here/scripts/make_zips.py" ] && python3 "$here/scripts/make_zips.py"
python3 "$here/scripts/make_fuzz_regressions.py"   # fuzz-regressions/: inputs the Fuzz/ targets crashed on
echo "fixtures regenerated under $here"
