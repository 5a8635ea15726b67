/**
 * Starts the real server for end-to-end tests: `startServer(loadConfig(env))` on a loopback port,
 * a fresh SQLite file in a temp dir, three fixed tokens (admin, operator, viewer), and every log
 * line captured in memory so tests can prove what the server does and does not log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest, { type Test } from 'supertest';
import {
  apiDocument,
  createEngine,
  createSecretBox,
  type AnyResourceDefinition,
  type Engine,
  type Log,
  type Runtime,
  type SecretBox,
  type Store,
} from '../../engine/src';
import { allResources, allRouteGroups } from '../../resources';
import { startServer, type RunningServer } from '../../packages/server/src/boot';
import { loadConfig, type Config } from '../../packages/server/src/config';
import { createLogger } from '../../packages/server/src/logger';
import { startClusterParts, testInstances } from './cluster-server';
import { openApiChecker, type CheckedResponse, type OpenApiChecker } from './openapi-check';

/** The bearer token of each role (API_TOKENS of every test server). */
export const TOKENS = {
  admin: 'test-admin-token-0123456789',
  operator: 'test-operator-token-0123456789',
  viewer: 'test-viewer-token-0123456789',
} as const;

export type TestRole = keyof typeof TOKENS;

/** The `Authorization` header of a role: `request.get(url).set(auth('viewer'))`. */
export function auth(role: TestRole): { Authorization: string } {
  return { Authorization: `Bearer ${TOKENS[role]}` };
}

export interface TestServerOptions {
  /** Extra or overriding environment variables (`PAGINATION_LIMIT`, `MAX_UPLOAD_BYTES`, ...). */
  readonly env?: Readonly<Record<string, string>>;
  /** Level of the captured logs (default `silent`; `info` or `debug` to inspect them). */
  readonly logLevel?: 'silent' | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
  /** The resources to serve (default: every resource of the API). */
  readonly definitions?: readonly AnyResourceDefinition[];
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** A supertest agent bound to the server: `request.get('/api/hosts').set(auth('viewer'))`. */
  readonly request: InstanceType<typeof supertest.agent>;
  readonly store: Store;
  readonly engine: Engine;
  /** The server's secret box, to seal secrets in fixtures written to the store. */
  readonly secrets: SecretBox;
  readonly config: Config;
  readonly server: RunningServer;
  /** The temp dir holding `fleet.db` (and the generated secret key). */
  readonly dir: string;
  readonly dbPath: string;
  /** Every log line written so far, as raw JSON text. */
  logs(): string;
  /** Stops the server, closes the store and removes the temp dir. */
  close(): Promise<void>;
}

type Agent = InstanceType<typeof supertest.agent>;

/** Answers met since the last flush, with the checker of the server that gave each. */
const pending: {
  readonly checker: OpenApiChecker;
  readonly method: string;
  readonly url: string;
  readonly res: CheckedResponse;
}[] = [];

/** Checks the answers met so far; the drifts found fail the running test (or hook) with their messages. */
function flushChecks(): void {
  const problems = pending.splice(0).flatMap((p) => p.checker.check(p.method, p.url, p.res) ?? []);
  if (problems.length > 0) throw new Error(problems.join('\n\n'));
}

/**
 * The checks run after each test (and after the file, for answers met in its last hooks), not
 * while it runs: the test server shares the test's process, so validating a page of 1,000 items
 * in the middle of a timed test would slow the server it measures. A drift fails the test that
 * met it all the same. Where no hook can be registered, each answer is checked as it comes.
 */
const deferred = ((): boolean => {
  try {
    afterEach(flushChecks);
    afterAll(flushChecks);
    return true;
  } catch {
    return false;
  }
})();

/**
 * A supertest agent whose every answer is checked against `doc`, the OpenAPI document the server
 * serves (openapi-check.ts): each request gets the check as its first `expect`.
 */
function checkedAgent(url: string, doc: Record<string, unknown>): Agent {
  const agent = supertest.agent(url);
  const checker = openApiChecker(doc);
  const verbs = agent as unknown as Record<string, (url: string) => Test>;
  for (const verb of ['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options']) {
    const make = verbs[verb]?.bind(agent);
    if (!make) continue;
    verbs[verb] = (path: string) => {
      const test = make(path);
      return test.expect((res) => {
        pending.push({ checker, method: test.method, url: test.url, res });
        if (!deferred) flushChecks();
      });
    };
  }
  return agent;
}

/**
 * Starts a server on a fresh database; call `close()` in `afterAll`. With FLEET_TEST_INSTANCES=N
 * (N > 1) it is N instances on one store behind a round-robin balancer (cluster-server.ts).
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  if (testInstances() > 1) return startClusterTestServer(options);
  const dir = mkdtempSync(join(tmpdir(), 'fleet-http-'));
  const dbPath = join(dir, 'fleet.db');
  const lines: string[] = [];
  const config = loadConfig(serverEnv(options, `sqlite:${dbPath}`));
  const log = createLogger(config.LOG_LEVEL, { write: (line: string) => void lines.push(line) });
  const server = await startServer(config, {
    log,
    cwd: dir,
    ...(options.definitions ? { definitions: options.definitions } : {}),
  });
  let closed: Promise<void> | undefined;
  return {
    url: server.url,
    request: checkedAgent(server.url, apiDocument(server.engine.registry)),
    store: server.store,
    engine: server.engine,
    secrets: server.secrets,
    config,
    server,
    dir,
    dbPath,
    logs: () => lines.join(''),
    close() {
      closed ??= server.close().finally(() => rmSync(dir, { recursive: true, force: true }));
      return closed;
    },
  };
}

/** The environment of every test server: a loopback port, the three tokens, the log level. */
function serverEnv(options: TestServerOptions, databaseUrl: string): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    API_TOKENS: `admin=${TOKENS.admin}:admin,operator=${TOKENS.operator}:operator,viewer=${TOKENS.viewer}:viewer`,
    LOG_LEVEL: options.logLevel ?? 'silent',
    ...options.env,
  };
}

/** `startTestServer` as N instances behind a balancer (FLEET_TEST_INSTANCES). */
async function startClusterTestServer(options: TestServerOptions): Promise<TestServer> {
  const env = serverEnv(options, 'sqlite:rig');
  const config = loadConfig(env);
  const parts = await startClusterParts(testInstances(), env, config, options.definitions);
  return {
    url: parts.url,
    request: checkedAgent(parts.url, parts.doc),
    store: parts.server.store,
    engine: parts.engine,
    secrets: parts.server.secrets,
    config,
    server: parts.server,
    dir: parts.dir,
    dbPath: parts.dbPath,
    logs: parts.logs,
    close: parts.close,
  };
}

/**
 * The engine's runtime over an open store (the collections and initial items created): what
 * the integrations get from the server's bootstrap, for tests that drive them without HTTP.
 */
export async function runtimeOver(
  store: Store,
  log: Log,
  secret = 'test-secret-key-0123456789',
): Promise<Runtime> {
  const engine = createEngine({
    definitions: allResources,
    routeGroups: allRouteGroups,
    store,
    secrets: createSecretBox(secret),
    log,
  });
  await engine.ensureCollections();
  return engine.runtime;
}
