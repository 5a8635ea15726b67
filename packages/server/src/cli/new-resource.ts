/**
 * `fleet new-resource <name>`: writes `resources/<name>.ts` from the template and registers it with
 * one line in `resources/registry.ts`, so the next start serves `/api/<name>` and the test command
 * covers it with no other edit.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { allResources, allRouteGroups } from '@fleet/resources';
import { ConfigError } from '../config';
import type { CommandOutput } from './output';
import { NEW_RESOURCE_USAGE } from './usage';
import { defaultDescription, resourceSource } from './resource-template';

export { NEW_RESOURCE_USAGE };

/** Paths below /api that are not collections (the API router's own, and words JavaScript keeps). */
const RESERVED = new Set(['docs', 'media', 'health', 'openapi']);
const KEYWORDS = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof let new null return static super switch this throw true try typeof var void while with yield await implements interface package private protected public'.split(
    ' ',
  ),
);

/** Why `name` cannot be a new resource, or null. */
function nameProblem(name: string): string | null {
  if (!/^[a-z][a-z0-9_]*$/.test(name))
    return 'a name is lower case letters, digits and "_", starting with a letter';
  if (KEYWORDS.has(name) || RESERVED.has(name)) return `"${name}" is a reserved word`;
  if (allResources.some((r) => r.name === name)) return `a resource named "${name}" exists`;
  if (allRouteGroups.some((g) => g.base === name)) return `/api/${name} is a route group`;
  return null;
}

const LINE = /^export \{ (\w+) \} from '\.\/([\w/]+)';$/;

/** `registry.ts` with the line that registers `name`, in alphabetical order among the others. */
export function registerIn(registry: string, name: string): string {
  const lines = registry.split('\n');
  const entries = lines.map((line, i) => ({ i, m: LINE.exec(line) })).filter((x) => x.m !== null);
  const last = entries[entries.length - 1];
  if (last === undefined)
    throw new ConfigError(
      'new-resource: registry.ts registers no resource to add this one beside; register it by hand',
    );
  const after = entries.find((x) => (x.m?.[1] ?? '') > name);
  lines.splice(after ? after.i : last.i + 1, 0, `export { ${name} } from './${name}';`);
  return lines.join('\n');
}

/**
 * Regenerates the typed client's types (packages/client, `pnpm gen:client`) when the resources
 * directory is the checkout's own: the client follows the definitions, and the tests check it
 * does. In a child process, so the new registry.ts is the one read. Production images carry no
 * client sources: then there is nothing to regenerate.
 */
function regenerateClient(resourcesDir: string): string {
  const script = resolve(resourcesDir, '..', 'packages', 'client', 'scripts', 'gen.ts');
  if (!existsSync(script)) return '';
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
    cwd: resolve(resourcesDir, '..'),
    encoding: 'utf8',
  });
  if (run.status === 0) return 'Regenerated the typed client (packages/client/src/schema.ts).\n';
  return `The typed client could not be regenerated (${(run.stderr || run.stdout).trim().split('\n')[0] ?? 'no output'}): run pnpm gen:client.\n`;
}

/** Runs `fleet new-resource`; `cwd` is where a relative `--dir` starts. */
export async function newResourceCommand(
  argv: readonly string[],
  cwd = process.cwd(),
): Promise<CommandOutput> {
  let values: { dir?: string | undefined; description?: string | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: { dir: { type: 'string' }, description: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    throw new ConfigError(
      `new-resource: ${err instanceof Error ? err.message : String(err)}\n${NEW_RESOURCE_USAGE}`,
    );
  }
  const [name, ...extra] = positionals;
  if (name === undefined || extra.length > 0)
    throw new ConfigError(`new-resource: name one resource\n${NEW_RESOURCE_USAGE}`);
  const problem = nameProblem(name);
  if (problem) throw new ConfigError(`new-resource: ${problem}`);
  const dir = resolve(cwd, values.dir ?? 'resources');
  const file = join(dir, `${name}.ts`);
  const registryFile = join(dir, 'registry.ts');
  if (!existsSync(registryFile))
    throw new ConfigError(
      `new-resource: ${registryFile} does not exist (--dir names the resources directory)`,
    );
  if (existsSync(file)) throw new ConfigError(`new-resource: ${file} exists`);
  const registry = readFileSync(registryFile, 'utf8');
  if (new RegExp(`\\bexport \\{ ${name} \\}`).test(registry))
    throw new ConfigError(`new-resource: registry.ts already registers ${name}`);
  const registered = registerIn(registry, name);
  const description = values.description ?? defaultDescription(name);
  writeFileSync(file, resourceSource(name, description), { flag: 'wx' });
  writeFileSync(registryFile, registered);
  const shown = relative(cwd, file) || file;
  return {
    stdout:
      `Wrote ${shown} and registered it in ${relative(cwd, registryFile) || registryFile}.\n` +
      regenerateClient(dir) +
      `At the next start: GET/POST /api/${name}, GET/PATCH/DELETE /api/${name}/{id}, its table, indexes and OpenAPI schema; the tests cover it as it is.\n` +
      `Shape it to fit (fields, roles, hooks, routes): docs/authoring.md.\n`,
  };
}
