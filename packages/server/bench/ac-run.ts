/**
 * `node --import tsx ac-run.ts <options JSON>`: one autocannon run in a process of its own (load.ts
 * pins it to the load core), printing autocannon's result as JSON. Programmatic, not the CLI: a
 * write scenario cycles through several bodies (the CLI sends one, and its -I id replacement sends
 * a Content-Length that no longer matches the body, so the server waits for bytes never sent).
 * A request with `paths` instead of `path` goes to one of them at random each time (writes spread
 * over many items, load.ts `MixedRequest`).
 */
import autocannon from 'autocannon';

/** A request as load.ts sends it: autocannon's, or one whose path is drawn from `paths` each time. */
type Given = autocannon.Request & { paths?: string[] };

/** `paths` becomes a setupRequest that draws one. */
function drawn(request: Given): autocannon.Request {
  const { paths, ...rest } = request;
  if (paths === undefined || paths.length === 0) return rest;
  return {
    ...rest,
    setupRequest: (req) => ({ ...req, path: paths[Math.floor(Math.random() * paths.length)] ?? req.path }),
  };
}

const options: unknown = JSON.parse(process.argv[2] ?? '{}');
if (
  typeof options !== 'object' ||
  options === null ||
  !('url' in options) ||
  !(
    typeof options.url === 'string' ||
    (Array.isArray(options.url) && options.url.every((u) => typeof u === 'string'))
  )
) {
  throw new Error('usage: ac-run.ts <autocannon options as JSON, with url: one URL or a list>');
}
const requests =
  'requests' in options && Array.isArray(options.requests) ? (options.requests as Given[]) : undefined;
autocannon({
  ...options,
  url: options.url,
  ...(requests === undefined ? {} : { requests: requests.map(drawn) }),
}).then(
  (result) => {
    const { requests, latency, non2xx, errors, timeouts, statusCodeStats } = result;
    process.stdout.write(
      `${JSON.stringify({ requests, latency, non2xx, errors, timeouts, statusCodeStats })}\n`,
    );
  },
  (err: unknown) => {
    process.stderr.write(`autocannon failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
