#!/usr/bin/env bash
# Build one libFuzzer target and run it for SECONDS, seeded from Fixtures/ (copied, never modified).
# Usage: Fuzz/run.sh TARGET SECONDS [extra libFuzzer flags…]
#   TARGET: ber | x509 | profile | infoplist | zip | decode | signature | macho | codesignature | coderesources | crashreport
# Needs Linux Swift (swiftc -sanitize=fuzzer,address), zlib and libcrypto dev packages.
set -euo pipefail

target="${1:?usage: Fuzz/run.sh TARGET SECONDS [libFuzzer flags…]}"
seconds="${2:?usage: Fuzz/run.sh TARGET SECONDS [libFuzzer flags…]}"
shift 2

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
[ -f "Fuzz/Targets/$target.swift" ] || { echo "run.sh: no target Fuzz/Targets/$target.swift" >&2; exit 2; }

build="$root/Fuzz/.build"
corpus="$build/corpus-$target"
artifacts="$build/artifacts-$target/"
binary="$build/$target"
mkdir -p "$build" "$corpus" "$artifacts"

# The target file is compiled INTO the CatalogCore module, so `package` symbols are visible without
# @testable. Rebuild only when a source is newer than the binary.
sources=()
while IFS= read -r file; do sources+=("$file"); done < <(find Sources/CatalogCore -name '*.swift' | sort)
if [ ! -x "$binary" ] || [ -n "$(find Sources/CatalogCore "Fuzz/Targets/$target.swift" -newer "$binary" -name '*.swift' | head -1)" ]; then
    echo "building $target…"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g \
        -module-name CatalogCore -package-name catalog \
        -I Sources/CCatalogZlib -I Sources/CCatalogCrypto \
        -module-cache-path "$build/module-cache" \
        "${sources[@]}" "Fuzz/Targets/$target.swift" \
        -lz -lcrypto -o "$binary"
fi

# Seeds: the fixtures that exercise the target's parser (copied, so libFuzzer may add to the corpus).
seed() { for path in "$@"; do [ -f "$path" ] && cp -n "$path" "$corpus/" 2>/dev/null || true; done; }
max_len=65536
case "$target" in
    ber|profile) seed Fixtures/profiles/* Fixtures/malformed/*.mobileprovision ;;
    x509)        seed Fixtures/certs/*.der ;;
    infoplist)   seed Fixtures/plists/* $(find Fixtures/bundles -name Info.plist) ;;
    zip)         seed Fixtures/zip/* Fixtures/ipa/* Fixtures/malformed/*.ipa; max_len=1048576 ;;
    decode)      seed Fixtures/profiles/* Fixtures/plists/* Fixtures/malformed/*.mobileprovision ;;
    signature)   seed Fixtures/signatures/*.mobileprovision Fixtures/profiles/* ;;
    macho)       seed Fixtures/codesign/macho/* Fixtures/codesign/macho/malformed/*; max_len=131072 ;;
    codesignature) seed Fixtures/codesign/macho/* Fixtures/signatures/*.mobileprovision; max_len=131072 ;;
    coderesources) seed $(find Fixtures/codesign Fixtures/integrity -name CodeResources) ;;
    crashreport) seed $(find Fixtures/crash -type f) ;;
esac
# Earlier findings seed their target too, so a fixed bug's neighbourhood is searched first.
seed Fixtures/fuzz-regressions/"$target"-*

echo "fuzzing $target for ${seconds}s (corpus $corpus, $(ls "$corpus" | wc -l) files)"
log="$build/$target.log"
# Swift's own crash handler races libFuzzer's (and trips ASan reading the crashed process): let
# libFuzzer report traps, with the "Swift runtime failure" frame in its stack.
export SWIFT_BACKTRACE=enable=no
# The zip target writes each input to a temp file: keep those under the ignored build folder.
mkdir -p "$build/tmp"
export TMPDIR="$build/tmp"
set +e
"$binary" -timeout=2 -rss_limit_mb=1024 -max_total_time="$seconds" -max_len="$max_len" \
    -print_final_stats=1 -artifact_prefix="$artifacts" "$@" "$corpus" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
rm -f "$build/tmp"/catalog-fuzz-*

echo "---- $target: final stats ----"
grep -aE '^(#[0-9]+[[:space:]]+DONE|stat::)' "$log" || true
echo "corpus size: $(ls "$corpus" | wc -l) files"
findings=$(ls "$artifacts" 2>/dev/null | wc -l)
echo "findings: $findings file(s) in $artifacts"
exit "$status"
