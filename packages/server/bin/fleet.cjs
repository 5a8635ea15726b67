#!/usr/bin/env node
// The `fleet` command: the server compiled to JavaScript (`pnpm build`, scripts/build.mjs), run by
// plain node. During development, `pnpm dev` runs the TypeScript sources instead.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const bundle = join(__dirname, '..', 'dist', 'fleet.js');
if (!existsSync(bundle)) {
  process.stderr.write(
    `fleet: ${bundle} is missing: build it with \`pnpm build\` (or run the sources with \`pnpm dev\`)\n`,
  );
  process.exit(1);
}
// Stack traces name the TypeScript sources' lines (the bundle's source map is beside it).
process.setSourceMapsEnabled(true);
require(bundle);
