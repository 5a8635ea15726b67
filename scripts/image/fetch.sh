#!/bin/sh
# Image stage "fetch": every package of the lockfile into pnpm's store. It reads only the
# lockfile and the workspace's manifest, so its layer is reused until the dependencies change.
#
#   scripts/image/fetch.sh <src>
set -eu
src=$1
here=$(cd "$(dirname "$0")" && pwd)
cd "$src"
"$here/pnpm.sh" fetch
