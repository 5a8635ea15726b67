/**
 * No drift between the API and its OpenAPI document: every answer a test server gives through
 * its supertest agent is checked against the document that server serves (test/helpers/server.ts
 * hooks every request). The operation is found by method and path as Express finds the route
 * (literal segments before parameters); the status must be one the operation lists; a JSON body
 * must match the schema of that status (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses); any other
 * body must be of a media type the response lists. A mismatch fails the test that met it.
 *
 * Not checked: CORS preflights (OPTIONS, answered before any route) and the docs page with its
 * viewer assets (`/api/docs`, `/api/docs/assets/...`: HTML and scripts, not API operations).
 * A path or method the document does not have must be answered 404 or 405 in the error shape.
 *
 * Validators are compiled once per document and schema (a test file's servers share them).
 * With OPENAPI_CHECK_LOG=<file>, one line per checked answer (`GET /api/hosts/{id} 200`) is
 * appended there, to count what a run covered.
 */
import { appendFileSync } from 'node:fs';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

/** What the check reads of an answer (a supertest `Response`). */
export interface CheckedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
  readonly text?: string;
}

export interface OpenApiChecker {
  /** Why the answer does not match the document, or null when it does (or is not checked). */
  check(method: string, url: string, res: CheckedResponse): string | null;
}

interface Template {
  readonly path: string;
  readonly segments: readonly string[];
  readonly regex: RegExp;
}

const DOC_ID = 'https://fleet-api.invalid/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const NOT_API = /^\/api\/docs(\/(?!openapi\.json$).*)?$/;

/** A JSON pointer (RFC 6901) into the document, as a URI fragment. */
const pointer = (...segments: string[]): string =>
  `#/${segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;

function templateOf(path: string): Template {
  const segments = path.split('/').filter((s) => s !== '');
  const source = segments
    .map((s) => (/^\{\w+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { path, segments, regex: new RegExp(`^/${source}$`) };
}

/** Express's order: at the first segment where two templates differ, a literal wins over a parameter. */
function moreSpecific(a: Template, b: Template): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i += 1) {
    const pa = a.segments[i]?.startsWith('{') === true;
    const pb = b.segments[i]?.startsWith('{') === true;
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}

function describeErrors(errors: readonly ErrorObject[] | null | undefined, body: unknown): string {
  return (errors ?? [])
    .slice(0, 5)
    .map((e) => {
      const at = e.instancePath === '' ? '(body)' : e.instancePath;
      const value = e.instancePath
        .split('/')
        .slice(1)
        .reduce<unknown>(
          (v, k) =>
            v !== null && typeof v === 'object'
              ? (v as Json)[k.replace(/~1/g, '/').replace(/~0/g, '~')]
              : undefined,
          body,
        );
      const shown = JSON.stringify(value)?.slice(0, 160) ?? 'undefined';
      return `  ${at} ${e.message ?? ''} ${e.params ? JSON.stringify(e.params) : ''} — value: ${shown}`;
    })
    .join('\n');
}

const checkers = new Map<string, OpenApiChecker>();

/** The checker of `doc` (one per distinct document in this process). */
export function openApiChecker(doc: Json): OpenApiChecker {
  const key = JSON.stringify(doc);
  let checker = checkers.get(key);
  if (!checker) {
    checker = new Checker(doc);
    checkers.set(key, checker);
  }
  return checker;
}

/** Where an answer was met, for the messages. */
interface Seen {
  readonly method: string;
  readonly where: string;
  readonly res: CheckedResponse;
}

/** The response object of one status of one operation (its `$ref` followed), and the pointer to it. */
interface Found {
  readonly response: Json;
  readonly at: readonly string[];
}

class Checker implements OpenApiChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly paths: Record<string, Json>;
  private readonly templates: readonly Template[];
  private readonly log = process.env.OPENAPI_CHECK_LOG;

  constructor(private readonly doc: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc, DOC_ID);
    this.paths = doc.paths as Record<string, Json>;
    this.templates = Object.keys(this.paths).map(templateOf).sort(moreSpecific);
  }

  check(method: string, url: string, res: CheckedResponse): string | null {
    const upper = method.toUpperCase();
    const raw = new URL(url).pathname;
    const path = raw.length > 1 ? raw.replace(/\/+$/, '') : raw;
    if (upper === 'OPTIONS' || NOT_API.test(path)) return null;
    const lower = upper === 'HEAD' ? 'get' : upper.toLowerCase();
    const template = this.templates.find(
      (t) => t.regex.test(path) && METHODS.includes(lower) && this.paths[t.path]?.[lower] !== undefined,
    );
    if (this.log) appendFileSync(this.log, `${upper} ${template?.path ?? '(no operation)'} ${res.status}\n`);
    const seen = {
      method: upper,
      res,
      where: `OpenAPI drift: ${upper} ${raw} answered ${res.status}${template ? ` (operation ${lower.toUpperCase()} ${template.path})` : ''}`,
    };
    if (!template) return this.checkUnknown(seen);
    const found = this.responseOf(template.path, lower, String(res.status));
    if (found) return this.checkBody(seen, found);
    const listed = Object.keys((this.paths[template.path]?.[lower] as Json).responses as Json).join(', ');
    return `${seen.where}: status ${res.status} is not documented for this operation (documented: ${listed})\n  body: ${(res.text ?? '').slice(0, 300)}`;
  }

  /** A path or method the document does not have: a 404 or 405 in the error shape. */
  private checkUnknown({ method, where, res }: Seen): string | null {
    if (res.status !== 404 && res.status !== 405)
      return `${where}: the document has no such operation, and the answer is not a 404/405`;
    const v = this.validator(pointer('components', 'schemas', 'Error'));
    return method === 'HEAD' || v(res.body)
      ? null
      : `${where}: not the error shape\n${describeErrors(v.errors, res.body)}`;
  }

  private responseOf(path: string, method: string, status: string): Found | undefined {
    const op = this.paths[path]?.[method] as Json | undefined;
    const entry = (op?.responses as Record<string, Json> | undefined)?.[status];
    if (!entry) return undefined;
    if (typeof entry.$ref !== 'string')
      return { response: entry, at: ['paths', path, method, 'responses', status] };
    const at = entry.$ref.split('/').slice(1);
    const [, kind = '', name = ''] = at;
    return { response: ((this.doc.components as Json)[kind] as Record<string, Json>)[name] ?? {}, at };
  }

  /** The body: none where none is documented, a listed media type, JSON matching its schema. */
  private checkBody({ method, where, res }: Seen, found: Found): string | null {
    const content = found.response.content as Record<string, Json> | undefined;
    const text = res.text ?? '';
    const type = (String(res.headers['content-type'] ?? '').split(';')[0] ?? '').trim().toLowerCase();
    if (method === 'HEAD') return null;
    if (!content || res.status === 204 || res.status === 304)
      return text === '' ? null : `${where}: the document lists no body, the answer has one (${type})`;
    const listed = Object.keys(content).join(', ');
    if (type !== 'application/json')
      return type in content || '*/*' in content
        ? null
        : `${where}: answered ${type || 'no content type'}, the document lists ${listed}`;
    if (!('application/json' in content)) return `${where}: answered JSON, the document lists ${listed}`;
    const v = this.validator(pointer(...found.at, 'content', 'application/json', 'schema'));
    return v(res.body)
      ? null
      : `${where}: the body does not match the document\n${describeErrors(v.errors, res.body)}`;
  }

  /** The validator of the schema at `ptr`, compiled on first use. */
  private validator(ptr: string): ValidateFunction {
    let v = this.validators.get(ptr);
    if (!v) {
      v = this.ajv.compile({ $ref: `${DOC_ID}${ptr}` });
      this.validators.set(ptr, v);
    }
    return v;
  }
}
