/**
 * `pnpm demo [--hosts N] [--port P] [--sim-port P] [--vpn-port P] [--data DIR]` (`pnpm demo`):
 * the salt-api simulator with a generated fleet and the API on the embedded store wired to it as
 * to a real master (SALT_API_URL = the simulator; nothing in the service knows it is one), and the
 * VPN server simulator beside it with one VPN manager wired to it (stored through the local API,
 * as an administrator would POST it). Runs the first sync and takes the first host-list snapshot
 * (so the statistics answer at once), prints the URLs (the docs page among them), an admin token
 * and two curl lines, then keeps the fleet moving a little (a host goes down or comes back, a VNC
 * connection event) so alerts and statuses change live, and tells each sync and each event the
 * service handles in a readable line (narrate.ts; with LOG_FORMAT set, the service's own log
 * instead). `--help` says all this. SIGINT / SIGTERM stop every server.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { stampNow, SYSTEM, systemContext, type Runtime } from '@fleet/engine';
import { masterIfRunning, vpn_managers } from '@fleet/resources';
import { startSaltSim, type SaltSim } from '@fleet/salt-sim';
import { startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import {
  ConfigError,
  createLogger,
  loadConfig,
  startServer,
  takeSnapshot,
  type RunningServer,
  type TakenSnapshot,
} from '@fleet/server';
import { narrator } from './narrate';

/** A number of the sync report, or `?` when the report has none. */
function count(value: unknown): string {
  return typeof value === 'number' ? String(value) : '?';
}

const USAGE =
  'usage: demo [--hosts N (50)] [--port P (PORT or 5000)] [--sim-port P (any free)] [--vpn-port P (any free)] [--data DIR (./data/demo)]';

/** What `pnpm demo --help` prints. */
export const HELP = `${USAGE}

Starts a simulated SaltStack master (salt-api) with a generated fleet, a simulated VPN server,
and the Fleet API wired to both on its own SQLite file (--data). It runs the first sync, takes the
first host-list snapshot (the statistics answer at once), prints the URLs, the API docs page, an
admin token and example curl lines, then moves the fleet a little every 20 s and prints a line
for each sync and each salt event the API handles. Ctrl-C stops everything.

  --hosts N      minions of the simulated master (1 to 5000; default 50)
  --port P       the API's port (default PORT or 5000; 0: any free port)
  --sim-port P   the simulated salt-api's port (default any free one)
  --vpn-port P   the simulated VPN server's port (default any free one)
  --data DIR     where the API keeps its store, key and token (default ./data/demo)
  -h, --help     this text

LOG_FORMAT=json or pretty shows the API's own log instead of the demo's lines.
`;
/** The VPN manager the demo wires to the VPN server simulator. */
const DEMO_MANAGER = 'vpn-sim';
/** Between two simulated fleet changes. */
const ACTIVITY_MS = 20_000;

interface DemoArgs {
  readonly hosts: number;
  readonly port: string;
  readonly simPort: number;
  readonly vpnPort: number;
  readonly dataDir: string;
}

function parseDemoArgs(argv: readonly string[]): DemoArgs | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = {
      hosts: { type: 'string' },
      port: { type: 'string' },
      'sim-port': { type: 'string' },
      'vpn-port': { type: 'string' },
      data: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    } as const;
    ({ values } = parseArgs({ args: [...argv], options, strict: true }));
  } catch (err) {
    throw new ConfigError(`demo: ${err instanceof Error ? err.message : String(err)}; ${USAGE}`);
  }
  if (values.help === true) return 'help';
  const num = (name: string, dflt: number, max: number): number => {
    const raw = values[name];
    const n = typeof raw === 'string' ? Number(raw) : dflt;
    if (!Number.isInteger(n) || n < 0 || n > max)
      throw new ConfigError(`demo: --${name} must be a whole number from 0 to ${max}; ${USAGE}`);
    return n;
  };
  const data = values.data;
  return {
    hosts: Math.max(1, num('hosts', 50, 5000)),
    port: String(num('port', Number(process.env.PORT ?? 5000), 65535)),
    simPort: num('sim-port', 0, 65535),
    vpnPort: num('vpn-port', 0, 65535),
    dataDir: resolve(typeof data === 'string' ? data : 'data/demo'),
  };
}

/** The API's environment: the caller's, wired to the simulator, on the demo's own database. */
function demoEnv(args: DemoArgs, sim: SaltSim): NodeJS.ProcessEnv {
  const { username, password, eauth } = sim.credentials;
  return {
    ...process.env,
    PORT: args.port,
    HOST: process.env.HOST ?? '127.0.0.1',
    DATABASE_URL: `sqlite:${resolve(args.dataDir, 'fleet.db')}`,
    SALT_API_URL: sim.url,
    SALT_API_USER: username,
    SALT_API_PASSWORD: password,
    SALT_API_EAUTH: eauth,
    SALT_MASTER_NAME: process.env.SALT_MASTER_NAME ?? sim.fleet.masterId,
    SYNC_INTERVAL_S: process.env.SYNC_INTERVAL_S ?? '15',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
}

/** One line of the demo's own log. */
function say(text: string): void {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${text}\n`);
}

/** Every ACTIVITY_MS: a host goes down or comes back, or a user opens a VNC session on one. */
function startActivity(sim: SaltSim): NodeJS.Timeout {
  const ids = [...sim.fleet.minions.values()].filter((m) => m.key === 'accepted').map((m) => m.id);
  let step = 0;
  const timer = setInterval(() => {
    step += 1;
    const id = ids[(step * 7) % ids.length];
    if (id === undefined) return;
    const minion = sim.fleet.minions.get(id);
    if (step % 3 === 0) {
      say(`fleet   ${id}: a VNC session opens (simulated)`);
      sim.controls.minionEvent(id, 'vnc/connect', { hostname: id, status: 'connected' });
    } else if (minion) {
      say(`fleet   ${id} ${minion.up ? 'goes down' : 'comes back up'} (simulated)`);
      sim.controls.setUp(id, !minion.up);
    }
  }, ACTIVITY_MS);
  timer.unref();
  return timer;
}

/**
 * The demo's VPN manager, pointing at the VPN simulator: created through the local API, or (a
 * data dir kept from an earlier run, the simulator on a new port) changed to the new address.
 */
async function wireVpnManager(runtime: Runtime, vpn: VpnSim): Promise<void> {
  const api = runtime.resources.of(vpn_managers);
  const ctx = systemContext(runtime);
  const fields = {
    dashboard_address: vpn.url,
    server_address: `${new URL(vpn.url).hostname}:1194`,
    ...vpn.credentials,
  };
  const [kept] = await api.find({ where: { name: DEMO_MANAGER } }, ctx);
  if (kept === undefined) await api.create({ name: DEMO_MANAGER, ...fields }, ctx);
  else await api.patch(kept._id, fields, ctx);
}

interface Started {
  readonly running: RunningServer;
  readonly sim: SaltSim;
  readonly vpn: VpnSim;
  readonly report: Record<string, unknown>;
  readonly snapshot: TakenSnapshot;
}

function banner({ running, sim, vpn, report, snapshot }: Started): string {
  const token = running.adminToken?.token;
  const auth = token === undefined ? '<a token of API_TOKENS>' : token;
  const upHost = [...sim.fleet.minions.values()].find((m) => m.key === 'accepted' && m.up)?.id ?? '<host id>';
  const api = `${running.url}/api`;
  return [
    '',
    'Fleet API demo',
    `  API          ${api}`,
    `  API docs     ${api}/docs   (OpenAPI: ${api}/openapi.json)`,
    `  readiness    ${api}/health/ready`,
    `  salt-api     ${sim.url}   (simulator: ${sim.fleet.minions.size} minions)`,
    `  VPN server   ${vpn.url}   (simulator: VPN manager "${DEMO_MANAGER}", user ${vpn.credentials.username})`,
    `  admin token  ${auth}`,
    `  first sync   ${count(report.hostsSeen)} hosts, ${count(report.nodegroups)} nodegroups, ${count(report.actionsRecorded)} actions in ${count(report.ms)} ms`,
    `  statistics   first snapshot taken (${snapshot.up} up, ${snapshot.down} down): ${api}/hosts_statistic`,
    '',
    'Try:',
    `  curl -g -H 'Authorization: Bearer ${auth}' '${api}/hosts?max_results=5&projection={"status":1,"ip":1,"version":1}'`,
    `  curl -X POST -H 'Authorization: Bearer ${auth}' -H 'Content-Type: application/json' -d '{"exec_client":"local","fun":"cmd.run","kwarg":{"cmd":"uptime"}}' ${api}/hosts/${upHost}`,
    '',
    'Ctrl-C stops the API and the simulator.',
    '',
  ].join('\n');
}

/** The demo's readable lines (narrate.ts), unless LOG_FORMAT asks for the service's own log. */
function demoLog(): { log: ReturnType<typeof createLogger> } | Record<string, never> {
  if (process.env.LOG_FORMAT !== undefined && process.env.LOG_FORMAT !== '') return {};
  return {
    log: createLogger(
      'debug',
      narrator((text) => process.stdout.write(text)),
    ),
  };
}

/** Runs the demo until SIGINT / SIGTERM. */
export async function demoCommand(argv: readonly string[]): Promise<void> {
  const args = parseDemoArgs(argv);
  if (args === 'help') {
    process.stdout.write(HELP);
    return;
  }
  const sim = await startSaltSim({ hosts: args.hosts, port: args.simPort, seed: 1 });
  let vpn: VpnSim;
  let running: RunningServer;
  try {
    vpn = await startVpnSim({ port: args.vpnPort, seed: 1 });
  } catch (err) {
    await sim.close();
    throw err;
  }
  try {
    running = await startServer(loadConfig(demoEnv(args, sim)), { cwd: args.dataDir, ...demoLog() });
  } catch (err) {
    await Promise.all([vpn.close(), sim.close()]);
    throw err;
  }
  try {
    await wireVpnManager(running.engine.runtime, vpn);
  } catch (err) {
    await running.close();
    await Promise.all([vpn.close(), sim.close()]);
    throw err;
  }
  const service = masterIfRunning({ runtime: running.engine.runtime });
  const report = service
    ? await service.syncNow({ principal: SYSTEM, now: stampNow(), runtime: running.engine.runtime })
    : {};
  // The loop's first snapshot comes one interval later: the statistics would be empty till then.
  const snapshot = await takeSnapshot(running.engine.runtime, new Date());
  process.stdout.write(banner({ running, sim, vpn, report, snapshot }));
  const activity = startActivity(sim);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the demo\n`);
    clearInterval(activity);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    running
      .close()
      .then(() => Promise.all([sim.close(), vpn.close()]))
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
