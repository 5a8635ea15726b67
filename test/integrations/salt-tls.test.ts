/**
 * SALT_API_CA_FILE: a salt-api serving HTTPS with a self-signed certificate (the simulated master
 * over TLS, its certificate made here by openssl for 127.0.0.1). With the CA file the service
 * syncs and reads the event stream through TLS; without it the certificate is refused and the sync
 * says the master did not answer; a CA file that cannot be read stops the start in one line.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSaltSim, type SaltSim } from '@fleet/salt-sim';
import { startTestServer } from '../helpers';
import { until } from '../helpers/until';
import { saltEnv, syncNow } from './master-env';

let dir: string;
let sim: SaltSim;
let caFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-salt-tls-'));
  caFile = join(dir, 'salt-api.crt');
  const keyFile = join(dir, 'salt-api.key');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1'],
      ...['-keyout', keyFile, '-out', caFile, '-subj', '/CN=salt-api.test'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  sim = await startSaltSim({
    hosts: 4,
    seed: 2,
    tls: { key: readFileSync(keyFile), cert: readFileSync(caFile) },
  });
}, 60_000);

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('syncs and reads the event stream over TLS with SALT_API_CA_FILE', async () => {
  expect(sim.url.startsWith('https://')).toBe(true);
  const api = await startTestServer({ env: { ...saltEnv(sim), SALT_API_CA_FILE: caFile } });
  try {
    const report = await syncNow(api);
    expect(report).toMatchObject({ masterReachable: true, hostsSeen: sim.fleet.minions.size });
    await until(async () => {
      const r = await api.request.get('/api/health/ready');
      return (r.body as { parts: { events: { state: string } } }).parts.events.state === 'ok';
    }, 'the event stream open over TLS');
  } finally {
    await api.close();
  }
});

it('without the CA file, the self-signed certificate is refused', async () => {
  const api = await startTestServer({ env: saltEnv(sim) });
  try {
    const report = await syncNow(api);
    expect(report['masterReachable']).toBe(false);
  } finally {
    await api.close();
  }
});

it('a SALT_API_CA_FILE that cannot be read stops the start in one line', async () => {
  const missing = join(dir, 'none.crt');
  await expect(startTestServer({ env: { ...saltEnv(sim), SALT_API_CA_FILE: missing } })).rejects.toThrow(
    `Invalid configuration: SALT_API_CA_FILE ${missing} cannot be read (ENOENT)`,
  );
});
