#!/bin/sh
# Image stage "build": the workspace installed from the store alone (no registry), the server
# compiled (pnpm build), and what the runtime needs deployed to <prod>: the server's package.json,
# bin/ and dist/, and node_modules with its production dependencies only (no TypeScript, no tsx,
# no build tool, no workspace sources).
#
#   scripts/image/build.sh <src> <prod>
set -eu
src=$1
prod=$2
here=$(cd "$(dirname "$0")" && pwd)
cd "$src"
"$here/pnpm.sh" install --frozen-lockfile --offline
"$here/pnpm.sh" build
# The deploy reads the lockfile (injected workspace packages: no resolution, so it works offline;
# the legacy deploy resolves every range again and needs registry metadata the store lacks).
"$here/pnpm.sh" --config.inject-workspace-packages=true --filter @fleet/server deploy --prod --offline "$prod"
# better-sqlite3 keeps what it was compiled from (SQLite's sources, object files): only its
# compiled module and its JavaScript are needed to run.
for pkg in "$prod"/node_modules/.pnpm/better-sqlite3@*/node_modules/better-sqlite3; do
  rm -rf "$pkg/deps" "$pkg/src" "$pkg/build/Release/obj.target" "$pkg/build/Release/.deps" \
    "$pkg/build/Release/test_extension.node" "$pkg/build/deps"
done
test -f "$prod/dist/fleet.js" || { echo "build: $prod/dist/fleet.js is missing" >&2; exit 1; }
node "$prod/bin/fleet.cjs" --version
