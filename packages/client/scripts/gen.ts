/**
 * `pnpm gen:client [FILE]`: writes the client's types from the current definitions to
 * src/schema.ts, or to FILE (test/client/generate.test.ts generates into a temp file and compares).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateSchema, SCHEMA_FILE } from '../src/generate';

const out = process.argv[2] === undefined ? SCHEMA_FILE : resolve(process.argv[2]);
void generateSchema().then((text) => {
  writeFileSync(out, text);
  process.stdout.write(`Wrote ${out}\n`);
});
