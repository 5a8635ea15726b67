/**
 * The outward-address probe (POST /api/graph `request_ips`): every host
 * fetches the resolver URL itself, so the resolver sees the address the host's traffic leaves
 * from (its own for a direct host, the NAT's for one behind a NAT).
 *
 * The GET runs as `cmd.run` on the minion (salt/modules/cmdmod.py): with `curl` when the host has
 * it, else with `wget`. Neither is on every minion (Debian installs wget but not curl, RHEL-like
 * minimal installs curl but not wget, Ubuntu both), while `/bin/sh` and `command -v` (POSIX) are;
 * hence the one-line fallback. Salt's own `http.query` was set aside: its tornado backend returns
 * the body as bytes on Python 3 before `decode_body` (salt/utils/http.py), which a 2018.3 master
 * cannot serialise to JSON. The probe is bounded three times: curl `-m` / wget `-T`, and cmd.run's
 * `timeout`, which kills the shell and answers "<cmd> : Timed out after N seconds" (TimedProc).
 * `python_shell: true` is what remote execution defaults to (`_python_shell_default` with a jid)
 * and the `if` needs a shell; the URL is single-quoted, so nothing in it reaches the shell as syntax.
 * cmd.run merges stderr into its return (`redirect_stderr`, True by default): a failure's message
 * is in the output, and the job's retcode (full_return) is the shell's exit status.
 */
import { isIP } from 'node:net';
import { ServiceUnavailable } from '@fleet/engine';
import type { OutwardAnswer, OutwardRequest } from '@fleet/resources';
import type { MinionOutcome, SaltClient } from '../client';
import { SYNC_METADATA } from '../sync/noise';

/** Job metadata of the probes: bookkeeping, not actions (the sync and the events skip them). */
export const OUTWARD_METADATA: Readonly<Record<string, string>> = Object.freeze({
  ...SYNC_METADATA,
  task: 'outward_address',
});

/** Hosts per `local` call, and calls in flight at once. */
export const PROBE_BATCH = 200;
export const PROBE_PARALLEL = 2;
/** How long one host's GET may take (curl -m, wget -T); cmd.run's own timeout is a few seconds more. */
export const PROBE_TIMEOUT_S = 10;
const SHELL_TIMEOUT_S = PROBE_TIMEOUT_S + 5;

/** POSIX single quotes: every character is literal; a quote closes, is escaped, and reopens. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The shell line that GETs `url` and prints the body (docs/salt-calls.md). */
export function probeCommand(url: string): string {
  const u = shellQuote(url);
  return `if command -v curl >/dev/null 2>&1; then curl -fsS -m ${PROBE_TIMEOUT_S} ${u}; else wget -qO- -T ${PROBE_TIMEOUT_S} ${u}; fi`;
}

/** The `kwarg` of the probe's cmd.run. */
export function probeKwarg(url: string): Record<string, unknown> {
  return { cmd: probeCommand(url), python_shell: true, timeout: SHELL_TIMEOUT_S };
}

/** The URL as it may be shown: no query, no credentials (they may be tokens). */
function shownUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

/** The first line of an output, cut short, with the URL shown safely. */
function excerpt(output: string, url: string): string {
  const line =
    output
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  return line.split(url).join(shownUrl(url)).slice(0, 200);
}

/** One host's answer from its outcome of the `local` call. */
export function answerOf(host: string, outcome: MinionOutcome | undefined, url: string): OutwardAnswer {
  if (outcome === undefined || outcome.status !== 'returned')
    return { host, error: "the minion did not answer (down, or busy past the master's timeout)" };
  const output = typeof outcome.ret === 'string' ? outcome.ret : (JSON.stringify(outcome.ret) ?? '');
  // TimedProc's message repeats the whole command line: the limit is what matters.
  const killed = /: Timed out after (\d+) seconds$/.exec(output);
  if (killed && outcome.retcode === 1)
    return { host, error: `no answer from the resolver within ${killed[1] ?? ''} seconds (cmd.run timeout)` };
  if (outcome.retcode !== 0 && outcome.retcode !== null)
    return { host, error: `exit ${outcome.retcode}: ${excerpt(output, url) || 'no output'}` };
  const address = output.trim();
  if (isIP(address) !== 0) return { host, address: address.toLowerCase() };
  return { host, error: `the resolver answered ${JSON.stringify(excerpt(output, url))}, not an IP address` };
}

/** What the probe needs. */
export interface ProbeDeps {
  readonly client: SaltClient;
  /** True once the service is stopping: no further batch starts. */
  readonly stopping: () => boolean;
  readonly batch?: number;
  readonly parallel?: number;
}

/** Probes one batch: one `local` cmd.run call targeted as a list. */
async function probeBatch(client: SaltClient, ids: readonly string[], url: string): Promise<OutwardAnswer[]> {
  const result = await client.local([...ids], 'cmd.run', {
    tgt_type: 'list',
    kwarg: probeKwarg(url),
    extra: { metadata: OUTWARD_METADATA },
  });
  return ids.map((id) => answerOf(id, result.minions[id], url));
}

/**
 * Probes every host, `parallel` batches at a time; `onBatch` runs for each batch in turn. The
 * first master failure (or a stop) rejects and no further batch starts.
 */
export async function probeOutward(deps: ProbeDeps, request: OutwardRequest): Promise<OutwardAnswer[]> {
  const size = deps.batch ?? PROBE_BATCH;
  const batches: string[][] = [];
  for (let i = 0; i < request.hosts.length; i += size) batches.push(request.hosts.slice(i, i + size));
  const answers: OutwardAnswer[][] = [];
  let next = 0;
  let failed = false;
  let reporting: Promise<void> = Promise.resolve();
  const worker = async (): Promise<void> => {
    while (!failed && next < batches.length) {
      const index = next++;
      try {
        if (deps.stopping())
          throw new ServiceUnavailable('the server is stopping: the outward-address probe was cut short');
        const done = await probeBatch(deps.client, batches[index] ?? [], request.resolver);
        answers[index] = done;
        // Reports run one after the other, so progress and writes never interleave.
        reporting = reporting.then(() => request.onBatch?.(done));
        await reporting;
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const results = await Promise.allSettled(
    Array.from({ length: Math.min(deps.parallel ?? PROBE_PARALLEL, batches.length) }, worker),
  );
  const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
  return answers.flat();
}
