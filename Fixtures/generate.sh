#!/usr/bin/env bash
# Regenerate every fixture under Fixtures/ (openssl + python3 stdlib only).
# Usage: bash Fixtures/generate.sh   (from any directory)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

command -v openssl >/dev/null || { echo "generate.sh: openssl is required" >&2; exit 1; }
command -v python3 >/dev/null || { echo "generate.sh: python3 is required" >&2; exit 1; }

# Outputs are recreated from scratch; keys/ is kept so regenerated files are byte-identical.
rm -rf "$here/certs" "$here/profiles" "$here/plists" "$here/bundles" "$here/ipa" "$here/malformed"
rm -f "$here/expected.json"

python3 "$here/scripts/make_profiles.py"   # certs/, profiles/, malformed/*.mobileprovision
python3 "$here/scripts/make_bundles.py"    # plists/, bundles/, ipa/, malformed/ bundle inputs
python3 "$here/scripts/make_expected.py"   # expected.json, from the files via openssl + plistlib
bash "$here/scripts/check_envelopes.sh"    # asn1parse proof of the BER/chunked/duplicate forms
# Generic zip edge cases (Fixtures/zip/) are owned by make_zips.py, written separately.
[ -f "$here/scripts/make_zips.py" ] && python3 "$here/scripts/make_zips.py"
python3 "$here/scripts/make_fuzz_regressions.py"   # fuzz-regressions/: inputs the Fuzz/ targets crashed on
echo "fixtures regenerated under $here"
