/**
 * Public types of the salt-api client. Shapes follow the rest_cherrypy contract
 * (salt-api 2018.3: salt/netapi/rest_cherrypy/app.py); names are camelCase where the client reshapes.
 */

/** Per-kind request timeouts in milliseconds. */
export interface SaltTimeouts {
  /** POST /login. Default 10 s. */
  login: number;
  /** Executions (local, local_async, local_batch, wheel/runner writes). Default 120 s: a sync
   * `local` call waits timeout + gather_job_timeout for silent minions (salt/netapi/__init__.py, salt/client/__init__.py). */
  exec: number;
  /** Reads (GET /jobs, /keys, /minions, read-only runner/wheel functions). Default 15 s. */
  read: number;
}

/** Bounded exponential back-off for idempotent reads. */
export interface SaltRetry {
  /** Total attempts including the first. Default 3. */
  attempts: number;
  /** First back-off delay. Default 100 ms; doubles per attempt. */
  baseDelayMs: number;
  /** Cap of one delay. Default 1000 ms. */
  maxDelayMs: number;
}

/** A pino-compatible logger (only these four methods are used). */
export interface SaltLogger {
  debug(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

/** Options of `createSaltClient`. */
export interface SaltClientOptions {
  url: string;
  username: string;
  password: string;
  /** eauth backend; default `pam`. */
  eauth?: string;
  timeouts?: Partial<SaltTimeouts>;
  retry?: Partial<SaltRetry>;
  logger?: SaltLogger;
  /** TLS of an `https` salt-api: the CA its certificate is checked against (a self-signed salt-api). */
  tls?: { ca?: string | Buffer };
  /** Told of every call's end (metrics): its function, outcome and time. Must not throw. */
  onCall?: (call: SaltCallOutcome) => void;
}

/** One finished salt-api call as `onCall` sees it. */
export interface SaltCallOutcome {
  /** `local:test.ping`, `runner:manage.status`, `wheel:key.list_all`, `GET /jobs`, `login`... */
  readonly fun: string;
  readonly outcome: 'ok' | 'error';
  readonly ms: number;
}

/** One lowstate chunk as POST / takes it (salt/netapi/__init__.py, salt/client/__init__.py). */
export interface LowstateChunk {
  client: string;
  fun: string;
  tgt?: string | string[];
  tgt_type?: TargetType;
  arg?: unknown[];
  kwarg?: Record<string, unknown>;
  full_return?: boolean;
  [extra: string]: unknown;
}

/** Targeting types (salt/netapi/__init__.py, salt/client/__init__.py `tgt_type`). */
export type TargetType =
  | 'glob'
  | 'pcre'
  | 'list'
  | 'grain'
  | 'grain_pcre'
  | 'pillar'
  | 'pillar_pcre'
  | 'nodegroup'
  | 'range'
  | 'compound'
  | 'ipcidr';

/** Options of `local` / `localAsync`. */
export interface LocalOptions {
  arg?: unknown[];
  kwarg?: Record<string, unknown>;
  tgt_type?: TargetType;
  /** Ask for `{ret, retcode, jid}` per minion so silence is told apart from `false`. Default true. */
  fullReturn?: boolean;
  /** Extra lowstate keys (`timeout`, `metadata`, `batch`...). */
  extra?: Record<string, unknown>;
}

/**
 * What one targeted minion gave back. `no_response`: it did not answer (a bare `false`
 * under full_return, or the "Minion did not return" text). `ambiguous_false`: with
 * `fullReturn: false`, a `false` that may be a real return or silence (salt/netapi/__init__.py, salt/client/__init__.py, PR #36318).
 */
export type MinionOutcome =
  | { status: 'returned'; ret: unknown; retcode: number | null; jid: string | null; out?: string }
  | { status: 'no_response'; message: string }
  | { status: 'ambiguous_false' };

/** Result of a synchronous `local` call. `jid` is null when nothing matched. */
export interface LocalResult {
  jid: string | null;
  minions: Record<string, MinionOutcome>;
}

/** `local_async`: the job id and the minions expected to return; jid null when nothing matched. */
export interface AsyncJob {
  jid: string | null;
  minions: string[];
}

/** One entry of `jobs.list_jobs` (GET /jobs). */
export interface JobSummary {
  jid: string;
  function: string;
  arguments: unknown[];
  target: string | string[];
  targetType: string;
  user: string;
  /** `jid_to_time` format: "2024, Jan 01 12:00:00.123456". */
  startTime: string;
  metadata?: unknown;
}

/** One minion's entry in the job cache. */
export interface JobMinionResult {
  return: unknown;
  retcode: number | null;
  success: boolean | null;
  out?: string;
}

/** GET /jobs/<jid>: the job, its per-minion results, and who has not returned yet. */
export interface JobDetail extends JobSummary {
  minions: string[];
  result: Record<string, JobMinionResult>;
  /** Targeted minions without a return so far (poll until empty, salt/netapi/rest_cherrypy/app.py). */
  pending: string[];
  /** Set when the job is unknown or expired ("Cannot contact returner or no job with this jid"). */
  error?: string;
}

/** Key ids per pki directory (wheel key.list_all, GET /keys). */
export interface KeyLists {
  minions: string[];
  minions_pre: string[];
  minions_rejected: string[];
  minions_denied: string[];
  local: string[];
}

/** Key acceptance states, named as the Fleet API stores them. */
export type KeyState = 'accepted' | 'pending' | 'rejected' | 'denied';

/** Fingerprints (colon-separated hex pairs) per key state and minion id. */
export type KeyFingerprints = Record<KeyState, Record<string, string>>;

/** manage.status. */
export interface ManageStatus {
  up: string[];
  down: string[];
}

/** One event of GET /events: the tag and its data dict (with `_stamp`). */
export interface SaltEvent {
  tag: string;
  data: Record<string, unknown>;
}

/** Why an event stream ended. */
export type StreamEnd = 'closed_by_client' | 'closed_by_server' | 'error';

/** A live GET /events subscription. Iterate it; it ends when the stream does (reconnecting is the caller's job). */
export interface SaltEventStream extends AsyncIterable<SaltEvent> {
  /** Ends the subscription (idempotent). */
  close(): void;
  /** Resolves when the stream has ended, with the reason. */
  readonly ended: Promise<StreamEnd>;
  /** The `retry:` value the server announced, in ms. */
  readonly retryMs: number | undefined;
  /** Whether TCP keep-alive is on for the stream's socket. */
  readonly tcpKeepAlive: boolean;
  /** When the stream last delivered an event (epoch ms; its opening time before the first). */
  readonly lastEventAt: number;
  /**
   * Takes up to `max` events that have arrived and wait to be iterated, without waiting for
   * more (none: an empty list): what came together while the reader was busy, to handle as one batch.
   */
  takeReady(max: number): SaltEvent[];
}
