/**
 * `fleet-api rotate-key` (docs/secrets.md): every sealed secret of the store is sealed again under
 * a new key, the key file is replaced (the old one kept aside), and the next start reads every
 * secret with the new key and none with the old. With SECRET_KEY, the new key is NEW_SECRET_KEY.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createSecretBox } from '../../engine/src';
import { insertDoc, insertHosts, startTestServer, TOKENS } from '../helpers';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

/** Runs `tsx cli.ts rotate-key` with `env`; resolves its stdout. */
async function rotateKey(env: Record<string, string>): Promise<string> {
  const { stdout } = await run(
    join(ROOT, 'node_modules', '.bin', 'tsx'),
    [join(ROOT, 'packages', 'server', 'src', 'cli.ts'), 'rotate-key'],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        API_TOKENS: `${TOKENS.admin}:admin`,
        ...env,
      },
    },
  );
  return stdout.trim();
}

const OTP = 'JBSWY3DPEHPK3PXP';
const PASSWORD = 'vpn-manager-password-1';
let dir: string;
let db: string;

/** The sealed values as stored now. */
async function sealedValues(): Promise<{ otp: string; password: string }> {
  const s = await startTestServer({ env: { DATABASE_URL: `sqlite:${db}` } });
  try {
    const [host] = await s.store.find('hosts', { _id: 'rot-00.fleet.test' });
    const [manager] = await s.store.find('vpn_managers', { _id: 'rot-manager' });
    return {
      otp: String((host?.vpnsrv_representation as Record<string, unknown>).otp_secret),
      password: String(manager?.password),
    };
  } finally {
    await s.server.close();
  }
}

beforeAll(async () => {
  const s = await startTestServer();
  ({ dir, dbPath: db } = s);
  await insertHosts(s.store, 1, {
    prefix: 'rot',
    overrides: () => ({ vpnsrv_representation: { name: 'rot', otp_secret: s.secrets.seal(OTP) } }),
  });
  await insertDoc(s.store, 'vpn_managers', {
    _id: 'rot-manager',
    name: 'rot',
    server_address: 'https://vpn.test',
    dashboard_address: 'https://vpn.test',
    username: 'admin',
    password: s.secrets.seal(PASSWORD),
  });
  await s.server.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('rotate-key', () => {
  test('with the key file: every secret sealed again, the file replaced, the old key kept aside', async () => {
    const oldKey = readFileSync(join(dir, 'secret-key'), 'utf8').trim();
    const before = await sealedValues();
    const out = await rotateKey({ DATABASE_URL: `sqlite:${db}` });
    expect(out).toMatch(
      new RegExp(
        `^Re-sealed the secrets of 2 item\\(s\\); ${join(dir, 'secret-key')} holds the new key, the old one is in ${dir}/secret-key\\.old-[\\dT-]+Z \\(delete it once no backup needs it\\)$`,
      ),
    );
    const newKey = readFileSync(join(dir, 'secret-key'), 'utf8').trim();
    expect(newKey).not.toBe(oldKey);
    expect(newKey.length).toBeGreaterThanOrEqual(32);
    expect(readdirSync(dir).filter((f) => f.startsWith('secret-key'))).toHaveLength(2);

    const after = await sealedValues();
    expect(after.otp).not.toBe(before.otp);
    const box = createSecretBox(newKey);
    expect([box.open(after.otp), box.open(after.password)]).toEqual([OTP, PASSWORD]);
    expect(() => createSecretBox(oldKey).open(after.password)).toThrow();
  });

  test('with SECRET_KEY: NEW_SECRET_KEY seals them, and the next start uses it', async () => {
    const current = readFileSync(join(dir, 'secret-key'), 'utf8').trim();
    const next = 'a-brand-new-secret-key-0123456789';
    const out = await rotateKey({ DATABASE_URL: `sqlite:${db}`, SECRET_KEY: current, NEW_SECRET_KEY: next });
    expect(out).toBe(
      'Re-sealed the secrets of 2 item(s) with NEW_SECRET_KEY: set SECRET_KEY to it before the next start',
    );
    const s = await startTestServer({ env: { DATABASE_URL: `sqlite:${db}`, SECRET_KEY: next } });
    try {
      const [manager] = await s.store.find('vpn_managers', { _id: 'rot-manager' });
      expect(s.secrets.open(String(manager?.password))).toBe(PASSWORD);
    } finally {
      await s.server.close();
    }
  });

  test('run again with the same keys (a rotation cut short): values already sealed with the new key are kept', async () => {
    const next = 'a-brand-new-secret-key-0123456789';
    const out = await rotateKey({
      DATABASE_URL: `sqlite:${db}`,
      SECRET_KEY: 'an-unrelated-old-key-0123456789',
      NEW_SECRET_KEY: next,
    });
    expect(out).toBe(
      'Re-sealed the secrets of 0 item(s) with NEW_SECRET_KEY: set SECRET_KEY to it before the next start',
    );
  });
});
