/**
 * Publications and the job cache (salt/netapi/__init__.py, salt/client/__init__.py, salt/runners/jobs.py, salt/minion.py, salt/utils/event.py). A publication gets a jid
 * (`salt.utils.jid.gen_jid`), fires `<jid>` and `salt/job/<jid>/new`, and each up minion
 * returns after a short delay with `salt/job/<jid>/ret/<mid>`; down minions never return.
 * The cache answers jobs.list_jobs / list_job / lookup_jid in their real shapes.
 */
import type { EventBus } from './bus';
import { saltStamp } from './bus';
import type { SimSettings } from './settings';
import { execute } from './execution';
import type { Fleet } from './model';
import type { MinionOutput } from './state';
import { atLeast, wallClock } from './version';

/** One minion's entry in the job cache. */
export interface JobReturn {
  return: unknown;
  retcode: number;
  success: boolean;
  out?: string;
}

/** A published job. `settled` resolves once every minion that was up has returned. */
export interface SimJob {
  jid: string;
  fun: string;
  /** Positional args, then kwargs as a trailing dict with `__kwarg__: true`. */
  arg: unknown[];
  tgt: unknown;
  tgtType: string;
  user: string;
  minions: string[];
  missing: string[];
  startMs: number;
  metadata?: unknown;
  returns: Map<string, JobReturn>;
  /** Each minion's return event data, as fired (what a `raw` batch yields). */
  events: Map<string, Record<string, unknown>>;
  settled: Promise<void>;
}

function isDict(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What `publish` needs. */
export interface Publication {
  fun: string;
  args: unknown[];
  kwargs: Record<string, unknown>;
  tgt: unknown;
  tgtType: string;
  user: string;
  minions: string[];
  missing: string[];
  metadata?: unknown;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MAX_JOBS = 5000;

/**
 * `salt.utils.jid.jid_to_time`: "2024, Jan 01 12:00:00.123456" (the jid's own digits, so in the
 * zone the master wrote it in); "" for a string that is not shaped like a jid (`is_jid`: 20
 * digits, or more with `_` at index 20).
 */
export function jidToTime(jid: string): string {
  if (jid.length !== 20 && (jid.length <= 21 || jid[20] !== '_')) return '';
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{6})/.exec(jid);
  if (!m) return '';
  return `${m[1]}, ${MONTHS[Number(m[2]) - 1] ?? 'Jan'} ${m[3]} ${m[4]}:${m[5]}:${m[6]}.${m[7]}`;
}

/** Publishes jobs on the simulated minions and keeps the job cache. */
export class JobStore {
  private readonly jobs = new Map<string, SimJob>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly issued = new Set<string>();

  constructor(
    private readonly fleet: Fleet,
    private readonly bus: EventBus,
    private readonly settings: SimSettings,
  ) {}

  /**
   * `gen_jid`: `%Y%m%d%H%M%S%f` of the master's clock. 2018.3 (and 2019.2) format
   * `datetime.datetime.now()`, the master's local time (`masterTz`), so jids run backwards when
   * daylight saving time ends; 3000 formats `_utc_now()`. Only an exact repeat is bumped by one
   * microsecond (the simulator keys its cache by jid); a clock going back is kept as it is.
   */
  newJid(): string {
    const now = Date.now() + this.settings.clockOffsetMs;
    const tz = atLeast(this.settings.masterVersion, '3000') ? 'UTC' : this.settings.masterTz;
    const { digits, millis } = wallClock(now, tz);
    let jid = `${digits}${String(millis * 1000).padStart(6, '0')}`;
    while (this.issued.has(jid)) jid = (BigInt(jid) + 1n).toString();
    this.issued.add(jid);
    if (this.issued.size > MAX_JOBS * 4) this.issued.delete(this.issued.values().next().value ?? '');
    return jid;
  }

  /** Publishes a job; returns are delivered asynchronously by the up minions. */
  publish(pub: Publication): SimJob {
    const jid = this.newJid();
    const kw = Object.keys(pub.kwargs).length > 0 ? [{ ...pub.kwargs, __kwarg__: true }] : [];
    const arg = [...pub.args, ...kw];
    const upAtPublish = pub.minions.filter((id) => this.fleet.minions.get(id)?.up === true);
    let resolveSettled: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => {
      resolveSettled = resolve;
    });
    const job: SimJob = {
      jid,
      fun: pub.fun,
      arg,
      tgt: pub.tgt,
      tgtType: pub.tgtType,
      user: pub.user,
      minions: pub.minions,
      missing: pub.missing,
      startMs: Date.now(),
      metadata: pub.metadata,
      returns: new Map(),
      events: new Map(),
      settled,
    };
    this.remember(job);
    this.bus.fire(jid, { minions: pub.minions });
    this.bus.fire(`salt/job/${jid}/new`, {
      jid,
      tgt_type: pub.tgtType,
      tgt: pub.tgt,
      user: pub.user,
      fun: pub.fun,
      arg,
      minions: pub.minions,
      missing: pub.missing,
    });
    let left = upAtPublish.length;
    if (left === 0) resolveSettled();
    // Each minion returns as it finishes; the master publishes every return as it arrives
    // (salt/master.py `AESFuncs._return` -> salt/utils/job.py `store_job` fires
    // `salt/job/<jid>/ret/<id>`). `returnSpacingMs` spaces the minions' finishing times; returns
    // due in the same millisecond leave together, as a burst on a busy master's bus does.
    const spacing = this.settings.returnSpacingMs;
    upAtPublish.forEach((id, i) => {
      this.later(this.settings.returnDelayMs + Math.floor(i * spacing), () => {
        this.deliver(job, id, pub);
        left -= 1;
        if (left === 0) resolveSettled();
      });
    });
    return job;
  }

  private deliver(job: SimJob, id: string, pub: Publication): void {
    const minion = this.fleet.minions.get(id);
    if (minion === undefined || !minion.up) return;
    const out: MinionOutput = execute(pub.fun, {
      fleet: this.fleet,
      minion,
      args: pub.args,
      kwargs: pub.kwargs,
    });
    if (out.noReturn === true) return;
    const entry: JobReturn = {
      return: out.ret,
      retcode: out.retcode,
      success: this.success(out),
      ...(out.out ? { out: out.out } : {}),
    };
    job.returns.set(id, entry);
    const kw = Object.keys(pub.kwargs).length > 0 ? [pub.kwargs] : [];
    // `_thread_return` copies `metadata` (a dict) into the return, and no `user`: the return
    // load is `cmd`, `id` and the ret dict (jid, fun, fun_args, return, retcode, success, out,
    // metadata), 2018.3 to 3006.
    const data: Record<string, unknown> = {
      cmd: '_return',
      id,
      jid: job.jid,
      fun: pub.fun,
      fun_args: [...pub.args, ...kw],
      return: out.ret,
      retcode: out.retcode,
      success: entry.success,
      ...(out.out ? { out: out.out } : {}),
      ...(isDict(pub.metadata) ? { metadata: pub.metadata } : {}),
      _stamp: saltStamp(),
    };
    job.events.set(id, data);
    this.bus.fire(`salt/job/${job.jid}/ret/${id}`, data);
  }

  /**
   * A return's `success`. 2018.3 `minion.py` `_thread_return` sets `ret['success'] = True`
   * whenever the function returned (a failed state too: only `retcode`, from `__context__`,
   * tells); 2019.2 sets `success = retcode == EX_OK`. A missing or raising function is `False`
   * in both.
   */
  private success(out: MinionOutput): boolean {
    if (out.raised === true) return false;
    return atLeast(this.settings.masterVersion, '2019.2') ? out.retcode === 0 : true;
  }

  private remember(job: SimJob): void {
    this.jobs.set(job.jid, job);
    if (this.jobs.size > MAX_JOBS) {
      const oldest = this.jobs.keys().next().value;
      if (oldest !== undefined) this.jobs.delete(oldest);
    }
  }

  /** Runs `fn` after `ms` unless the store is closed first. */
  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  /** A cached job by jid. */
  get(jid: string): SimJob | undefined {
    return this.jobs.get(jid);
  }

  /** runner `jobs.list_jobs`: jid -> {Function, Arguments, Target, Target-type, User, StartTime}. */
  listJobs(): Record<string, Record<string, unknown>> {
    return Object.fromEntries([...this.jobs.values()].map((j) => [j.jid, this.summary(j)]));
  }

  private summary(j: SimJob): Record<string, unknown> {
    return {
      Function: j.fun,
      Arguments: j.arg,
      Target: j.tgt,
      'Target-type': j.tgtType,
      User: j.user,
      StartTime: jidToTime(j.jid),
      ...(j.metadata !== undefined ? { Metadata: j.metadata } : {}),
    };
  }

  /**
   * runner `jobs.list_job`: the summary plus sorted Minions and the per-minion Result. An
   * unknown jid gets `_format_jid_instance`'s `Error` and still `StartTime: jid_to_time(jid)`.
   */
  listJob(jid: string): Record<string, unknown> {
    const j = this.jobs.get(jid);
    if (j === undefined)
      return {
        jid,
        Error: 'Cannot contact returner or no job with this jid',
        StartTime: jidToTime(jid),
        Result: {},
      };
    return { jid, ...this.summary(j), Minions: [...j.minions].sort(), Result: Object.fromEntries(j.returns) };
  }

  /** runner `jobs.lookup_jid`: mid -> return, wrapped in {outputter, data} for outputter jobs. */
  lookupJid(jid: string, missing: boolean): Record<string, unknown> {
    const j = this.jobs.get(jid);
    if (j === undefined) return {};
    const data: Record<string, unknown> = Object.fromEntries([...j.returns].map(([id, r]) => [id, r.return]));
    if (missing) for (const id of j.minions) if (!j.returns.has(id)) data[id] = 'Minion did not return';
    const out = [...j.returns.values()].find((r) => r.out !== undefined)?.out;
    return out !== undefined ? { outputter: out, data } : data;
  }

  /** Cancels pending returns (server shutdown). */
  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
