/**
 * Request bodies and response formats the way rest_cherrypy negotiates them (salt-api
 * salt/netapi/rest_cherrypy/app.py): JSON, form-encoded (one chunk; repeated keys become a
 * list; `arg`/`kwarg` values YAML-parsed like the CLI), YAML and text/plain; anything
 * else is 406. Responses are `application/json`; an Accept header that rules JSON out is 406.
 */
import type { Request } from 'express';
import { SimError } from './http-errors';

const ACCEPTED_IN = [
  'application/json',
  'application/x-www-form-urlencoded',
  'application/x-yaml',
  'text/yaml',
  'text/plain',
];

/** `yamlify_arg` for the scalars and flow collections a form field carries. */
function yamlify(value: string): unknown {
  if (value === 'True' || value === 'true') return true;
  if (value === 'False' || value === 'false') return false;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of new URLSearchParams(text)) {
    const value = key === 'arg' || key === 'kwarg' ? yamlify(raw) : raw;
    const prev = out[key];
    if (prev === undefined) out[key] = key === 'arg' ? [value] : value;
    else out[key] = Array.isArray(prev) ? [...(prev as unknown[]), value] : [prev, value];
  }
  return out;
}

/**
 * `hypermedia_in`: the parsed body, or undefined when there is none (a POST without a
 * body skips body processing).
 */
export function parseBody(req: Request): unknown {
  const raw: unknown = req.body;
  if (!Buffer.isBuffer(raw) || raw.length === 0) return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!ACCEPTED_IN.includes(type)) throw new SimError(406, 'Content type not supported');
  const text = raw.toString('utf8');
  if (type === 'application/x-www-form-urlencoded') return parseForm(text);
  try {
    return JSON.parse(text);
  } catch {
    if (type === 'text/plain') return text;
    // The simulator reads YAML bodies only in their JSON-compatible (flow) form.
    throw new SimError(400, type === 'application/json' ? 'Invalid JSON document' : 'Invalid YAML document');
  }
}

/** `lowdata_fmt`: a non-empty dict becomes a one-chunk list; anything else must be a list. */
export function toLowstate(body: unknown): Array<Record<string, unknown>> {
  const data =
    body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length > 0
      ? [body]
      : body;
  if (!Array.isArray(data)) throw new SimError(400, 'Lowstates must be a list');
  return data.map((chunk) =>
    chunk !== null && typeof chunk === 'object' && !Array.isArray(chunk)
      ? (chunk as Record<string, unknown>)
      : {},
  );
}

/** `hypermedia_out`: JSON unless the Accept header excludes it (the simulator does not write YAML). */
export function assertAcceptsJson(req: Request): void {
  const accept = req.headers.accept;
  if (accept === undefined || accept.trim() === '') return;
  const ok = accept.split(',').some((part) => {
    const media = part.split(';')[0]?.trim().toLowerCase() ?? '';
    return media === 'application/json' || media === '*/*' || media === 'application/*';
  });
  if (!ok)
    throw new SimError(
      406,
      'Your client sent this Accept header: ' +
        accept +
        '. But this resource only emits these media types: application/json, application/x-yaml.',
    );
}
