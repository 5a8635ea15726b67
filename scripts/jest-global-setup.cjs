/**
 * Jest's global set-up: the compiled server (`pnpm build`) up to date with the sources, for the
 * tests that run the `fleet` bin as a user would (test/cli). Builds only when a source changed.
 */
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = async function buildServer() {
  execFileSync(process.execPath, [join(__dirname, 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
};
