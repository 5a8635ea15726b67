/**
 * A real browser for the docs tests: Debian's Chromium driven by playwright-core. Installed with
 * apt-get when missing (as root, as CI runs; `.ci/run` installs it first, this covers a
 * developer's `pnpm test`); when it cannot be had the browser tests are skipped with one line.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

const EXECUTABLE = '/usr/bin/chromium';

/**
 * The flags of a quiet, sandbox-free headless run that contacts nothing on its own (no component
 * updates, sync, QUIC probes or background requests): the page's own requests are all there is.
 */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Installs Chromium when it is missing and this process may; whether it is there now. */
function ensureChromium(): boolean {
  if (existsSync(EXECUTABLE)) return true;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return false;
  const install = ['install', '-y', '-qq', '--no-install-recommends', 'chromium', 'fonts-liberation'];
  for (const steps of [[install], [['update', '-qq'], install]]) {
    try {
      for (const args of steps)
        execFileSync('apt-get', args, {
          stdio: 'ignore',
          timeout: 600_000,
          env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        });
      if (existsSync(EXECUTABLE)) return true;
    } catch {
      // The package lists may be missing or stale: the second round updates them first.
    }
  }
  return false;
}

/** Whether the browser tests can run; prints the one line saying why not when they cannot. */
export function browserAvailable(what: string): boolean {
  const ok = ensureChromium();
  if (!ok)
    process.stderr.write(`${what}: skipped, no Chromium could be installed (apt-get install -y chromium)\n`);
  return ok;
}

/** A headless Chromium with a fresh profile; `close` removes the profile too. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'fleet-chromium-'));
  // playwright passes the profile as --user-data-dir itself (a launch argument of that name is refused).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: EXECUTABLE,
    headless: true,
    args: FLAGS,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
