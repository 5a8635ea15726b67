/**
 * `createSaltClient`: typed methods over salt-api's rest_cherrypy interface. Executions
 * go through POST / with lowstate chunks and are never retried; reads (GET /jobs, /keys,
 * /minions and the read-only runner/wheel functions below) are retried with back-off.
 */
import { BadGateway, NotFound, ServiceUnavailable } from '@fleet/engine';
import { malformed, SaltFunctionFailed } from './errors';
import { openEventStream } from './events';
import {
  asObject,
  isList,
  jobDetail,
  jobSummary,
  keyFingerprints,
  keyLists,
  minionOutcome,
  nodegroupExpressions,
  returnList,
} from './normalize';
import { SESSION_PROBE, Transport } from './transport';
import type {
  AsyncJob,
  JobDetail,
  JobSummary,
  KeyFingerprints,
  KeyLists,
  LocalOptions,
  LocalResult,
  LowstateChunk,
  ManageStatus,
  SaltClientOptions,
  SaltEventStream,
  TargetType,
} from './types';

/** Runner functions that only read (salt/runners/jobs.py, salt/runners/manage.py, salt/wheel/key.py, salt/runners/fileserver.py, salt/modules/cp.py, salt/utils/minions.py): safe to retry. */
const READ_RUNNERS = new Set([
  'manage.status',
  'manage.up',
  'manage.present',
  'manage.not_present',
  'manage.list_state',
  'manage.joined',
  'manage.alived',
  'manage.versions',
  'jobs.list_jobs',
  'jobs.list_jobs_filter',
  'jobs.list_job',
  'jobs.lookup_jid',
  'jobs.print_job',
  'jobs.exit_success',
  'jobs.active',
  'jobs.last_run',
  'fileserver.file_list',
  'fileserver.dir_list',
  'fileserver.empty_dir_list',
  'fileserver.symlink_list',
  'fileserver.envs',
  'config.get',
]);
/** Wheel functions that only read. */
const READ_WHEELS = new Set([
  'key.list_all',
  'key.list',
  'key.finger',
  'key.finger_master',
  'key.print',
  'key.name_match',
]);

/**
 * Keys a wheel kwarg may not be sent as: salt-api and the master read them themselves
 * (`NetapiClient.run`, `ClearFuncs.wheel`, `CLIENT_INTERNAL_KEYWORDS` of salt/client/mixins.py).
 */
const WHEEL_RESERVED = new Set([
  'client',
  'fun',
  'arg',
  'kwarg',
  'token',
  'eauth',
  'username',
  'password',
  'cmd',
  'full_return',
  'print_event',
  'timeout',
  '__jid__',
  '__tag__',
  '__user__',
]);

/**
 * The text a runner or wheel function that failed returns with HTTP 200: `SyncClientMixin._low`
 * formats an exception as "Exception occurred in <client> <fun>: ..." (every version) and, from
 * 3000 on, a call with arguments the function does not take as "\nPassed invalid arguments: ...".
 */
const FAILED_RETURN = /^(Exception occurred in (runner|wheel) |\s*Passed invalid arguments: )/;

/**
 * The ValueError of 2018.3 `manage.status` with nothing to ping, as Python 3 and Python 2 word
 * it (salt/runners/manage.py `status`: `ret['up'], ret['down'] = _ping(...)` with `_ping` -> `{}`).
 */
const NOTHING_MATCHED =
  /ValueError: (not enough values to unpack \(expected 2, got 0\)|need more than 0 values to unpack)/;

type Grains = Record<string, unknown>;

/** The salt-api client used by the service. */
export interface SaltClient {
  /**
   * The salt-api user it logs in as: the master records it as the publisher (`user` of
   * `salt/job/<jid>/new`, the job cache's `User`) of every job the service starts.
   */
  readonly user: string;
  /** POST / with any lowstate; returns the `return` list. Retried only if every chunk is a known read. */
  run(lowstate: LowstateChunk | LowstateChunk[]): Promise<unknown[]>;
  /** Synchronous `local` call; silent minions are `no_response`, never a fake `false`. */
  local(tgt: string | string[], fun: string, options?: LocalOptions): Promise<LocalResult>;
  /** `local_async`: publishes and returns `{jid, minions}` at once. */
  localAsync(tgt: string | string[], fun: string, options?: LocalOptions): Promise<AsyncJob>;
  /** A runner function's return; a runner that raised becomes BadGateway. */
  runner(fun: string, kwarg?: Record<string, unknown>): Promise<unknown>;
  /** A wheel function's `data.return`; `success: false` becomes BadGateway. */
  wheel(fun: string, kwarg?: Record<string, unknown>): Promise<unknown>;
  /** GET /jobs (all cached jobs) or GET /jobs/<jid> (one job with results and pending minions). */
  jobs(): Promise<Record<string, JobSummary>>;
  jobs(jid: string): Promise<JobDetail>;
  /** GET /minions[/<mid>]: grains per minion, null for one that did not answer. */
  minions(mid?: string): Promise<Record<string, Grains | null>>;
  /** GET /keys. */
  keys(): Promise<KeyLists>;
  /** Opens GET /events; resolves once the server has accepted the subscription. */
  events(): Promise<SaltEventStream>;
  /**
   * wheel key.finger_master: a cheap call the master answers and puts on its bus
   * (`salt/wheel/<jid>/new` and `/ret`, `ClearFuncs.wheel`); resolves the answer's tag.
   */
  echo(): Promise<string>;
  /** wheel key.list_all: ids in every key state. */
  listKeys(): Promise<KeyLists>;
  /** wheel key.finger: fingerprint per state and minion id. */
  keyFingerprints(match?: string): Promise<KeyFingerprints>;
  /** local grains.items (full_return): grains per minion, null for one that did not answer. */
  grains(tgt?: string | string[], tgtType?: TargetType): Promise<Record<string, Grains | null>>;
  /** runner manage.status. */
  manageStatus(tgt?: string, tgtType?: TargetType): Promise<ManageStatus>;
  /** runner config.get nodegroups, as compound expression strings. */
  nodegroups(): Promise<Record<string, string>>;
  /** runner fileserver.file_list (base env), filtered by path prefix. */
  fileList(prefix?: string): Promise<string[]>;
  /** cp.get_file_str salt://<path> on a connected minion (or `tgt`). */
  fileRead(path: string, options?: { tgt?: string }): Promise<string>;
  /** Frees keep-alive sockets. */
  close(): void;
}

function isReadChunk(c: LowstateChunk): boolean {
  if (c.client === 'runner') return READ_RUNNERS.has(c.fun);
  if (c.client === 'wheel') return READ_WHEELS.has(c.fun);
  return false;
}

function localChunk(client: string, tgt: string | string[], fun: string, o: LocalOptions): LowstateChunk {
  return {
    ...o.extra,
    client,
    tgt,
    fun,
    arg: o.arg ?? [],
    ...(o.kwarg ? { kwarg: o.kwarg } : {}),
    ...(o.tgt_type ? { tgt_type: o.tgt_type } : {}),
  };
}

/** The lowstate of a runner call (docs/salt-calls.md): kwargs in `kwarg`, never top-level. */
export function runnerChunk(fun: string, kwarg: Record<string, unknown> = {}): LowstateChunk {
  return Object.keys(kwarg).length > 0
    ? { client: 'runner', fun, kwarg: { ...kwarg } }
    : { client: 'runner', fun };
}

/**
 * The lowstate of a wheel call (docs/salt-calls.md): kwargs as top-level keys. The master's
 * `SyncClientMixin._low` uses `arg`/`kwarg` only when both are present and otherwise fills the
 * function's parameters from the top-level keys (`format_call`): a lone `kwarg` is ignored and
 * `key.finger` fails with "finger takes at least 1 argument (0 given)".
 */
export function wheelChunk(fun: string, kwarg: Record<string, unknown> = {}): LowstateChunk {
  const clash = Object.keys(kwarg).filter((k) => WHEEL_RESERVED.has(k));
  if (clash.length > 0)
    throw new Error(`wheel ${fun}: ${clash.join(', ')} cannot be sent as a wheel argument`);
  return { ...kwarg, client: 'wheel', fun };
}

function firstLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return `${lines[0] ?? ''}${lines.length > 1 ? ` ${lines[lines.length - 1] ?? ''}` : ''}`.slice(0, 300);
}

class SaltApiClient implements SaltClient {
  constructor(
    private readonly t: Transport,
    readonly user: string,
  ) {}

  private async post(chunks: LowstateChunk[], kind: 'exec' | 'read'): Promise<unknown[]> {
    return returnList(await this.t.request({ method: 'POST', path: '/', body: chunks, kind }), 'POST /');
  }

  private async get(path: string): Promise<unknown> {
    return this.t.request({ method: 'GET', path, kind: 'read' });
  }

  run(lowstate: LowstateChunk | LowstateChunk[]): Promise<unknown[]> {
    const chunks = Array.isArray(lowstate) ? lowstate : [lowstate];
    return this.post(chunks, chunks.length > 0 && chunks.every(isReadChunk) ? 'read' : 'exec');
  }

  /**
   * Runner kwargs travel in `kwarg`: `RunnerClient._reformat_low` reads `kwarg` (and `arg`, and
   * old-style top-level keys), but pops the top-level `key`, `user`, `username`, `password`,
   * `eauth`, `token` and `client` as credentials, so `config.get` with a top-level `key` would
   * never get it.
   */
  async runner(fun: string, kwarg: Record<string, unknown> = {}): Promise<unknown> {
    const [ret] = await this.run(runnerChunk(fun, kwarg));
    // A runner that raises still answers 200, with its traceback as the return (salt/netapi/__init__.py, salt/client/__init__.py).
    if (typeof ret === 'string' && FAILED_RETURN.test(ret))
      throw new SaltFunctionFailed('runner', fun, firstLine(ret), ret);
    return ret;
  }

  async wheel(fun: string, kwarg: Record<string, unknown> = {}): Promise<unknown> {
    const [ret] = await this.run(wheelChunk(fun, kwarg));
    // The answer is the whole ret event; an exception is `success: false` with its text (salt/netapi/__init__.py, salt/client/__init__.py).
    const data = asObject(asObject(ret)?.['data']);
    if (data === undefined) throw new BadGateway(`salt wheel ${fun}: unexpected answer`);
    const text = typeof data['return'] === 'string' ? data['return'] : '';
    if (data['success'] === false || FAILED_RETURN.test(text))
      throw new SaltFunctionFailed('wheel', fun, firstLine(String(data['return'])), String(data['return']));
    return data['return'];
  }

  async local(tgt: string | string[], fun: string, o: LocalOptions = {}): Promise<LocalResult> {
    const fullReturn = o.fullReturn ?? true;
    const [ret] = await this.post([{ ...localChunk('local', tgt, fun, o), full_return: fullReturn }], 'exec');
    const minions = Object.fromEntries(
      Object.entries(asObject(ret) ?? {}).map(([id, v]) => [id, minionOutcome(v, fullReturn)]),
    );
    const withJid = Object.values(minions).find((m) => m.status === 'returned' && m.jid !== null);
    return { jid: withJid?.status === 'returned' ? withJid.jid : null, minions };
  }

  async localAsync(tgt: string | string[], fun: string, o: LocalOptions = {}): Promise<AsyncJob> {
    const [ret] = await this.post([localChunk('local_async', tgt, fun, o)], 'exec');
    // No match at all is `{}` with no job (salt/netapi/__init__.py, salt/client/__init__.py).
    const r = asObject(ret) ?? {};
    return {
      jid: typeof r['jid'] === 'string' ? r['jid'] : null,
      minions: Array.isArray(r['minions']) ? r['minions'].map(String) : [],
    };
  }

  jobs(): Promise<Record<string, JobSummary>>;
  jobs(jid: string): Promise<JobDetail>;
  async jobs(jid?: string): Promise<Record<string, JobSummary> | JobDetail> {
    if (jid !== undefined) return jobDetail(jid, await this.get(`/jobs/${encodeURIComponent(jid)}`));
    const [all] = returnList(await this.get('/jobs'), 'GET /jobs');
    return Object.fromEntries(Object.entries(asObject(all) ?? {}).map(([id, v]) => [id, jobSummary(id, v)]));
  }

  async minions(mid?: string): Promise<Record<string, Grains | null>> {
    const path = mid === undefined ? '/minions' : `/minions/${encodeURIComponent(mid)}`;
    const [ret] = returnList(await this.get(path), `GET ${path}`);
    return Object.fromEntries(
      Object.entries(asObject(ret) ?? {}).map(([id, g]) => [id, asObject(g) ?? null]),
    );
  }

  async keys(): Promise<KeyLists> {
    // GET /keys is not wrapped in a list: {"return": <wheel data.return>} (salt/netapi/rest_cherrypy/app.py).
    return keyLists(asObject(await this.get('/keys'))?.['return']);
  }

  events(): Promise<SaltEventStream> {
    return openEventStream(this.t);
  }

  async echo(): Promise<string> {
    const [ret] = await this.run({ ...SESSION_PROBE });
    const tag = asObject(ret)?.['tag'];
    if (typeof tag !== 'string') throw new BadGateway('salt wheel key.finger_master: unexpected answer');
    return tag;
  }

  async listKeys(): Promise<KeyLists> {
    return keyLists(await this.wheel('key.list_all'));
  }

  async keyFingerprints(match = '*'): Promise<KeyFingerprints> {
    return keyFingerprints(await this.wheel('key.finger', { match }));
  }

  async grains(
    tgt: string | string[] = '*',
    tgtType: TargetType = 'glob',
  ): Promise<Record<string, Grains | null>> {
    const { minions } = await this.local(tgt, 'grains.items', { tgt_type: tgtType });
    return Object.fromEntries(
      Object.entries(minions).map(([id, m]) => [
        id,
        m.status === 'returned' ? (asObject(m.ret) ?? null) : null,
      ]),
    );
  }

  async manageStatus(tgt = '*', tgtType: TargetType = 'glob'): Promise<ManageStatus> {
    let answer: unknown;
    try {
      answer = await this.runner('manage.status', { tgt, tgt_type: tgtType });
    } catch (err) {
      // 2018.3 `manage.status` raises when no accepted minion matches (`_ping` returns `{}`,
      // which `status` unpacks into up and down; 2019.2 answers two empty lists): no minion.
      if (err instanceof SaltFunctionFailed && NOTHING_MATCHED.test(err.text)) return { up: [], down: [] };
      throw err;
    }
    const r = asObject(answer) ?? {};
    const ids = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
    return { up: ids(r['up']), down: ids(r['down']) };
  }

  async nodegroups(): Promise<Record<string, string>> {
    // No dedicated API: the master opts through runner config.get (salt/utils/minions.py).
    return nodegroupExpressions(await this.runner('config.get', { key: 'nodegroups' }));
  }

  async fileList(prefix = ''): Promise<string[]> {
    const files = await this.runner('fileserver.file_list', { saltenv: 'base' });
    return (Array.isArray(files) ? files.map(String) : []).filter((f) => f.startsWith(prefix));
  }

  /**
   * The master has no file-read runner in the notes (§8b): `cp.get_file_str` runs on a
   * minion, picked from manage.present (connected, no command sent) unless `tgt` is given.
   */
  async fileRead(path: string, o: { tgt?: string } = {}): Promise<string> {
    const rel = path.replace(/^salt:\/\//, '').replace(/^\/+/, '');
    const present = o.tgt === undefined ? await this.runner('manage.present') : [];
    if (!isList(present)) throw malformed('manage.present', 'not a list');
    const candidates = o.tgt !== undefined ? [o.tgt] : present.map(String).slice(0, 3);
    for (const tgt of candidates) {
      const outcome = (await this.local(tgt, 'cp.get_file_str', { arg: [`salt://${rel}`] })).minions[tgt];
      if (outcome?.status !== 'returned') continue;
      if (typeof outcome.ret === 'string') return outcome.ret;
      throw new NotFound(`salt://${rel} is not on the master's file server`);
    }
    throw new ServiceUnavailable(`no connected minion could read salt://${rel}`);
  }

  close(): void {
    this.t.close();
  }
}

/** Creates a client; nothing is sent until the first call (which logs in). */
export function createSaltClient(options: SaltClientOptions): SaltClient {
  return new SaltApiClient(new Transport(options), options.username);
}
