#!/usr/bin/env node
/**
 * `pnpm build`: the server as JavaScript that plain `node` runs, in packages/server/dist/.
 *
 * esbuild bundles our own code (every workspace package the server reaches) into one file per
 * entry point, and leaves every npm package external, required from node_modules at run time as
 * it is in development: native modules (better-sqlite3), the MongoDB driver loaded only in mongo
 * mode (its require stays lazy inside the bundle), pino's worker-thread transports and
 * swagger-ui-dist's files all keep working unchanged. The worker threads are entry points of
 * their own, written beside the main bundle, where the code that starts them looks
 * (`require.resolve('./read-worker')` from dist/fleet.js is dist/read-worker.js).
 *
 * npm packages are not bundled in: tried with mingo, zod, re2js and cron-parser inlined, the
 * server took longer to be healthy (0.85 -> 1.2 s) and more memory (+7 MB): a bundle and its
 * source map are parsed whole, while node_modules files load only as they are required.
 *
 * Types are not checked here (`pnpm typecheck` does that once for the whole workspace): the
 * build transpiles, which takes about a second.
 *
 *   node scripts/build.mjs            # build once
 *   node scripts/build.mjs --watch    # rebuild on every change
 *   node scripts/build.mjs --out DIR  # somewhere else (the image build, tests)
 *   node scripts/build.mjs --if-stale # only when a source changed since the last build (pnpm start)
 *
 * Every package the bundle requires must be a dependency of @fleet/server at the version the
 * source that requires it resolves: the production install (`pnpm deploy --prod`) installs the
 * server's dependencies only, and a second version would change behaviour between the sources
 * and the build. The build fails naming the package otherwise.
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname ?? dirname(new URL(import.meta.url).pathname), '..');
const SERVER = join(ROOT, 'packages', 'server');
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
const esbuild = requireFromRoot('esbuild');

/** The bundles: the command line (the whole server) and the scripts of its worker threads. */
export const ENTRY_POINTS = {
  fleet: 'packages/server/src/cli.ts',
  'read-worker': 'engine/src/store/sqlite/read-worker.ts',
  'actions-worker': 'packages/server/src/seed/actions-worker.ts',
};

/**
 * Required only when the requiring file is TypeScript (a worker started from the sources): never
 * from a bundle, so never a dependency of the built server.
 */
const SOURCE_ONLY = new Set(['tsx']);

/** Node 20 is the oldest Node the server supports (package.json `engines`). */
const TARGET = 'node20';

/**
 * npm packages stay external; our workspace packages (@fleet/...) and relative files are bundled,
 * except the worker scripts that code locates with `require.resolve` (entry points of their own).
 */
const externalPackages = {
  name: 'external-npm-packages',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) =>
      args.kind === 'require-resolve' ? { path: args.path, external: true } : undefined,
    );
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@fleet/') || args.path.startsWith('node:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** The package name of a bare specifier (`pino/file` -> `pino`, `@a/b/c` -> `@a/b`). */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The version of `name` as resolved from `fromDir`, or undefined when it does not resolve there. */
function versionFrom(name, fromDir) {
  try {
    const req = createRequire(join(fromDir, 'noop.js'));
    const manifest = req.resolve(`${name}/package.json`);
    return JSON.parse(readFileSync(manifest, 'utf8')).version;
  } catch {
    // Packages without an exported package.json: find it by walking up from the entry.
    try {
      const req = createRequire(join(fromDir, 'noop.js'));
      let dir = dirname(req.resolve(name));
      while (dir !== dirname(dir)) {
        const file = join(dir, 'package.json');
        if (existsSync(file)) {
          const pkg = JSON.parse(readFileSync(file, 'utf8'));
          if (pkg.name === name) return pkg.version;
        }
        dir = dirname(dir);
      }
    } catch {
      return undefined;
    }
    return undefined;
  }
}

/**
 * Every external the bundles require is a dependency of @fleet/server, resolving (from the server)
 * to the version the requiring source resolves. Node's own modules are not packages.
 */
export function checkExternals(metafile) {
  const server = JSON.parse(readFileSync(join(SERVER, 'package.json'), 'utf8'));
  const declared = new Set(Object.keys(server.dependencies ?? {}));
  const problems = [];
  const seen = new Set();
  for (const [input, info] of Object.entries(metafile.inputs)) {
    for (const imp of info.imports) {
      if (!imp.external || /^(node:|\.|<)/.test(imp.path)) continue;
      const name = packageName(imp.path);
      if (builtinModules.includes(name) || SOURCE_ONLY.has(name)) continue;
      const key = `${name}@${input}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!declared.has(name)) {
        problems.push(`${name} (required by ${input}) is not a dependency of @fleet/server`);
        continue;
      }
      const wanted = versionFrom(name, dirname(join(ROOT, input)));
      const got = versionFrom(name, SERVER);
      if (wanted !== got)
        problems.push(
          `${name}: ${input} resolves ${wanted ?? 'nothing'}, @fleet/server resolves ${got ?? 'nothing'}`,
        );
    }
  }
  return problems;
}

/** Where the last build lists its inputs (for --if-stale). */
const INPUTS_FILE = '.inputs.json';

/** Whether any input of the last build into `outDir` (or this script, or a manifest) is newer than its output. */
function isStale(outDir) {
  const bundle = join(outDir, 'fleet.js');
  const listed = join(outDir, INPUTS_FILE);
  if (!existsSync(bundle) || !existsSync(listed)) return true;
  const built = statSync(bundle).mtimeMs;
  const inputs = [...JSON.parse(readFileSync(listed, 'utf8')), 'scripts/build.mjs', 'pnpm-lock.yaml'];
  return inputs.some((file) => {
    try {
      return statSync(join(ROOT, file)).mtimeMs > built;
    } catch {
      return true; // gone: the sources moved on
    }
  });
}

/** Writes esbuild's output files into `outDir`, each through a temporary name (a running server never reads half a file). */
function writeOutputs(outputFiles, outDir) {
  mkdirSync(outDir, { recursive: true });
  let written = 0;
  for (const file of outputFiles) {
    if (existsSync(file.path) && readFileSync(file.path).equals(Buffer.from(file.contents))) continue;
    const tmp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(tmp, file.contents);
    renameSync(tmp, file.path);
    written += 1;
  }
  return written;
}

/** esbuild's options for the bundles into `outDir`. */
export function buildOptions(outDir) {
  return {
    absWorkingDir: ROOT,
    entryPoints: ENTRY_POINTS,
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: TARGET,
    format: 'cjs',
    sourcemap: 'linked',
    sourcesContent: false,
    // Names kept: error classes and log lines name functions and classes.
    keepNames: true,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    write: false,
    plugins: [externalPackages],
  };
}

/** Builds once into `outDir`; resolves the number of files that changed. */
export async function build(outDir) {
  const started = Date.now();
  const result = await esbuild.build(buildOptions(outDir));
  const problems = checkExternals(result.metafile);
  if (problems.length > 0) throw new Error(`the bundle's packages:\n  ${problems.join('\n  ')}`);
  const written = writeOutputs(result.outputFiles, outDir);
  writeFileSync(join(outDir, INPUTS_FILE), JSON.stringify(Object.keys(result.metafile.inputs)));
  // The bundle's time says when it was built, even when its text did not change.
  const now = new Date();
  utimesSync(join(outDir, 'fleet.js'), now, now);
  const bytes = result.outputFiles
    .filter((f) => f.path.endsWith('.js'))
    .reduce((n, f) => n + f.contents.length, 0);
  process.stdout.write(
    `built ${relative(ROOT, outDir) || '.'}: ${Object.keys(ENTRY_POINTS).length} bundles, ${(bytes / 1e6).toFixed(1)} MB, ` +
      `${written} file(s) changed, ${Date.now() - started} ms\n`,
  );
  return written;
}

/** Rebuilds on every change of an input, until stopped. */
async function watch(outDir) {
  const ctx = await esbuild.context({
    ...buildOptions(outDir),
    plugins: [
      externalPackages,
      {
        name: 'write-and-report',
        setup(b) {
          b.onEnd((result) => {
            if (result.errors.length > 0) return;
            const written = writeOutputs(result.outputFiles ?? [], outDir);
            process.stdout.write(`rebuilt ${relative(ROOT, outDir)}: ${written} file(s) changed\n`);
          });
        },
      },
    ],
  });
  await ctx.watch();
  process.stdout.write(`watching the sources; ${relative(ROOT, outDir)} follows them (Ctrl-C stops)\n`);
  const stop = () => ctx.dispose().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main() {
  const { values } = parseArgs({
    options: {
      watch: { type: 'boolean' },
      out: { type: 'string' },
      clean: { type: 'boolean' },
      'if-stale': { type: 'boolean' },
    },
  });
  const outDir = resolve(values.out ?? join(SERVER, 'dist'));
  if (values.clean) rmSync(outDir, { recursive: true, force: true });
  if (values['if-stale'] && !isStale(outDir)) return;
  if (values.watch) await watch(outDir);
  else await build(outDir);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(ROOT, 'scripts', 'build.mjs')) {
  main().catch((err) => {
    process.stderr.write(`build failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
