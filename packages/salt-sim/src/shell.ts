/**
 * `cmd.run` on a simulated minion (salt/modules/cmdmod.py): the command runs through `/bin/sh`
 * (./sh.ts) when `python_shell` is true, which remote execution defaults to
 * (`_python_shell_default`: a call with a jid); with `python_shell: false` it is split like
 * `shlex.split` and exec'd, so shell syntax fails as it does there ("Unable to run command ...").
 * stderr is merged into the output (`redirect_stderr`, True by default), trailing whitespace is
 * stripped (`rstrip`), and the exit status is the job's retcode. A `timeout` kills the command:
 * "<cmd> : Timed out after N seconds", retcode 1 (TimedProc). A command that would never end
 * with no timeout never returns.
 */
import type { Fleet, SimMinion } from './model';
import { parseSh, ShUnsupported, usesShellSyntax, type Node, type Redirects } from './sh';
import { curl, httpTools, wget, type Output } from './web';

/** A command the shell does not know itself (the simulator's table of canned commands). */
export type Fallback = (commandLine: string) => { stdout: string; retcode: number };

/** What a shell run sees. */
export interface ShellEnv {
  readonly fleet: Fleet;
  readonly minion: SimMinion;
  readonly fallback: Fallback;
}

/** What cmd.run gives back; `noReturn` when the minion would still be running it. */
export type CmdResult = { readonly output: string; readonly retcode: number } | { readonly noReturn: true };

/** Binaries every simulated host has besides its HTTP tools. */
const BINARIES = new Set([
  'sh',
  'echo',
  'true',
  'false',
  'hostname',
  'uname',
  'whoami',
  'uptime',
  'id',
  'df',
  'systemctl',
]);
const BUILTINS = new Set(['command', 'echo', 'true', 'false', 'exit', 'if', 'then', 'else', 'elif', 'fi']);

function has(env: ShellEnv, name: string): boolean {
  return BINARIES.has(name) || (httpTools(env.minion) as readonly string[]).includes(name);
}

const done = (code: number, stdout = ''): Output => ({
  chunks: stdout ? [{ stream: 'stdout', text: stdout }] : [],
  code,
  seconds: 0,
});

/** One simple command. */
function simple(env: ShellEnv, argv: readonly string[]): Output {
  const [name = '', ...args] = argv;
  if (name === 'command' && args[0] === '-v' && args.length === 2) {
    const what = args[1] ?? '';
    if (BUILTINS.has(what)) return done(0, `${what}\n`);
    return has(env, what) ? done(0, `/usr/bin/${what}\n`) : done(1);
  }
  if (name === 'true') return done(0);
  if (name === 'false') return done(1);
  if (name === 'echo') return done(0, `${args.join(' ')}\n`);
  if ((name === 'curl' || name === 'wget') && !has(env, name))
    return {
      chunks: [{ stream: 'stderr', text: `/bin/sh: 1: ${name}: not found\n` }],
      code: 127,
      seconds: 0,
    };
  if (name === 'curl') return curl(env.fleet, env.minion, args);
  if (name === 'wget') return wget(env.fleet, env.minion, args);
  const r = env.fallback(argv.join(' '));
  return done(r.retcode, r.stdout ? `${r.stdout}\n` : '');
}

function redirect(o: Output, r: Redirects): Output {
  const chunks = o.chunks.flatMap((c) => {
    const to = r[c.stream];
    return to === 'null' ? [] : [{ stream: to, text: c.text }];
  });
  return { ...o, chunks };
}

/** Runs a parsed script: outputs in order, the last status, the seconds spent. */
function run(env: ShellEnv, node: Node): Output {
  if (node.kind === 'simple') return redirect(simple(env, node.argv), node.redirects);
  const parts: Output[] = [];
  const total = (code: number): Output => ({
    chunks: parts.flatMap((p) => p.chunks),
    code,
    seconds: parts.reduce((s, p) => s + p.seconds, 0),
  });
  if (node.kind === 'if') {
    for (const branch of node.branches) {
      const test = run(env, branch.test);
      parts.push(test);
      if (test.code === 0) {
        const body = run(env, branch.body);
        parts.push(body);
        return total(body.code);
      }
    }
    if (node.otherwise === null) return total(0);
    const otherwise = run(env, node.otherwise);
    parts.push(otherwise);
    return total(otherwise.code);
  }
  let code = 0;
  let skip = false;
  for (const item of node.items) {
    if (!skip) {
      const o = run(env, item.node);
      parts.push(o);
      code = o.code;
    }
    skip = (item.then === '&&' && code !== 0) || (item.then === '||' && code === 0);
  }
  return total(code);
}

/** `shlex.split`-like words for a command run without a shell (no shell syntax allowed). */
function execDirect(env: ShellEnv, cmd: string, node: Node): Output | string {
  const first = node.kind === 'list' ? node.items[0]?.node : undefined;
  if (usesShellSyntax(node) || first?.kind !== 'simple') {
    const argv0 = cmd.trim().split(/\s+/)[0] ?? '';
    return `ERROR: Unable to run command '${cmd}' with the context '{'cwd': '/root', 'shell': False}', reason: [Errno 2] No such file or directory: '${argv0}'`;
  }
  const [name = ''] = first.argv;
  if (!has(env, name) && !BUILTINS.has(name))
    return `ERROR: Unable to run command '${cmd}' with the context '{'cwd': '/root', 'shell': False}', reason: [Errno 2] No such file or directory: '${name}'`;
  return simple(env, first.argv);
}

function seconds(value: unknown): number | null {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** cmd.run of `cmd` with its keyword arguments (`python_shell`, `timeout`). */
export function cmdRun(env: ShellEnv, cmd: string, kwargs: Readonly<Record<string, unknown>>): CmdResult {
  let node: Node;
  try {
    node = parseSh(cmd);
  } catch (e) {
    if (!(e instanceof ShUnsupported)) throw e;
    // Beyond what this shell runs: the simulator's canned answers, as before it had a shell.
    const r = env.fallback(cmd);
    return { output: r.stdout, retcode: r.retcode };
  }
  const shell = kwargs['python_shell'] !== false && kwargs['python_shell'] !== 'False';
  const o = shell ? run(env, node) : execDirect(env, cmd, node);
  if (typeof o === 'string') return { output: o, retcode: 1 };
  const limit = seconds(kwargs['timeout']);
  if (limit !== null && o.seconds > limit)
    return { output: `${cmd} : Timed out after ${limit} seconds`, retcode: 1 };
  if (!Number.isFinite(o.seconds)) return { noReturn: true };
  return {
    output: o.chunks
      .map((c) => c.text)
      .join('')
      .trimEnd(),
    retcode: o.code,
  };
}
