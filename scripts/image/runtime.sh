#!/bin/sh
# Image stage "runtime", after /prod is copied to <app>: the data directory (the store, the
# generated admin token and secret key) owned by <user>, the code left read-only to it, and
# `fleet` on the PATH through <bin>.
#
#   scripts/image/runtime.sh <app> <bin> <user>
set -eu
app=$1
bin=$2
user=$3
mkdir -p "$app/data"
chown "$user:" "$app/data"
chmod 0700 "$app/data"
chmod 0755 "$app/bin/fleet.cjs"
mkdir -p "$bin"
ln -sf "$app/bin/fleet.cjs" "$bin/fleet"
"$bin/fleet" --version
