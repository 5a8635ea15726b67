/**
 * How the workspace packages depend on each other. `pnpm lint` checks the files of each package
 * for import cycles (dpdm.config.cts); this test checks what that check cannot see, the edges
 * between packages: each package imports only the workspace packages its package.json declares,
 * the declared graph has no cycle, and the simulators share no code with the clients they stand in
 * for (nor with each other: a rule shared by both would hide a difference between the peers).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

interface Workspace {
  readonly name: string;
  readonly dir: string;
  readonly declared: readonly string[];
}

function workspaces(): Workspace[] {
  const dirs = ['engine', 'resources', ...readdirSync(join(ROOT, 'packages')).map((d) => `packages/${d}`)];
  return dirs.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const deps = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
    return { name: pkg.name, dir, declared: deps.filter((d) => d.startsWith('@fleet/')) };
  });
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const child = join(path, name);
      if (statSync(child).isDirectory()) walk(child);
      else if (name.endsWith('.ts')) out.push(child);
    }
  };
  walk(join(ROOT, dir));
  return out;
}

/** The workspace packages a file imports (static, dynamic and type-only imports alike). */
function importedPackages(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(@fleet\/[a-z-]+)/g);
  return [...new Set([...found].map((m) => m[1] ?? ''))];
}

const ALL = workspaces();

describe('workspace packages', () => {
  it.each(ALL.map((w) => [w.name, w] as const))(
    '%s imports only the workspace packages it declares',
    (_, w) => {
      const undeclared = sourceFiles(w.dir).flatMap((file) =>
        importedPackages(file)
          .filter((name) => name !== w.name && !w.declared.includes(name))
          .map((name) => `${relative(ROOT, file)} imports ${name}`),
      );
      expect(undeclared).toEqual([]);
    },
  );

  it('depend on each other without a cycle', () => {
    const edges = new Map(ALL.map((w) => [w.name, w.declared.filter((d) => d !== w.name)]));
    const cycles: string[] = [];
    const visit = (name: string, path: readonly string[]): void => {
      if (path.includes(name)) {
        cycles.push([...path.slice(path.indexOf(name)), name].join(' -> '));
        return;
      }
      for (const next of edges.get(name) ?? []) visit(next, [...path, name]);
    };
    for (const w of ALL) visit(w.name, []);
    expect(cycles).toEqual([]);
  });

  it('keep the simulators apart from the clients they stand in for, and from each other', () => {
    const sims = ALL.filter((w) => w.name.endsWith('-sim'));
    expect(sims.map((w) => w.name).sort()).toEqual(['@fleet/salt-sim', '@fleet/vpn-sim']);
    const allowed = ['@fleet/fixtures'];
    for (const sim of sims)
      expect(sim.declared.filter((d) => d !== sim.name && !allowed.includes(d))).toEqual([]);
  });
});
