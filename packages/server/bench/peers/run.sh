#!/usr/bin/env bash
# The anchor query side by side: 10,000 hosts, status up, sorted by _id, page 3 of 25, answered by
#   raw         node:http with the page computed at start (the ceiling of this machine),
#   sqlite-ref  Express 4 + better-sqlite3 written by hand (express-sqlite.cjs),
#   feathers    a Feathers v5 in-memory service (feathers.cjs),
#   ours        the API under test, when --ours-cmd and --ours-url are given.
# Every server is its own process pinned to core 0, the load generator (autocannon) to core 1; the
# servers are measured one after the other in each round, so their ratios hold while a shared
# machine drifts. Prints each server's medians over the rounds, and the ratios of ours.
#
#   run.sh [--ours-cmd CMD --ours-url URL [--ours-header 'Authorization: Bearer T']]
#     CMD starts the API on $PORT with the hosts of $HOSTS_JSON loaded (both exported to it);
#     in URL, $PORT is replaced by the port.
# Environment: DUR (seconds measured per server, 10), ROUNDS (2), CONN (connections, 10),
# BENCH_WORK (where the dataset, logs and results go; a temporary directory by default).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
server_pkg=$(cd "$here/../.." && pwd)
work=${BENCH_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/fleet-peers-XXXXXX")}
DUR=${DUR:-10}
ROUNDS=${ROUNDS:-2}
CONN=${CONN:-10}
ours_cmd=""
ours_url=""
ours_header=""
while [ $# -gt 0 ]; do
  case "$1" in
    --ours-cmd) ours_cmd=$2; shift 2 ;;
    --ours-url) ours_url=$2; shift 2 ;;
    --ours-header) ours_header=$2; shift 2 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

mkdir -p "$work"
export HOSTS_JSON="$work/hosts.json"
node "$here/hosts.cjs" "$work" >&2
autocannon="$server_pkg/node_modules/.bin/autocannon"
pin_server=()
pin_load=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  pin_server=(taskset -c 0)
  pin_load=(taskset -c 1)
fi
results="$work/results.tsv"
: > "$results"

# measure NAME PORT URL HEADER -- COMMAND...: starts the server, waits for an answer, warms it up
# for 3 s, measures DUR s, and appends "name req/s p50 p99 bad rss_kB" to the results.
measure() {
  local name=$1 port=$2 url=$3 header=$4
  shift 5
  url=${url//\$PORT/$port}
  local headers=()
  if [ -n "$header" ]; then headers=(-H "$header"); fi
  (cd "$here" && exec env PORT="$port" NODE_ENV=production "${pin_server[@]}" "$@" > "$work/$name.log" 2>&1) &
  local pid=$!
  for _ in $(seq 1 600); do
    if curl -gsf -o /dev/null "${headers[@]}" "$url"; then break; fi
    kill -0 "$pid" 2>/dev/null || { echo "run.sh: $name did not start; see $work/$name.log" >&2; return 1; }
    sleep 0.2
  done
  "${pin_load[@]}" "$autocannon" -c "$CONN" -d 3 "${headers[@]}" "$url" > /dev/null 2>&1 || true
  "${pin_load[@]}" "$autocannon" -c "$CONN" -d "$DUR" --json "${headers[@]}" "$url" > "$work/$name.json" 2> /dev/null
  local rss
  rss=$(ps -o rss= -p "$pid" 2>/dev/null | tr -d ' ' || true)
  node -e '
    const [file, name, rss] = process.argv.slice(1);
    const r = require(file);
    console.log([name, r.requests.average, r.latency.p50, r.latency.p99, r.non2xx + r.errors, rss || 0].join("\t"));
  ' "$work/$name.json" "$name" "$rss" >> "$results"
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

for _ in $(seq 1 "$ROUNDS"); do
  measure raw 4600 'http://127.0.0.1:$PORT/hosts' "" -- node raw.cjs
  measure sqlite-ref 4601 'http://127.0.0.1:$PORT/hosts?status=up&page=3&max_results=25' "" -- node express-sqlite.cjs
  measure feathers 4602 'http://127.0.0.1:$PORT/hosts?status=up&%24sort%5B_id%5D=1&%24limit=25&%24skip=50' "" -- node feathers.cjs
  if [ -n "$ours_cmd" ]; then measure ours 4603 "$ours_url" "$ours_header" -- bash -c "$ours_cmd"; fi
done

node -e '
  const lines = require("node:fs").readFileSync(process.argv[1], "utf8").trim().split("\n");
  const runs = {};
  for (const [name, rps, p50, p99, bad, rss] of lines.map((l) => l.split("\t")))
    (runs[name] ??= []).push({ rps: +rps, p50: +p50, p99: +p99, bad: +bad, rss: +rss });
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
  const rps = {};
  console.log("server\treq/s(median)\tp50 ms\tp99 ms\tnon-2xx\tRSS MB");
  for (const [name, r] of Object.entries(runs)) {
    rps[name] = median(r.map((x) => x.rps));
    const bad = r.reduce((sum, x) => sum + x.bad, 0);
    const rss = (median(r.map((x) => x.rss)) / 1024).toFixed(0);
    console.log([name, rps[name].toFixed(0), median(r.map((x) => x.p50)), median(r.map((x) => x.p99)), bad, rss].join("\t"));
  }
  if (rps.ours !== undefined)
    console.log(`ours / sqlite-ref = ${(rps.ours / rps["sqlite-ref"]).toFixed(2)}   ours / feathers = ${(rps.ours / rps.feathers).toFixed(1)}   ours / raw = ${(rps.ours / rps.raw).toFixed(3)}`);
' "$results"
