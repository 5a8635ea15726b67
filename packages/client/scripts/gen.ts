/** `pnpm gen:client`: writes the client's types (src/schema.ts) from the current definitions. */
import { writeFileSync } from 'node:fs';
import { generateSchema, SCHEMA_FILE } from '../src/generate';

void generateSchema().then((text) => {
  writeFileSync(SCHEMA_FILE, text);
  process.stdout.write(`Wrote ${SCHEMA_FILE}\n`);
});
