/**
 * `fleet import --from <dump dir | export dir | mongodb://...>`: the way over from the original
 * (Eve) application's MongoDB database into the store of DATABASE_URL (SQLite or MongoDB). Every
 * item goes in through the local API (import-run.ts); the source is only read. Run it with the
 * service stopped or running; run it again after a failure: what is already there is left alone.
 */
import { parseArgs } from 'node:util';
import type * as MongoAdapter from '@fleet/engine/mongo';
import { ConfigError } from '../config';
import { withEngine } from './engine';
import { importCollection, importOrder, type CollectionReport, type ImportOptions } from './import-run';
import { AdoptingVpn } from './import-vpn';
import type { CommandOutput } from './output';
import { IMPORT_USAGE } from './usage';

function parse(argv: readonly string[]): { from: string; only?: Set<string>; dropUnknown: boolean } {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { from: { type: 'string' }, only: { type: 'string' }, 'drop-unknown': { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 0) throw new Error(`unexpected argument "${positionals[0] ?? ''}"`);
    if (values.from === undefined || values.from === '') throw new Error('--from is required');
    const only = values.only
      ?.split(',')
      .map((c) => c.trim())
      .filter((c) => c !== '');
    return {
      from: values.from,
      ...(only ? { only: new Set(only) } : {}),
      dropUnknown: values['drop-unknown'] === true,
    };
  } catch (err) {
    throw new ConfigError(`import: ${err instanceof Error ? err.message : String(err)}\n${IMPORT_USAGE}`);
  }
}

/** The report: a table of counts, what was not imported, and the refusals. */
export function formatReport(
  source: string,
  reports: readonly CollectionReport[],
  notImported: readonly string[],
): string {
  const columns = ['read', 'created', 'present', 'updated', 'hidden', 'files', 'refused'] as const;
  const width = Math.max(10, ...reports.map((r) => r.collection.length));
  const lines = [
    `Imported from ${source}:`,
    `  ${'collection'.padEnd(width)}${columns.map((c) => c.padStart(9)).join('')}`,
    ...reports.map(
      (r) => `  ${r.collection.padEnd(width)}${columns.map((c) => String(r[c]).padStart(9)).join('')}`,
    ),
  ];
  if (notImported.length > 0)
    lines.push(`Not imported (no resource of that name here): ${notImported.join(', ')}`);
  const dropped = reports.flatMap((r) => r.dropped.map((f) => `${r.collection}.${f}`));
  if (dropped.length > 0) lines.push(`Left out (--drop-unknown): ${dropped.join(', ')}`);
  for (const r of reports.filter((x) => x.refused > 0)) {
    lines.push(
      `Refused in ${r.collection} (${r.refused}${r.refused > r.refusals.length ? `, first ${r.refusals.length} shown` : ''}):`,
    );
    for (const refusal of r.refusals) lines.push(`  "${refusal.id}": ${refusal.why}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Runs `fleet import ...` into the store of `env`'s DATABASE_URL. */
export async function importCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommandOutput> {
  const args = parse(argv);
  // Loaded only here: the other commands never load the driver.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const adapter = require('@fleet/engine/mongo') as typeof MongoAdapter;
  const eve = await adapter.openEveSource(args.from).catch((err: unknown) => {
    throw new ConfigError(`import: ${err instanceof Error ? err.message : String(err)}`);
  });
  const vpn = new AdoptingVpn();
  try {
    const options: ImportOptions = {
      dropUnknown: args.dropUnknown,
      ...(args.only ? { only: args.only } : {}),
      values: adapter,
    };
    const present = new Set(await eve.collections());
    const { reports, resources } = await withEngine(
      env,
      async ({ engine }) => {
        const order = importOrder([...engine.registry.resources.values()]).filter(
          (res) => present.has(res.name) && (options.only?.has(res.name) ?? true),
        );
        const done: CollectionReport[] = [];
        for (const res of order) done.push(await importCollection(engine, res, eve, vpn, options));
        return { reports: done, resources: new Set(engine.registry.resources.keys()) };
      },
      { services: { vpn } },
    );
    const notImported = [...present].filter((c) => !resources.has(c) && !c.startsWith('fs.')).sort();
    const report = formatReport(eve.describe, reports, notImported);
    if (reports.some((r) => r.refused > 0)) throw new ConfigError(report.trimEnd());
    return { stdout: report };
  } finally {
    await eve.close();
  }
}
