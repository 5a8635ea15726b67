/**
 * The outward-address probe against the strict simulator over real HTTP: the command line the
 * service sends (probeKwarg) run by the simulated minion's /bin/sh, curl and wget, and the
 * simulated resolvers. The simulator answers as a real minion would, including the answers a
 * careless command would get: curl's progress meter without -s, wget writing the body to a file
 * without -O -, shell syntax refused without python_shell, tools that are not installed,
 * unreachable resolvers and timeouts.
 */
import { createSaltClient, probeKwarg, shellQuote, type SaltClient } from '@fleet/salt';
import { DEFAULT_RESOLVER, startSaltSim, type SaltSim, type SimMinion } from '@fleet/salt-sim';

let sim: SaltSim;
let c: SaltClient;
const URL_OK = `http://${DEFAULT_RESOLVER}/`;

beforeAll(async () => {
  sim = await startSaltSim({ hosts: 10, seed: 3, returnDelayMs: 2, noReturnWaitMs: 10 });
  c = createSaltClient({ url: sim.url, ...sim.credentials, retry: { baseDelayMs: 5 } });
});

afterAll(async () => {
  c.close();
  await sim.close();
});

let n = 0;
/** A fresh accepted, up minion with the given network. */
function minion(network: Parameters<SaltSim['controls']['setNetwork']>[1]): SimMinion {
  n += 1;
  const m = sim.controls.addMinion(`probe-${n}.lab.fleet.example.com`, { key: 'accepted', up: true });
  sim.controls.setNetwork(m.id, network);
  return m;
}

/** cmd.run on one minion: its output and retcode, or null when it did not return. */
async function cmdRun(
  id: string,
  kwarg: Record<string, unknown>,
  arg: unknown[] = [],
): Promise<{ ret: unknown; retcode: number | null } | null> {
  const outcome = (await c.local(id, 'cmd.run', { arg, kwarg })).minions[id];
  return outcome?.status === 'returned' ? { ret: outcome.ret, retcode: outcome.retcode } : null;
}

test("the probe prints the outward address: a direct host its own, a host behind a NAT the NAT's", async () => {
  const direct = minion({ publicIp: '198.51.100.7', httpTools: ['curl', 'wget'] });
  const natted = minion({ publicIp: '203.0.113.99', httpTools: ['curl', 'wget'] });
  expect(await cmdRun(direct.id, probeKwarg(URL_OK))).toEqual({ ret: '198.51.100.7', retcode: 0 });
  expect(await cmdRun(natted.id, probeKwarg(URL_OK))).toEqual({ ret: '203.0.113.99', retcode: 0 });
});

test('a host with only wget (Debian) or only curl (Rocky) answers; one with neither says so (127)', async () => {
  expect(
    await cmdRun(minion({ publicIp: '192.0.2.10', httpTools: ['wget'] }).id, probeKwarg(URL_OK)),
  ).toEqual({ ret: '192.0.2.10', retcode: 0 });
  expect(
    await cmdRun(minion({ publicIp: '192.0.2.11', httpTools: ['curl'] }).id, probeKwarg(URL_OK)),
  ).toEqual({ ret: '192.0.2.11', retcode: 0 });
  expect(await cmdRun(minion({ publicIp: '192.0.2.12', httpTools: [] }).id, probeKwarg(URL_OK))).toEqual({
    ret: '/bin/sh: 1: wget: not found',
    retcode: 127,
  });
});

test('careless commands get what a real minion gives: the meter, a file, a refused shell, a TypeError', async () => {
  const m = minion({ publicIp: '192.0.2.20', httpTools: ['curl', 'wget'] });
  const meter = await cmdRun(m.id, { cmd: `curl ${URL_OK}` });
  expect(meter?.ret).toMatch(/% Total[\s\S]*\n192\.0\.2\.20$/);
  expect(await cmdRun(m.id, { cmd: `wget -q ${URL_OK}` })).toEqual({ ret: '', retcode: 0 });
  const noShell = await cmdRun(m.id, { ...probeKwarg(URL_OK), python_shell: false });
  expect(noShell).toEqual({
    ret: expect.stringMatching(/^ERROR: Unable to run command .*No such file or directory: 'if'$/) as unknown,
    retcode: 1,
  });
  const twice = await cmdRun(m.id, { cmd: 'uptime' }, ['uptime']);
  expect(twice).toEqual({
    ret: expect.stringMatching(/got multiple values for argument 'cmd'/) as unknown,
    retcode: 1,
  });
  expect(await cmdRun(m.id, { cmd: `curl -fsS $(echo ${URL_OK})` })).not.toEqual({
    ret: '192.0.2.20',
    retcode: 0,
  });
});

test('unreachable resolvers fail as curl and wget do: unknown name, refused, HTTP error, firewall timeout', async () => {
  const curlHost = minion({ publicIp: '192.0.2.30', httpTools: ['curl'] });
  const wgetHost = minion({ publicIp: '192.0.2.31', httpTools: ['wget'] });
  expect(await cmdRun(curlHost.id, probeKwarg('http://nowhere.example.net/ip'))).toEqual({
    ret: 'curl: (6) Could not resolve host: nowhere.example.net',
    retcode: 6,
  });
  expect(await cmdRun(wgetHost.id, probeKwarg('http://nowhere.example.net/ip'))).toEqual({
    ret: '',
    retcode: 4,
  });
  sim.controls.setResolver('refusing.example.net:8080', { down: true });
  expect((await cmdRun(curlHost.id, probeKwarg('http://refusing.example.net:8080/')))?.retcode).toBe(7);
  sim.controls.setResolver('limited.example.net', { failing: [curlHost.id, wgetHost.id] });
  expect(await cmdRun(curlHost.id, probeKwarg('https://limited.example.net/'))).toEqual({
    ret: 'curl: (22) The requested URL returned error: 503',
    retcode: 22,
  });
  expect(await cmdRun(wgetHost.id, probeKwarg('https://limited.example.net/'))).toEqual({
    ret: '',
    retcode: 8,
  });
  sim.controls.setNetwork(curlHost.id, { egress: 'blocked' });
  expect(await cmdRun(curlHost.id, probeKwarg(URL_OK))).toEqual({
    ret: 'curl: (28) Connection timed out after 10000 milliseconds',
    retcode: 28,
  });
  // cmd.run's own timeout cuts a command that outlives it (TimedProc).
  expect(await cmdRun(curlHost.id, { cmd: `curl -fsS ${URL_OK}`, python_shell: true, timeout: 15 })).toEqual({
    ret: `curl -fsS ${URL_OK} : Timed out after 15 seconds`,
    retcode: 1,
  });
  // GNU wget tries 20 times, -T 10 each: cmd.run's timeout (15 s) ends it first.
  const wgetOnly = minion({ publicIp: '192.0.2.32', httpTools: ['wget'], egress: 'blocked' });
  expect(await cmdRun(wgetOnly.id, probeKwarg(URL_OK))).toEqual({
    ret: expect.stringMatching(/^if command -v curl .* : Timed out after 15 seconds$/) as unknown,
    retcode: 1,
  });
  // wget -T 0 never times out, and nothing else bounds it: the minion is still busy when the master gives up.
  sim.controls.setNetwork(wgetHost.id, { egress: 'blocked' });
  expect(await cmdRun(wgetHost.id, { cmd: `wget -qO- -T 0 ${URL_OK}` })).toBeNull();
});

test('the URL is quoted for the shell: quotes, spaces and shell characters reach curl as they are', async () => {
  const m = minion({ publicIp: '192.0.2.40', httpTools: ['curl'] });
  sim.controls.setResolver('odd.example.net', {});
  const url = "http://odd.example.net/it's;$(reboot)`x`|&&";
  expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  expect(await cmdRun(m.id, probeKwarg(url))).toEqual({ ret: '192.0.2.40', retcode: 0 });
});
