/**
 * `curl` and `wget` on a simulated minion, GETting from the simulated internet (`Fleet.resolvers`):
 * nothing leaves the process. Their options, outputs and exit codes are the real tools' for the
 * cases modelled: curl(1) "EXIT CODES" (3 bad URL, 6 could not resolve host, 7 failed to connect,
 * 22 HTTP error with --fail, 28 timeout) and its error lines `curl: (N) ...`, shown unless -s
 * without -S; curl's progress meter goes to stderr unless -s. GNU wget(1) "EXIT STATUS" (4
 * network failure, 8 server error response); with -q it prints nothing; without `-O -` the body
 * goes to a file, not to stdout; `-T` bounds each of its (default 20) tries.
 */
import type { Fleet, HttpTool, SimMinion } from './model';

/** Output of a command, in the order written. */
export interface Output {
  readonly chunks: Array<{ readonly stream: 'stdout' | 'stderr'; readonly text: string }>;
  readonly code: number;
  /** Simulated seconds the command took; `Infinity` when it would never end by itself. */
  readonly seconds: number;
}

/** What a host gets when it GETs `url`. */
type Reply =
  | { readonly kind: 'http'; readonly status: number; readonly body: string }
  | { readonly kind: 'dns' }
  | { readonly kind: 'refused' }
  | { readonly kind: 'hang' };

const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** The tools a host has: set explicitly, else by OS (Debian installs wget, RHEL-like curl, Ubuntu both). */
export function httpTools(minion: SimMinion): readonly HttpTool[] {
  if (minion.httpTools) return minion.httpTools;
  const os = minion.grains['os'];
  if (os === 'Debian') return ['wget'];
  if (os === 'Rocky' || os === 'CentOS' || os === 'RedHat') return ['curl'];
  return ['curl', 'wget'];
}

/** The simulated network's answer to a GET from `minion`. */
function get(fleet: Fleet, minion: SimMinion, url: URL): Reply {
  const egress = minion.egress ?? 'open';
  const resolver = fleet.resolvers.get(url.host);
  if (egress === 'no_dns' || resolver === undefined) return { kind: 'dns' };
  if (egress === 'blocked') return { kind: 'hang' };
  if (resolver.down === true) return { kind: 'refused' };
  const status = resolver.failing?.includes(minion.id) ? 503 : (resolver.status ?? 200);
  const body =
    status >= 400 && resolver.body === undefined
      ? `${REASONS[status] ?? 'Error'}\n`
      : (resolver.body ?? `${minion.publicIp}\n`);
  return { kind: 'http', status, body };
}

const port = (url: URL): string => url.port || (url.protocol === 'https:' ? '443' : '80');
const out = (code: number, seconds: number, ...chunks: Output['chunks']): Output => ({
  chunks,
  code,
  seconds,
});
const err = (text: string) => ({ stream: 'stderr' as const, text });

const CURL_FLAGS: Readonly<Record<string, string>> = {
  f: 'fail',
  s: 'silent',
  S: 'show-error',
  L: 'location',
  k: 'insecure',
  '4': 'ipv4',
  '6': 'ipv6',
};
const CURL_VALUED: Readonly<Record<string, string>> = { m: 'max-time' };
const CURL_TRY = "curl: try 'curl --help' or 'curl --manual' for more information\n";
/** What curl's meter shows for a small transfer (it writes it to stderr unless -s). */
const METER =
  '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n\r100    13  100    13    0     0    812      0 --:--:-- --:--:-- --:--:--   866\n';

/** curl's options: short flags may be combined (`-fsS`), a valued short option takes the rest or the next word. */
function curlOptions(
  args: readonly string[],
): { flags: Set<string>; values: Map<string, string>; urls: string[] } | string {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const urls: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] ?? '';
    if (a.startsWith('--')) {
      const name = a.slice(2);
      if (Object.values(CURL_FLAGS).includes(name)) flags.add(name);
      else if (Object.values(CURL_VALUED).includes(name) || name === 'connect-timeout')
        values.set(name, args[++i] ?? '');
      else return `curl: option ${a}: is unknown\n${CURL_TRY}`;
    } else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j += 1) {
        const c = a[j] ?? '';
        const valued = CURL_VALUED[c];
        if (valued !== undefined) {
          values.set(valued, j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? ''));
          break;
        }
        const flag = CURL_FLAGS[c];
        if (flag === undefined) return `curl: option -${c}: is unknown\n${CURL_TRY}`;
        flags.add(flag);
      }
    } else urls.push(a);
  }
  return { flags, values, urls };
}

/** `curl [options] URL` on `minion`. */
export function curl(fleet: Fleet, minion: SimMinion, args: readonly string[]): Output {
  const o = curlOptions(args);
  if (typeof o === 'string') return out(2, 0, err(o));
  if (o.urls.length !== 1) return out(2, 0, err(`curl: no URL specified!\n${CURL_TRY}`));
  const shown = !o.flags.has('silent') || o.flags.has('show-error');
  const fail = (code: number, message: string, seconds = 0): Output =>
    out(code, seconds, ...(shown ? [err(`curl: (${code}) ${message}\n`)] : []));
  let url: URL;
  try {
    url = new URL(o.urls[0] ?? '');
  } catch {
    return fail(3, 'URL using bad/illegal format or missing URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return fail(1, `Protocol "${url.protocol.slice(0, -1)}" not supported`);
  const maxTime = Number(o.values.get('max-time') ?? NaN);
  const reply = get(fleet, minion, url);
  if (reply.kind === 'dns') return fail(6, `Could not resolve host: ${url.hostname}`);
  if (reply.kind === 'refused')
    return fail(7, `Failed to connect to ${url.hostname} port ${port(url)} after 1 ms: Connection refused`);
  if (reply.kind === 'hang') {
    // Without -m, curl gives up connecting after its default connect timeout, 300 s.
    if (Number.isFinite(maxTime))
      return fail(28, `Connection timed out after ${maxTime * 1000} milliseconds`, maxTime);
    return fail(
      28,
      `Failed to connect to ${url.hostname} port ${port(url)} after 300000 ms: Connection timed out`,
      300,
    );
  }
  const meter = o.flags.has('silent') ? [] : [err(METER)];
  if (reply.status >= 400 && o.flags.has('fail'))
    return out(
      22,
      0,
      ...meter,
      ...(shown ? [err(`curl: (22) The requested URL returned error: ${reply.status}\n`)] : []),
    );
  return out(0, 0, ...meter, { stream: 'stdout', text: reply.body });
}

/** GNU wget's options (getopt: `-qO-` is -q then -O with `-`). */
function wgetOptions(
  args: readonly string[],
): { quiet: boolean; output: string | null; timeout: number; tries: number; urls: string[] } | string {
  const o = { quiet: false, output: null as string | null, timeout: 900, tries: 20, urls: [] as string[] };
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] ?? '';
    if (a === '--quiet') o.quiet = true;
    else if (a.startsWith('--output-document=')) o.output = a.slice(18);
    else if (a.startsWith('--timeout=')) o.timeout = Number(a.slice(10));
    else if (a.startsWith('--tries=')) o.tries = Number(a.slice(8));
    else if (a.startsWith('--'))
      return `wget: unrecognized option '${a}'\nUsage: wget [OPTION]... [URL]...\n\nTry \`wget --help' for more options.\n`;
    else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j += 1) {
        const c = a[j] ?? '';
        if (c === 'q') o.quiet = true;
        else if (c === '4') continue;
        else if (c === 'O' || c === 'T' || c === 't') {
          const value = j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? '');
          if (c === 'O') o.output = value;
          else if (c === 'T') o.timeout = Number(value);
          else o.tries = Number(value) || 20;
          break;
        } else
          return `wget: invalid option -- '${c}'\nUsage: wget [OPTION]... [URL]...\n\nTry \`wget --help' for more options.\n`;
      }
    } else o.urls.push(a);
  }
  return o;
}

/** `wget [options] URL` on `minion`. */
export function wget(fleet: Fleet, minion: SimMinion, args: readonly string[]): Output {
  const o = wgetOptions(args);
  if (typeof o === 'string') return out(2, 0, err(o));
  if (o.urls.length === 0)
    return out(
      1,
      0,
      err("wget: missing URL\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n"),
    );
  let url: URL;
  try {
    url = new URL(o.urls[0] ?? '');
  } catch {
    return out(1, 0, ...(o.quiet ? [] : [err(`${o.urls[0] ?? ''}: Invalid URL\n`)]));
  }
  const log = (text: string) => (o.quiet ? [] : [err(text)]);
  const reply = get(fleet, minion, url);
  if (reply.kind === 'dns')
    return out(4, 0, ...log(`wget: unable to resolve host address '${url.hostname}'\n`));
  if (reply.kind === 'refused') return out(4, 0, ...log(`failed: Connection refused.\n`));
  if (reply.kind === 'hang')
    return out(
      4,
      o.timeout > 0 ? o.timeout * o.tries : Infinity,
      ...log('failed: Connection timed out.\nGiving up.\n'),
    );
  if (reply.status >= 400)
    return out(8, 0, ...log(`ERROR ${reply.status}: ${REASONS[reply.status] ?? 'Error'}.\n`));
  const body = o.output === '-' ? [{ stream: 'stdout' as const, text: reply.body }] : [];
  return out(0, 0, ...log(`--  ${url.href}\nHTTP request sent, awaiting response... 200 OK\n`), ...body);
}
