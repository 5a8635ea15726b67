/**
 * Configuration from the environment (the names are fixed). Validated with Zod: a bad
 * value stops the start with one line naming the variable.
 */
import type { Settings } from '@fleet/engine';
import { z } from 'zod';

const intIn = (min: number, max: number, dflt: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return dflt;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a whole number from ${min} to ${max} (got "${v}")`,
        });
        return z.NEVER;
      }
      return n;
    });

/** Seconds (decimals allowed, for short test intervals) in `[min, max]`; `dflt` when unset. */
const secondsIn = (min: number, max: number, dflt: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return dflt;
      const n = Number(v);
      if (!Number.isFinite(n) || n < min || n > max) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a number of seconds from ${min} to ${max} (got "${v}")`,
        });
        return z.NEVER;
      }
      return n;
    });

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const url = optionalString.refine(
  (v) => v === undefined || /^https?:\/\/[^\s]+$/.test(v),
  'must be an http(s) URL',
);

/** An http(s) URL with no query, fragment or credentials (a base other URLs are made under). */
function publicUrl(v: string | undefined): boolean {
  if (v === undefined) return true;
  try {
    const u = new URL(v);
    return (
      /^https?:$/.test(u.protocol) &&
      u.search === '' &&
      u.hash === '' &&
      u.username === '' &&
      !v.includes('#')
    );
  } catch {
    return false;
  }
}

/** Whether Intl (Node's ICU data) knows the IANA zone. */
function knownZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const schema = z.object({
  PORT: intIn(0, 65535, 5000),
  HOST: optionalString.transform((v) => v ?? '0.0.0.0'),
  DATABASE_URL: optionalString.refine(
    (v) => v === undefined || /^(sqlite:.+|memory:|mongodb(\+srv)?:\/\/.+)$/.test(v),
    'must be sqlite:<path>, memory: or mongodb://... / mongodb+srv://...',
  ),
  API_TOKENS: optionalString.refine(
    (v) =>
      v === undefined ||
      v.split(',').every((t) => /^(?:[\w.-]+=)?[^\s:,=]{16,}:(viewer|operator|admin)$/.test(t.trim())),
    'must be a comma list of [name=]token:role, role viewer|operator|admin, tokens of 16+ characters',
  ),
  SALT_API_URL: url,
  SALT_API_USER: optionalString,
  SALT_API_PASSWORD: optionalString,
  SALT_API_EAUTH: optionalString.transform((v) => v ?? 'pam'),
  SALT_MASTER_NAME: optionalString,
  /** The master's time zone: Salt 2018.3 writes jids in the master's local time (packages/salt/src/jid.ts). */
  SALT_MASTER_TZ: optionalString
    .transform((v) => v ?? 'UTC')
    .refine(knownZone, 'must be an IANA time zone such as UTC or Europe/Berlin'),
  /**
   * Longest quiet spell of the salt-api event stream before the service checks it (salt-api sends
   * no keep-alives, so a dropped connection is silent): a probe the master answers must show up
   * on the stream, or it is reopened and a repair sync runs.
   */
  SALT_EVENTS_IDLE_S: secondsIn(0.05, 86400, 120),
  /** Longest wait for one salt-api answer to an execution (reads wait at most 60 s, login 10 s). */
  SALT_API_TIMEOUT_S: secondsIn(0.001, 3600, 120),
  /**
   * How long POST /api/graph `request_ips` waits for its job before answering 202 and the job to
   * poll (resources/graph/answer.ts); 0: never waits.
   */
  GRAPH_WAIT_S: secondsIn(0, 3600, 25),
  /** Between two `status.all_status` samples of a monitored host. */
  ALL_STATUS_INTERVAL_S: secondsIn(0.001, 86400, 30),
  /** Between two VPN reconciles (drift repair, docs/vpn.md); 0: only on demand. */
  VPN_RECONCILE_INTERVAL_S: secondsIn(0, 86400, 300),
  /** Longest wait for one VPN server answer (login and requests; downloads 2x, organization creation 4x). */
  VPN_TIMEOUT_S: secondsIn(0.001, 3600, 15),
  /** A PEM file of the CA the VPN servers' certificates are checked against (Pritunl's own is self-signed). */
  VPN_CA_FILE: optionalString,
  /**
   * `allow` (default): a VPN manager may live at a private address (loopback, RFC 1918, unique
   * local IPv6); `refuse`: only public ones. Link-local addresses (cloud metadata) are always refused.
   */
  VPN_PRIVATE_ADDRESSES: z.enum(['allow', 'refuse']).default('allow'),
  /** A PEM file of the CA the salt-api's certificate is checked against (a self-signed salt-api). */
  SALT_API_CA_FILE: optionalString,
  /** The port of the Prometheus metrics listener (`GET /metrics`, no token); unset: no listener. */
  METRICS_PORT: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65535) {
        ctx.addIssue({ code: 'custom', message: `must be a port number from 0 to 65535 (got "${v}")` });
        return z.NEVER;
      }
      return n;
    }),
  /** `json` (one JSON object a line, the default) or `pretty` (coloured, for a terminal). */
  LOG_FORMAT: optionalString
    .transform((v) => v ?? 'json')
    .refine((v) => v === 'json' || v === 'pretty', 'must be json or pretty'),
  SYNC_INTERVAL_S: intIn(1, 86400, 60),
  SNAPSHOT_INTERVAL_S: intIn(1, 86400, 300),
  SNAPSHOT_RETENTION_DAYS: intIn(1, 3650, 90),
  PAGINATION_LIMIT: intIn(1, 100000, 1000),
  MAX_UPLOAD_BYTES: intIn(1, 10 * 1024 * 1024 * 1024, 50 * 1024 * 1024),
  EXEC_ALLOWED_FUNS: optionalString.transform((v) =>
    v === undefined
      ? undefined
      : v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
  ),
  GRAIN_TOOL_KEY: optionalString.transform((v) => v ?? 'tool'),
  SECRET_KEY: optionalString.refine(
    (v) => v === undefined || v.length >= 16,
    'must be at least 16 characters',
  ),
  LOG_LEVEL: optionalString
    .transform((v) => v ?? 'info')
    .refine(
      (v) => ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(v),
      'must be one of fatal, error, warn, info, debug, trace, silent',
    ),
  /** Writes per token per minute (0: no limit); executions are counted apart (ratelimit.ts). */
  RATE_LIMIT_WRITES_PER_MIN: intIn(0, 1_000_000, 0),
  /** Executions on the master per token per minute (0: no limit). */
  RATE_LIMIT_EXEC_PER_MIN: intIn(0, 1_000_000, 0),
  CORS_ORIGINS: optionalString.transform((v) =>
    v === undefined
      ? []
      : v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
  ),
  /**
   * Request headers a cross-origin caller may send (comma list); unset: whatever the preflight
   * asks for. Each must be a header name (RFC 9110 §5.1 token).
   */
  CORS_ALLOWED_HEADERS: optionalString
    .refine(
      (v) => v === undefined || v.split(',').every((h) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(h.trim())),
      'must be a comma list of header names',
    )
    .transform((v) => v?.split(',').map((h) => h.trim())),
  /** How long a browser may reuse a preflight's answer (Chromium caps it at 7200 s). */
  CORS_MAX_AGE_S: intIn(0, 86400, 7200),
  /**
   * Where clients reach the API (`https://fleet.example.com`, or with the path a proxy serves it
   * under): media links read back absolute under it, so `<img src>` on another origin opens them.
   */
  PUBLIC_URL: optionalString
    .refine(publicUrl, 'must be an http(s) URL without query or fragment, e.g. https://fleet.example.com')
    .transform((v) => v?.replace(/\/+$/, '')),
  /** How long a signed media link (a file's `data`) opens without a token. */
  MEDIA_LINK_TTL_S: intIn(10, 7 * 86400, 900),
  /** Between two reads of the stored tokens (`fleet token`): how soon a created or revoked token counts. */
  TOKEN_REFRESH_S: secondsIn(0.05, 3600, 5),
  /**
   * How long a duty's store lease (sync, event stream, scheduler, snapshots, VPN reconcile) lives
   * past its holder's last renewal: when an instance dies, another takes its duties over within
   * this time and a third of it (packages/duties, docs/scaling.md).
   */
  LEASE_TTL_S: secondsIn(0.3, 3600, 15),
  /**
   * Processes serving the one port (cluster.ts): each is an API instance on the same store, the
   * sync, event stream, scheduler, snapshots and VPN reconcile kept to one of them by their store
   * leases.
   */
  WORKERS: intIn(1, 64, 1),
  /**
   * Threads per process for the embedded store's heavy reads (engine/src/store/sqlite/read-pool.ts):
   * a find or count no index serves runs there, off the event loop; 0 keeps every read on it.
   */
  READ_WORKERS: intIn(0, 16, 2),
});

export type Config = z.infer<typeof schema>;

/** Every variable the configuration reads (the README's table lists each; test/deploy checks it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);

/** The settings the resource definitions read (`Runtime.config`), from the configuration. */
export function engineSettings(config: Config): Settings {
  return {
    saltMasterName: config.SALT_MASTER_NAME,
    vpnPrivateAddresses: config.VPN_PRIVATE_ADDRESSES,
    graphWaitS: config.GRAPH_WAIT_S,
  };
}

/** Thrown for invalid configuration; its message is the one line to print. */
export class ConfigError extends Error {}

/** Reads and validates the configuration; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = String(issue?.path[0] ?? 'configuration');
  throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? 'is invalid'}`);
}
