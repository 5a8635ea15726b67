/**
 * The Dockerfile as the image-layout test reads it: its stages and their instructions, and the
 * build context as Docker sends it (the checkout's files less `.dockerignore`'s patterns). Only
 * the instructions our Dockerfile uses are understood; anything else fails the test, so the
 * Dockerfile cannot grow a step the test does not replay.
 */
import { readFileSync } from 'node:fs';

/** One instruction: its keyword, its flags (`--from=build`) and its arguments, JSON form unwrapped. */
export interface Instruction {
  readonly keyword: string;
  readonly flags: Readonly<Record<string, string>>;
  readonly args: readonly string[];
  /** The text after the keyword and flags, as written (shell form). */
  readonly text: string;
}

/** A stage: `FROM <base> AS <name>` and what follows it. */
export interface Stage {
  readonly name: string;
  /** An image (`node:26-trixie-slim`) or an earlier stage's name. */
  readonly base: string;
  readonly instructions: readonly Instruction[];
}

const KNOWN = new Set([
  'ARG',
  'FROM',
  'RUN',
  'COPY',
  'WORKDIR',
  'ENV',
  'VOLUME',
  'USER',
  'EXPOSE',
  'HEALTHCHECK',
  'CMD',
]);

/** The logical lines: comments dropped, `\` continuations joined. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    if (/^\s*#/.test(raw)) continue;
    const line = raw.replace(/\s+$/, '');
    if (line.endsWith('\\')) current += `${line.slice(0, -1)} `;
    else {
      current += line;
      if (current.trim() !== '') lines.push(current.trim());
      current = '';
    }
  }
  return lines;
}

function parseInstruction(line: string, args: Record<string, string>): Instruction {
  const keyword = (/^\S+/.exec(line)?.[0] ?? '').toUpperCase();
  if (!KNOWN.has(keyword)) throw new Error(`Dockerfile: the image test does not replay ${keyword}`);
  let rest = line.slice(keyword.length).trim();
  const flags: Record<string, string> = {};
  for (let m = /^--([a-z-]+)=(\S+)\s*/.exec(rest); m; m = /^--([a-z-]+)=(\S+)\s*/.exec(rest)) {
    flags[m[1] ?? ''] = m[2] ?? '';
    rest = rest.slice(m[0].length);
  }
  const substituted = rest.replace(/\$\{(\w+)\}/g, (_all, name: string) => args[name] ?? '');
  // A shell command's spacing (continuation lines) carries no meaning.
  const text = keyword === 'RUN' ? substituted.replace(/\s+/g, ' ') : substituted;
  const json = keyword === 'CMD' || (keyword === 'VOLUME' && text.startsWith('['));
  return { keyword, flags, text, args: json ? (JSON.parse(text) as string[]) : text.split(/\s+/) };
}

/** The stages of the Dockerfile at `path`, in order; ARGs before the first FROM are substituted. */
export function readDockerfile(path: string): Stage[] {
  const args: Record<string, string> = {};
  const stages: { name: string; base: string; instructions: Instruction[] }[] = [];
  for (const line of logicalLines(readFileSync(path, 'utf8'))) {
    const ins = parseInstruction(line, args);
    if (ins.keyword === 'ARG' && stages.length === 0) {
      const [name = '', value = ''] = ins.text.split('=');
      args[name] = value;
    } else if (ins.keyword === 'FROM') {
      const m = /^(\S+)\s+AS\s+(\S+)$/i.exec(ins.text);
      if (!m) throw new Error(`Dockerfile: every stage is named (FROM <base> AS <name>): ${line}`);
      stages.push({ base: m[1] ?? '', name: m[2] ?? '', instructions: [] });
    } else {
      const stage = stages[stages.length - 1];
      if (!stage) throw new Error(`Dockerfile: ${ins.keyword} before any FROM`);
      stage.instructions.push(ins);
    }
  }
  return stages;
}

/** A `.dockerignore` pattern as a regular expression over paths relative to the context. */
function patternRegex(pattern: string): RegExp {
  if (pattern.startsWith('!'))
    throw new Error('.dockerignore: exceptions (!) are not replayed by the image test');
  let re = '';
  const p = pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  for (let i = 0; i < p.length; i++) {
    const c = p[i] ?? '';
    if (p.startsWith('**/', i)) {
      re += '(?:.*/)?';
      i += 2;
    } else if (p.startsWith('**', i)) {
      re += '.*';
      i += 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Whether `file` (relative) is left out of the build context: it, or a directory above it, matches. */
export function contextFilter(dockerignore: string): (file: string) => boolean {
  const patterns = dockerignore
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map(patternRegex);
  return (file) => {
    const parts = file.split('/');
    for (let n = 1; n <= parts.length; n++) {
      const prefix = parts.slice(0, n).join('/');
      if (patterns.some((re) => re.test(prefix))) return true;
    }
    return false;
  };
}
