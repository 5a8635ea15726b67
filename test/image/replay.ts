/**
 * The Dockerfile's stages replayed outside Docker: each stage gets a directory standing for its
 * filesystem root, every absolute path of an instruction lands under it, `COPY` copies from the
 * build context (a clean copy of the checkout) or from another stage's root, and `RUN` runs the
 * stage's script of scripts/image/ with the same arguments, paths mapped. The compiler toolchain's
 * `apt-get` line is the one RUN that is not replayed (this machine has its own toolchain), and
 * it may stand in a build stage only.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { contextFilter, readDockerfile, type Instruction, type Stage } from './dockerfile';

/** What the last stage leaves: its root, and what a container of it would run, how and as whom. */
export interface Runtime {
  readonly stage: string;
  readonly root: string;
  /** The working directory, under `root`. */
  readonly workdir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly user: string | undefined;
  readonly cmd: readonly string[];
  readonly healthcheck: readonly string[];
  /** The RUN lines each stage ran (scripts, arguments as written). */
  readonly ran: Readonly<Record<string, readonly string[]>>;
}

export interface ReplayOptions {
  /** The repository to build (its Dockerfile, .dockerignore and the files git tracks or would track). */
  readonly repo: string;
  /** An empty directory: the context and every stage's root go under it. */
  readonly work: string;
  /** Who stands for the image's user in `RUN` arguments (`node` has no account here). */
  readonly users: Readonly<Record<string, string>>;
  /** The environment of the stage scripts (pnpm's caches, PATH). */
  readonly env: NodeJS.ProcessEnv;
}

/** The build context: the checkout's files (tracked, or new and not ignored) less .dockerignore's. */
function makeContext(repo: string, dir: string): void {
  const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: repo,
    encoding: 'utf8',
  });
  const ignored = contextFilter(readFileSync(join(repo, '.dockerignore'), 'utf8'));
  for (const file of listed.split('\0').filter((f) => f !== '' && !ignored(f))) {
    try {
      cpSync(join(repo, file), join(dir, file));
    } catch (err) {
      // A file git lists but the checkout has deleted is not part of the context.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

const TOOLCHAIN =
  /^apt-get update && apt-get install -y --no-install-recommends python3 make g\+\+ && rm -rf \/var\/lib\/apt\/lists\/\*$/;

class Replay {
  private readonly roots = new Map<string, string>();
  /** What each stage leaves, for a stage built FROM it (WORKDIR, ENV and USER carry over). */
  private readonly states = new Map<string, Runtime>();
  private readonly ran: Record<string, string[]> = {};
  private readonly context: string;

  constructor(private readonly o: ReplayOptions) {
    this.context = join(o.work, 'context');
    makeContext(o.repo, this.context);
  }

  /** `FROM <stage>` goes on in that stage's root; `FROM <image>` starts an empty one. */
  enter(stage: Stage): string {
    const root = this.roots.get(stage.base) ?? join(this.o.work, stage.name);
    mkdirSync(root, { recursive: true });
    chmodSync(root, 0o755);
    this.roots.set(stage.name, root);
    this.ran[stage.name] = [];
    return root;
  }

  copy(ins: Instruction, root: string, cwd: string): void {
    const from = ins.flags.from;
    const sources = ins.args.slice(0, -1);
    const target = ins.args[ins.args.length - 1] ?? '';
    const dest = isAbsolute(target) ? join(root, target) : join(cwd, target);
    for (const source of sources) {
      const base = from === undefined ? this.context : this.roots.get(from);
      if (base === undefined) throw new Error(`COPY --from=${from ?? ''}: no such stage`);
      const src = join(base, source);
      const intoDir = target.endsWith('/') || sources.length > 1 || source === '.' || source.endsWith('/');
      const to =
        intoDir && !source.endsWith('/') && source !== '.' ? join(dest, source.split('/').pop() ?? '') : dest;
      mkdirSync(dirname(to), { recursive: true });
      cpSync(src, to, { recursive: true, verbatimSymlinks: true });
    }
  }

  run(stage: Stage, ins: Instruction, root: string, cwd: string): void {
    if (TOOLCHAIN.test(ins.text)) {
      if (stage.name === 'runtime') throw new Error('the runtime stage installs a compiler toolchain');
      return;
    }
    const [script = '', ...args] = ins.args;
    if (!/(^|\/)scripts\/image\/[a-z]+\.sh$|^\/usr\/local\/lib\/fleet\/[a-z]+\.sh$/.test(script))
      throw new Error(`RUN ${ins.text}: a stage runs a script of scripts/image/, nothing else`);
    this.ran[stage.name]?.push(ins.text);
    const map = (a: string) => (isAbsolute(a) ? join(root, a) : (this.o.users[a] ?? a));
    const path = isAbsolute(script) ? join(root, script) : join(cwd, script);
    try {
      execFileSync('sh', [path, ...args.map(map)], {
        cwd,
        env: this.o.env,
        stdio: 'pipe',
        maxBuffer: 64 << 20,
      });
    } catch (err) {
      const e = err as { status?: number; stdout?: Buffer; stderr?: Buffer };
      const said = `${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}`
        .split('\n')
        .slice(-25)
        .join('\n');
      throw new Error(`RUN ${ins.text} (stage ${stage.name}) exited ${e.status ?? '?'}:\n${said}`);
    }
  }

  /** Replays every stage; resolves the last one's runtime. */
  all(stages: readonly Stage[]): Runtime {
    let last: Runtime | undefined;
    for (const stage of stages) {
      const base = this.states.get(stage.base);
      const root = this.enter(stage);
      let cwd = base?.workdir ?? root;
      let user = base?.user;
      let cmd: readonly string[] = base?.cmd ?? [];
      let healthcheck: readonly string[] = base?.healthcheck ?? [];
      const env: Record<string, string> = { ...base?.env };
      for (const ins of stage.instructions) {
        if (ins.keyword === 'WORKDIR') mkdirSync((cwd = join(root, ins.text)), { recursive: true });
        else if (ins.keyword === 'COPY') this.copy(ins, root, cwd);
        else if (ins.keyword === 'RUN') this.run(stage, ins, root, cwd);
        else if (ins.keyword === 'ENV')
          for (const pair of ins.args) env[pair.split('=')[0] ?? ''] = pair.split('=').slice(1).join('=');
        else if (ins.keyword === 'USER') user = ins.text;
        else if (ins.keyword === 'CMD') cmd = ins.args;
        else if (ins.keyword === 'HEALTHCHECK')
          healthcheck = JSON.parse(ins.text.replace(/^.*?CMD\s+/, '')) as string[];
      }
      last = { stage: stage.name, root, workdir: cwd, env, user, cmd, healthcheck, ran: this.ran };
      this.states.set(stage.name, last);
    }
    if (last === undefined) throw new Error('the Dockerfile has no stage');
    return last;
  }
}

/** Replays the repository's Dockerfile under `o.work`; resolves what its last stage would run. */
export function replayDockerfile(o: ReplayOptions): Runtime {
  return new Replay(o).all(readDockerfile(join(o.repo, 'Dockerfile')));
}
