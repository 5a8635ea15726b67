#!/bin/sh
# The pnpm that package.json pins (`packageManager`), never a floating one: the image's build and
# its test run exactly this version, fetched once by npx.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
spec=$(node -p 'require(process.argv[1]).packageManager' "$root/package.json")
case "$spec" in
  pnpm@[0-9]*.[0-9]*.[0-9]*) ;;
  *) echo "package.json: packageManager must pin an exact pnpm@X.Y.Z, found \"$spec\"" >&2; exit 1 ;;
esac
exec npx --yes "$spec" "$@"
