/**
 * `tsx packages/server/bench/flame.ts <file.cpuprofile> [top]`: the flame summary of a V8 CPU
 * profile (`node --cpu-prof`), as docs/performance.md quotes it: self time by layer (Express,
 * logging, the engine's HTTP layer, operations, the SQLite adapter and driver, Node's HTTP and
 * sockets, GC, idle) and the functions with the most self time. Time is per request when the
 * request count is given (`REQUESTS=n`).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly hitCount?: number;
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Layers by the file a function lives in, first match wins. */
const LAYERS: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'express + router',
    /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?(express|router|body-parser|raw-body|qs|send|finalhandler|on-finished|type-is|content-type|accepts|negotiator|mime-types|mime-db|parseurl|path-to-regexp|depd|media-typer|iconv-lite|statuses|http-errors|vary|encodeurl|escape-html|etag|fresh|range-parser|cookie|proxy-addr|forwarded|ipaddr\.js|merge-descriptors|content-disposition|debug|ms|destroy|unpipe|ee-first|setprototypeof|inherits|toidentifier|safe-buffer|side-channel[^/]*|call-bind[^/]*|get-intrinsic|es-[^/]+|object-inspect|math-intrinsics|dunder-proto|gopd|has-symbols|hasown|function-bind|get-proto|once|wrappy|is-promise|serve-static)\//,
  ],
  [
    'logging (pino)',
    /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?(pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact|@pinojs[^/]*|quick-format-unescaped|atomic-sleep|on-exit-leak-free|safe-stable-stringify|real-require|process-warning)\//,
  ],
  ['zod', /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?zod\//],
  ['mingo', /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?mingo\//],
  ['better-sqlite3 (JS side)', /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?better-sqlite3\//],
  ['engine: http', /engine\/src\/http\//],
  ['engine: query parsing', /engine\/src\/query\//],
  ['engine: operations', /engine\/src\/(ops|compile|definition)\//],
  ['engine: sqlite adapter', /engine\/src\/store\/sqlite\//],
  ['engine: other', /engine\/src\//],
  ['server app', /packages\/server\/src\//],
  ['resources', /\/resources\//],
  ['tsx loader', /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?(tsx|esbuild|get-tsconfig)\//],
  [
    'node: http + net + streams',
    /^node:(_http|http|net|stream|internal\/(http|streams|stream_base|net|js_stream|dns|url|timers|event_target|process\/task_queues|async_hooks|perf))/,
  ],
  ['node: other', /^node:/],
  ['other node_modules', /node_modules\//],
];

function layerOf(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return 'program (native, not attributed)';
  if (url === '') return `native: ${functionName || '(anonymous)'}`;
  return LAYERS.find(([, re]) => re.test(url))?.[0] ?? 'other';
}

/** Self milliseconds per node id, from the samples and their time deltas. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    // The delta before sample i+1 is the time spent in sample i.
    const delta = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    self.set(id, (self.get(id) ?? 0) + delta);
  });
  return self;
}

/** Groups native builtins (JSON.stringify, JSON.parse, the sqlite addon) by name; the rest by layer. */
function summarize(profile: CpuProfile): {
  layers: Map<string, number>;
  functions: Map<string, number>;
  total: number;
} {
  const self = selfTimes(profile);
  const layers = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    if (ms === 0) continue;
    const layer = layerOf(node);
    const nativeName = layer.startsWith('native: ') ? layer : undefined;
    const key = nativeName === undefined ? layer : 'native (JSON, crypto, addon, builtins)';
    layers.set(key, (layers.get(key) ?? 0) + ms);
    const file = node.callFrame.url
      .replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '')
      .replace(/^.*\/work\/main\//, '');
    const name = `${node.callFrame.functionName || '(anonymous)'} ${file === '' ? '(native)' : `${file}:${node.callFrame.lineNumber + 1}`}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    if (layer !== 'idle') total += ms;
  }
  return { layers, functions, total };
}

function main(): void {
  const file = process.argv[2];
  if (file === undefined) throw new Error('usage: flame.ts <file.cpuprofile> [top]');
  const top = Number(process.argv[3] ?? 25);
  const requests = Number(process.env.REQUESTS ?? 0);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const { layers, functions, total } = summarize(profile);
  const per = (ms: number) =>
    requests > 0 ? `${((ms / requests) * 1000).toFixed(0).padStart(6)} us/req` : '';
  const pct = (ms: number) => `${((100 * ms) / total).toFixed(1).padStart(5)} %`;
  process.stdout.write(
    `busy ${total.toFixed(0)} ms of ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms profiled${requests > 0 ? `, ${requests} requests` : ''}\n\nself time by layer:\n`,
  );
  for (const [layer, ms] of [...layers].sort((a, b) => b[1] - a[1])) {
    if (layer === 'idle') continue;
    process.stdout.write(`  ${layer.padEnd(42)} ${ms.toFixed(0).padStart(7)} ms ${pct(ms)} ${per(ms)}\n`);
  }
  process.stdout.write(`\ntop ${top} functions by self time:\n`);
  for (const [name, ms] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    if (name.startsWith('(idle)')) continue;
    process.stdout.write(`  ${pct(ms)} ${per(ms)}  ${name}\n`);
  }
}

main();
