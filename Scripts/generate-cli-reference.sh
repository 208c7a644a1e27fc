#!/bin/sh
# Regenerates docs/cli.md, the CLI reference, from the commands' own help text
# (`catalog help --markdown`). CatalogCLITests checks that the committed file is current.
#
# Usage: Scripts/generate-cli-reference.sh [CATALOG_BINARY]   (default: builds and uses .build/debug/catalog)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-}
if [ -z "$binary" ]; then
    (cd "$root" && swift build --product catalog >/dev/null)
    binary="$root/.build/debug/catalog"
fi
mkdir -p "$root/docs"
"$binary" help --markdown > "$root/docs/cli.md"
echo "wrote $root/docs/cli.md"
