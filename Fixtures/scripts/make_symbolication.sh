#!/usr/bin/env bash
# Fixtures/symbolication/: a small arm64 iOS app with DWARF, archived with its dSYM (Demo.xcarchive),
# and crash reports (.ips and text .crash) whose frames point into its Swift and C functions, for
# `catalog crash --symbolicate` (issue 53). Needs the Swift toolchain's swiftc and clang, Debian's
# lld-14 (its ld64.lld links for Apple platforms; the toolchain's refuses) and dsymutil. The outputs
# are committed, so the tests need none of them.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
src="$here/scripts/symbolication"
out="$here/symbolication"
ld64="${LD64_LLD:-/usr/lib/llvm-14/bin/ld64.lld}"
dsymutil="${DSYMUTIL:-$(command -v dsymutil || echo /usr/lib/llvm-14/bin/dsymutil)}"
for tool in swiftc clang "$ld64" "$dsymutil"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "make_symbolication.sh: $tool is missing (apt-get install lld-14 llvm)" >&2; exit 1; }
done
# A fixed folder: the linker's UUID hashes the objects, which name the folder they were built in.
work=/tmp/catalog-symbolication-build
rm -rf "$work"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Demo"
cp "$src/demo.swift" "$src/main.c" "$work/Demo/"
cd "$work"
# Source paths as a Mac build would record them, whatever folder this runs in.
swiftc -parse-stdlib -parse-as-library -runtime-compatibility-version none -Xfrontend -disable-all-autolinking \
    -target arm64-apple-ios15.0 -g -debug-prefix-map "$work=/Users/dev" -module-name Demo -c Demo/demo.swift -o demo.o
clang -target arm64-apple-ios15.0 -g -O1 -fdebug-prefix-map="$work=/Users/dev" -c Demo/main.c -o main.o
"$ld64" -arch arm64 -platform_version ios 15.0 15.0 -e _start -o Demo.bin main.o demo.o
"$dsymutil" Demo.bin -o Demo.app.dSYM

rm -rf "$out"
archive="$out/Demo.xcarchive"
app="$archive/Products/Applications/Demo.app"
mkdir -p "$app" "$archive/dSYMs/Demo.app.dSYM/Contents/Resources/DWARF"
cp Demo.bin "$app/Demo"
cp Demo.app.dSYM/Contents/Resources/DWARF/Demo.bin "$archive/dSYMs/Demo.app.dSYM/Contents/Resources/DWARF/Demo"
python3 "$here/scripts/make_symbolication_reports.py" "$out" "$app/Demo" "$archive/dSYMs/Demo.app.dSYM/Contents/Resources/DWARF/Demo"
echo "symbolication fixtures written under $out"
