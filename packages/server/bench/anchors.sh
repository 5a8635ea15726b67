#!/usr/bin/env bash
# Runs the peers of the anchor query (bench/peers/run.sh: raw, sqlite-ref, feathers) with our API
# as "ours": the hosts of $HOSTS_JSON loaded into a fresh SQLite store, the same query (status=up,
# sorted by _id, page 3 of 25) answered by GET /api/hosts. Extra arguments are not accepted; DUR,
# ROUNDS, CONN and BENCH_WORK are passed through to run.sh.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
token=anchors-token-0123456789abcdef
# One process (tsx as a loader, no wrapper), so run.sh's pid is the server and its RSS is ours.
ours_cmd="cd '$repo' && API_TOKENS='anchors=$token:admin' LOG_LEVEL=warn exec node --import tsx packages/server/bench/load-hosts-json.ts"
exec "$repo/packages/server/bench/peers/run.sh" \
  --ours-cmd "$ours_cmd" \
  --ours-url 'http://127.0.0.1:$PORT/api/hosts?where={"status":"up"}&sort=_id&page=3' \
  --ours-header "Authorization: Bearer $token"
