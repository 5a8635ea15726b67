// The peers' dataset: HOSTS (10,000) host documents, the same on every run (a seeded linear
// congruential generator), written as one JSON array to <dir>/hosts.json. Ids are spread out of
// insertion order so that sorting by _id is real work; about 70% of the hosts are up.
//
//   node hosts.cjs <dir>      prints a one-line summary of what it wrote
'use strict';
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const count = Number(process.env.HOSTS || 10000);
const NODEGROUPS = ['web', 'db', 'cache', 'batch', 'edge', 'mon'];
const GROUPS = ['prod', 'staging', 'dev', 'eu', 'us', 'ap'];
const JANUARY_2024 = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;

/** The generator: x -> (1103515245 x + 12345) mod 2^31, from 42, as a fraction of 2^31 - 1. */
let state = 42;
function random() {
  state = (state * 1103515245 + 12345) & 0x7fffffff;
  return state / 0x7fffffff;
}
const pick = (list) => list[Math.floor(random() * list.length)];

function host(i) {
  const n = (i * 7919) % count;
  // Field order matters: each field draws from the generator in turn.
  return {
    _id: `host-${String(n).padStart(5, '0')}.example.net`,
    ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
    status: random() < 0.7 ? 'up' : 'down',
    version: `2.${Math.floor(random() * 10)}.${Math.floor(random() * 20)}`,
    nodegroups: [pick(NODEGROUPS), pick(NODEGROUPS)],
    groups: [pick(GROUPS)],
    heartbeat: new Date(JANUARY_2024 + Math.floor(random() * DAY_MS * 30)).toISOString(),
  };
}

const hosts = Array.from({ length: count }, (_, i) => host(i));
writeFileSync(join(process.argv[2] || '.', 'hosts.json'), JSON.stringify(hosts));
const up = hosts
  .filter((h) => h.status === 'up')
  .map((h) => h._id)
  .sort();
process.stdout.write(`${JSON.stringify({ hosts: hosts.length, up: up.length, page3: [up[50], up[74]] })}\n`);
