/**
 * `fleet openapi [--out FILE]`: the OpenAPI document the server serves at `/api/openapi.json`,
 * made from the same definitions (no store, no server), written to FILE or stdout.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { apiDocument, createRegistry } from '@fleet/engine';
import { allResources, allRouteGroups } from '@fleet/resources';
import { ConfigError } from '../config';
import { VERSION } from '../version';
import type { CommandOutput } from './output';
import { OPENAPI_USAGE } from './usage';

export { OPENAPI_USAGE };

/** Runs `fleet openapi`; `cwd` is where a relative `--out` starts. */
export async function openapiCommand(argv: readonly string[], cwd = process.cwd()): Promise<CommandOutput> {
  let out: string | undefined;
  try {
    ({
      values: { out },
    } = parseArgs({ args: [...argv], options: { out: { type: 'string', short: 'o' } }, strict: true }));
  } catch (err) {
    throw new ConfigError(`openapi: ${err instanceof Error ? err.message : String(err)}\n${OPENAPI_USAGE}`);
  }
  const text = `${JSON.stringify(apiDocument(createRegistry(allResources, allRouteGroups), VERSION), null, 2)}\n`;
  if (out === undefined) return { stdout: text };
  const path = resolve(cwd, out);
  writeFileSync(path, text);
  return { stdout: '', stderr: `Wrote the OpenAPI document to ${path}\n` };
}
