/**
 * The one serializer: stored document -> Eve item. Secrets are masked here and only here, list-
 * hidden fields dropped, projections applied, media ids turned into links (`/api/media/<id>`, or
 * the signed link the API router asks for: {@link renderMediaWith}), dates rendered RFC 1123, and
 * `_links` built (self, parent/collection on item GETs, related).
 */
import type { CompiledResource } from '../compile/compile';
import type { Registry } from '../compile/registry';
import { MASK } from '../ops/secret-view';
import type { Doc } from '../store/port';
import { renderDates } from './dates';

export { MASK };
/** The meta fields every item ends with, in this order. */
export const META = ['_id', '_created', '_updated', '_etag'] as const;

/** How the value of a media field (a media id) is rendered. */
export type MediaHref = (id: string) => string;

const plainMediaHref: MediaHref = (id) => `/api/media/${id}`;
const mediaHrefs = new WeakMap<Registry, MediaHref>();

/** How `registry`'s items render their media fields. */
export function mediaHrefFor(registry: Registry): MediaHref {
  return mediaHrefs.get(registry) ?? plainMediaHref;
}

/**
 * Renders the media fields of `registry`'s items with `href` from now on (the API router's signed
 * links). The engine knows media fields, not what a file is: any resource with one gets the links.
 * Kept per registry, so each engine renders with its own server's key.
 */
export function renderMediaWith(registry: Registry, href: MediaHref): void {
  mediaHrefs.set(registry, href);
}

export type RenderMode = 'list' | 'item' | 'embedded' | 'write';

export interface Link {
  readonly title: string;
  readonly href: string;
}

export interface RenderOptions {
  readonly mode: RenderMode;
  readonly projection?: Readonly<Record<string, 0 | 1>>;
  /** Every resource: titles of related links, and the renderer of embedded items. */
  readonly registry: Registry;
}

/** Masks every secret path of a (copied) document, descending into arrays. */
export function maskSecrets(doc: Record<string, unknown>, paths: readonly string[]): void {
  for (const path of paths) maskPath(doc, path.split('.'));
}

function maskPath(node: unknown, segments: string[]): void {
  if (Array.isArray(node)) {
    for (const el of node) maskPath(el, segments);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  const [head, ...rest] = segments;
  if (head === undefined || !(head in record)) return;
  if (rest.length === 0) {
    if (record[head] !== null && record[head] !== undefined) record[head] = MASK;
    return;
  }
  maskPath(record[head], rest);
}

/** The top-level fields an item of `opts.mode` shows, in definition order. */
export function visibleFields(
  res: CompiledResource,
  opts: Pick<RenderOptions, 'mode' | 'projection'>,
): string[] {
  const fields = [...res.storedFields, ...(res.softDelete ? [res.softDelete.field] : [])];
  const projection = opts.projection ?? {};
  const inclusive = Object.values(projection).includes(1);
  return fields.filter((name) => {
    if (inclusive)
      return projection[name] === 1 || Object.keys(projection).some((p) => p.startsWith(`${name}.`));
    if (projection[name] === 0) return false;
    return !(opts.mode !== 'item' && res.hiddenInList.includes(name));
  });
}

const copiedFieldsOf = new WeakMap<CompiledResource, ReadonlySet<string>>();
const visibleFieldsOf = new WeakMap<RenderOptions, string[]>();

/**
 * Top-level fields with a datetime or a secret below them: only these are rendered by copying
 * (dates formatted, secrets masked). The rest — a host's large `grain` above all — is passed to
 * the JSON writer as it is, never copied.
 */
export function copiedFields(res: CompiledResource): ReadonlySet<string> {
  let fields = copiedFieldsOf.get(res);
  if (!fields) {
    const names = new Set<string>();
    for (const info of res.paths.byPath.values()) {
      const kind = info.field.kind === 'array' ? info.field.of.kind : info.field.kind;
      if (kind === 'datetime' || info.field.secret) names.add(info.path.split('.')[0] ?? info.path);
    }
    fields = names;
    copiedFieldsOf.set(res, fields);
  }
  return fields;
}

/** Renders one stored document as an Eve item (pass one `opts` object for a whole page). */
export function renderItem(res: CompiledResource, doc: Doc, opts: RenderOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let visible = visibleFieldsOf.get(opts);
  if (!visible) {
    visible = visibleFields(res, opts);
    visibleFieldsOf.set(opts, visible);
  }
  const copied = copiedFields(res);
  for (const name of visible) {
    if (!(name in doc)) continue;
    // renderDates copies every object and array it walks, so masking below never touches `doc`.
    out[name] = copied.has(name) ? renderDates(doc[name]) : doc[name];
  }
  applySubProjection(out, opts.projection);
  if (res.mediaFields.length > 0) {
    const mediaHref = mediaHrefFor(opts.registry);
    for (const name of res.mediaFields) if (typeof out[name] === 'string') out[name] = mediaHref(out[name]);
  }
  renderEmbedded(res, out, opts);
  for (const meta of META) if (doc[meta] !== undefined) out[meta] = renderDates(doc[meta]);
  maskSecrets(out, res.secretPaths);
  if (opts.mode !== 'embedded') out._links = itemLinks(res, doc, opts);
  return out;
}

/** Relation fields the operations embedded (an item where the id was) are rendered as the target's items. */
function renderEmbedded(res: CompiledResource, out: Record<string, unknown>, opts: RenderOptions): void {
  for (const rel of res.relations) {
    const value = out[rel.field];
    if (value === null || value === undefined || typeof value === 'string') continue;
    const target = opts.registry.get(rel.to);
    const embeddedOpts: RenderOptions = { mode: 'embedded', registry: opts.registry };
    const render = (v: unknown): unknown =>
      isRecord(v) && typeof v._id === 'string' ? renderItem(target, v as Doc, embeddedOpts) : v;
    out[rel.field] = Array.isArray(value) ? value.map(render) : render(value);
  }
}

/** Dotted projection keys (`grain.cpu_model`) keep or drop just that part of a sub-document. */
function applySubProjection(out: Record<string, unknown>, projection: RenderOptions['projection']): void {
  if (!projection) return;
  const dotted = Object.entries(projection).filter(([k]) => k.includes('.'));
  const inclusive = Object.values(projection).includes(1);
  const byTop = new Map<string, string[][]>();
  for (const [key] of dotted) {
    const [top, ...rest] = key.split('.');
    if (top === undefined) continue;
    byTop.set(top, [...(byTop.get(top) ?? []), rest]);
  }
  for (const [top, subPaths] of byTop) {
    if (!(top in out)) continue;
    if (inclusive && projection[top] !== 1) out[top] = pickPaths(out[top], subPaths);
    if (!inclusive) out[top] = dropPaths(out[top], subPaths);
  }
}

/** A plain record (not an array, not a Date). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function pickPaths(value: unknown, paths: string[][]): unknown {
  if (Array.isArray(value)) return value.map((el) => pickPaths(el, paths));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [head, ...rest] of paths) {
    if (head === undefined || !(head in value)) continue;
    out[head] = rest.length === 0 ? value[head] : pickPaths(value[head], [rest]);
  }
  return out;
}

function dropPaths(value: unknown, paths: string[][]): unknown {
  if (Array.isArray(value)) return value.map((el) => dropPaths(el, paths));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [head, ...rest] of paths) {
    if (head === undefined || !(head in out)) continue;
    if (rest.length === 0) delete out[head];
    else out[head] = dropPaths(out[head], [rest]);
  }
  return out;
}

/** The id (or ids) of a relation field, also when the item embeds the targets. */
export function linkIds(value: unknown): unknown {
  return Array.isArray(value) ? value.map(idOf) : idOf(value);
}

function idOf(v: unknown): unknown {
  return isRecord(v) && typeof v._id === 'string' ? v._id : v;
}

function itemLinks(res: CompiledResource, doc: Doc, opts: RenderOptions): Record<string, unknown> {
  const links: Record<string, unknown> = { self: { title: res.itemTitle, href: `${res.name}/${doc._id}` } };
  if (opts.mode === 'item') {
    links.parent = { title: 'home', href: '/' };
    links.collection = { title: res.name, href: res.name };
  }
  const related: Record<string, Link | Link[]> = {};
  for (const rel of res.relations) {
    const value = linkIds(doc[rel.field]);
    const title = opts.registry.get(rel.to).itemTitle;
    if (rel.many && Array.isArray(value) && value.length > 0) {
      related[rel.field] = value
        .filter((v) => typeof v === 'string')
        .map((v) => ({ title, href: `${rel.to}/${v}` }));
    } else if (!rel.many && typeof value === 'string' && value !== '') {
      related[rel.field] = { title, href: `${rel.to}/${value}` };
    }
  }
  if (Object.keys(related).length > 0) links.related = related;
  return links;
}

/** The body of a successful write (Eve's bandwidth-saver shape). */
export function renderWrite(res: CompiledResource, doc: Doc, registry: Registry): Record<string, unknown> {
  const item = renderItem(res, doc, { mode: 'write', registry });
  const out: Record<string, unknown> = {};
  for (const meta of META) if (item[meta] !== undefined) out[meta] = item[meta];
  out._links = item._links;
  out._status = 'OK';
  return out;
}
