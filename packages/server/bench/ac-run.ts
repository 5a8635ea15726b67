/**
 * `node --import tsx ac-run.ts <options JSON>`: one autocannon run in a process of its own (load.ts
 * pins it to the load core), printing autocannon's result as JSON. Programmatic, not the CLI: a
 * write scenario cycles through several bodies (the CLI sends one, and its -I id replacement sends
 * a Content-Length that no longer matches the body, so the server waits for bytes never sent).
 */
import autocannon from 'autocannon';

const options: unknown = JSON.parse(process.argv[2] ?? '{}');
if (
  typeof options !== 'object' ||
  options === null ||
  !('url' in options) ||
  typeof options.url !== 'string'
) {
  throw new Error('usage: ac-run.ts <autocannon options as JSON, with url>');
}
autocannon({ ...options, url: options.url }).then(
  (result) => {
    const { requests, latency, non2xx, errors, timeouts } = result;
    process.stdout.write(`${JSON.stringify({ requests, latency, non2xx, errors, timeouts })}\n`);
  },
  (err: unknown) => {
    process.stderr.write(`autocannon failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
