/**
 * The serializer compiled per resource: a stored document written straight to the JSON text of
 * its Eve item, exactly the text `JSON.stringify(renderItem(...))` gives (serialize.ts stays the
 * one definition of an item; test/perf/item-json.test.ts holds the two equal over every
 * resource), without building the item object and walking it a second time. Per resource and
 * mode, a plan is made once: the visible fields with their quoted keys and how each value is
 * written (as it is; with its dates rendered and secrets masked; as a media link; as embedded
 * items), and the pieces of `_links`. A projection with dotted paths (`grain.cpu_model`) takes
 * the object path.
 */
import type { CompiledResource } from '../compile/compile';
import type { Registry } from '../compile/registry';
import type { Doc, Projection } from '../store/port';
import { formatHttpDate, renderDates } from './dates';
import {
  copiedFields,
  isRecord,
  linkIds,
  maskSecrets,
  mediaHrefFor,
  META,
  renderItem,
  visibleFields,
  type RenderMode,
} from './serialize';

/** The modes written as text; `embedded` items are rendered inside their parent's value. */
export type TextMode = Exclude<RenderMode, 'embedded'>;

type FieldKind = 'plain' | 'copied' | 'media' | 'relation';

interface FieldPlan {
  readonly name: string;
  /** `"name":` */
  readonly key: string;
  readonly kind: FieldKind;
  /** The secret paths of the field (itself, or below it) as paths into `{v: value}` (copied fields). */
  readonly secrets: readonly string[];
}

interface RelationPlan {
  readonly field: string;
  readonly key: string;
  readonly many: boolean;
  /** `{"title":<title>,"href":` */
  readonly head: string;
  readonly to: string;
  readonly target: CompiledResource;
}

interface Plan {
  /** Tells the plans apart in the keys of written texts. */
  readonly id: number;
  readonly registry: Registry;
  readonly fields: readonly FieldPlan[];
  readonly relations: readonly RelationPlan[];
  /** `"_links":{"self":{"title":<itemTitle>,"href":` */
  readonly selfHead: string;
  /** `,"parent":...,"collection":...` on item GETs. */
  readonly itemLinks: string;
}

const q = (text: string): string => JSON.stringify(text);
let planCount = 0;

function kindOf(res: CompiledResource, name: string): FieldKind {
  if (res.relations.some((r) => r.field === name)) return 'relation';
  if (res.mediaFields.includes(name)) return 'media';
  return copiedFields(res).has(name) ? 'copied' : 'plain';
}

function makePlan(
  res: CompiledResource,
  mode: TextMode,
  registry: Registry,
  projection: Projection | undefined,
): Plan {
  const fields = visibleFields(res, { mode, ...(projection ? { projection } : {}) }).map((name) => ({
    name,
    key: `${q(name)}:`,
    kind: kindOf(res, name),
    secrets: res.secretPaths
      .filter((p) => p === name || p.startsWith(`${name}.`))
      .map((p) => `v${p.slice(name.length)}`),
  }));
  const relations = res.relations.map((rel) => {
    const target = registry.get(rel.to);
    return {
      field: rel.field,
      key: `${q(rel.field)}:`,
      many: rel.many,
      head: `{"title":${q(target.itemTitle)},"href":`,
      to: rel.to,
      target,
    };
  });
  const itemLinks =
    mode === 'item'
      ? `,"parent":{"title":"home","href":"/"},"collection":{"title":${q(res.name)},"href":${q(res.name)}}`
      : '';
  planCount += 1;
  return {
    id: planCount,
    registry,
    fields,
    relations,
    selfHead: `"_links":{"self":{"title":${q(res.itemTitle)},"href":`,
    itemLinks,
  };
}

/** Plans without a projection, per resource and mode. */
const plans = new WeakMap<CompiledResource, Map<TextMode, Plan>>();
/** Plans of projections: the parsed projection of one raw string is one object (query/params.ts). */
const projected = new WeakMap<Projection, Map<CompiledResource, Map<TextMode, Plan>>>();

function planFor(
  res: CompiledResource,
  mode: TextMode,
  registry: Registry,
  projection: Projection | undefined,
): Plan {
  const owner = projection === undefined ? plans : undefined;
  let byMode = owner ? owner.get(res) : projected.get(projection as Projection)?.get(res);
  let plan = byMode?.get(mode);
  if (plan !== undefined && plan.registry === registry) return plan;
  plan = makePlan(res, mode, registry, projection);
  if (byMode === undefined) {
    byMode = new Map();
    if (owner) owner.set(res, byMode);
    else {
      const byRes =
        projected.get(projection as Projection) ?? new Map<CompiledResource, Map<TextMode, Plan>>();
      byRes.set(res, byMode);
      projected.set(projection as Projection, byRes);
    }
  }
  byMode.set(mode, plan);
  return plan;
}

const textable = new WeakMap<CompiledResource, boolean>();

/**
 * Whether the text path applies: no dotted projection key, no stored field named like a meta
 * field, and no secret or date below a media or relation field (renderItem masks after it makes
 * links and embeds; no resource has such a field, so they take the object path rather than a
 * copy of that order here).
 */
function writable(res: CompiledResource, projection: Projection | undefined): boolean {
  if (projection !== undefined && Object.keys(projection).some((k) => k.includes('.'))) return false;
  let ok = textable.get(res);
  if (ok === undefined) {
    const special = new Set([...res.mediaFields, ...res.relations.map((r) => r.field)]);
    const secretHeads = res.secretPaths.map((p) => p.split('.')[0] ?? p);
    ok =
      !META.some((m) => res.storedFields.includes(m)) &&
      !secretHeads.some((h) => special.has(h)) &&
      ![...copiedFields(res)].some((f) => special.has(f));
    textable.set(res, ok);
  }
  return ok;
}

function copiedJson(value: unknown, field: FieldPlan): string | undefined {
  if (field.secrets.length === 0)
    return value instanceof Date ? `"${formatHttpDate(value)}"` : JSON.stringify(renderDates(value));
  const holder: Record<string, unknown> = { v: renderDates(value) };
  maskSecrets(holder, field.secrets);
  return JSON.stringify(holder.v);
}

function allStrings(values: readonly unknown[]): boolean {
  for (const v of values) if (typeof v !== 'string') return false;
  return true;
}

/** An embedded item (an object with its `_id`) rendered as the target's item; anything else as it is. */
function embeddedValue(v: unknown, target: CompiledResource | undefined, registry: Registry): unknown {
  return target !== undefined && isRecord(v) && typeof v._id === 'string'
    ? renderItem(target, v as Doc, { mode: 'embedded', registry })
    : v;
}

function relationJson(
  value: unknown,
  res: CompiledResource,
  field: string,
  registry: Registry,
): string | undefined {
  if (value === null || typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value) && allStrings(value)) return JSON.stringify(value);
  const rel = res.relations.find((r) => r.field === field);
  const target = rel === undefined ? undefined : registry.get(rel.to);
  if (Array.isArray(value)) return JSON.stringify(value.map((v) => embeddedValue(v, target, registry)));
  return JSON.stringify(embeddedValue(value, target, registry));
}

function fieldJson(
  field: FieldPlan,
  value: unknown,
  res: CompiledResource,
  registry: Registry,
): string | undefined {
  switch (field.kind) {
    case 'plain':
      return JSON.stringify(value);
    case 'copied':
      return copiedJson(value, field);
    case 'media':
      return typeof value === 'string'
        ? JSON.stringify(mediaHrefFor(registry)(value))
        : JSON.stringify(value);
    case 'relation':
      return relationJson(value, res, field.name, registry);
  }
}

function metaJson(value: unknown): string | undefined {
  return value instanceof Date ? `"${formatHttpDate(value)}"` : JSON.stringify(renderDates(value));
}

function relatedJson(plan: Plan, doc: Doc): string {
  const parts: string[] = [];
  for (const rel of plan.relations) {
    const value = linkIds(doc[rel.field]);
    if (rel.many && Array.isArray(value) && value.length > 0) {
      const links: string[] = [];
      for (const v of value) if (typeof v === 'string') links.push(`${rel.head}${q(`${rel.to}/${v}`)}}`);
      parts.push(`${rel.key}[${links.join(',')}]`);
    } else if (!rel.many && typeof value === 'string' && value !== '') {
      parts.push(`${rel.key}${rel.head}${q(`${rel.to}/${value}`)}}`);
    }
  }
  return parts.length === 0 ? '' : `,"related":{${parts.join(',')}}`;
}

function linksJson(plan: Plan, res: CompiledResource, doc: Doc): string {
  return `${plan.selfHead}${q(`${res.name}/${String(doc._id)}`)}}${plan.itemLinks}${relatedJson(plan, doc)}}`;
}

function metaParts(doc: Doc, parts: string[]): void {
  for (const meta of META) {
    const value = doc[meta];
    if (value === undefined) continue;
    const text = metaJson(value);
    if (text !== undefined) parts.push(`"${meta}":${text}`);
  }
}

/**
 * Texts already written, by plan, id and stored `_etag`: the etag is the SHA-1 of the stored
 * content (ops/etag.ts, set by every write), so the same key is the same text, and a changed item
 * is simply another key. Used only where the text depends on nothing else: no `afterRead` hook
 * (it may change the page's items), no media field (signed links expire), nothing embedded. The
 * whole map is emptied once the texts in it pass {@link TEXTS_MAX_CHARS} characters (a few MB).
 */
const texts = new Map<string, string>();
let textChars = 0;
const TEXTS_MAX_CHARS = 4_000_000;

function remember(key: string, text: string): void {
  if (textChars + text.length + key.length > TEXTS_MAX_CHARS) {
    texts.clear();
    textChars = 0;
  }
  texts.set(key, text);
  textChars += text.length + key.length;
}

const reusableOf = new WeakMap<CompiledResource, boolean>();

function reusable(res: CompiledResource): boolean {
  let ok = reusableOf.get(res);
  if (ok === undefined) {
    ok = res.def.hooks?.afterRead === undefined && res.mediaFields.length === 0;
    reusableOf.set(res, ok);
  }
  return ok;
}

/** How {@link itemJson} writes. */
export interface ItemJsonOptions {
  readonly mode: TextMode;
  readonly registry: Registry;
  readonly projection?: Projection;
  /** The item embeds nothing: its text may be reused while its `_etag` holds (see above). */
  readonly reuse?: boolean;
}

/**
 * The JSON text of one stored document as an item of `mode` (`list`, `item`, or `write`: the
 * meta fields and links of a write's answer, with `_status`); the text of `renderItem` /
 * `renderWrite` for the same arguments.
 */
export function itemJson(res: CompiledResource, doc: Doc, o: ItemJsonOptions): string {
  if (!writable(res, o.projection)) {
    const item = renderItem(res, doc, {
      mode: o.mode,
      registry: o.registry,
      ...(o.projection ? { projection: o.projection } : {}),
    });
    return JSON.stringify(
      o.mode === 'write' ? { ...pickMeta(item), _links: item._links, _status: 'OK' } : item,
    );
  }
  const plan = planFor(res, o.mode, o.registry, o.projection);
  const cacheable =
    o.reuse === true &&
    o.mode !== 'write' &&
    typeof doc._etag === 'string' &&
    typeof doc._id === 'string' &&
    reusable(res);
  const key = cacheable ? `${plan.id}\u0000${String(doc._id)}\u0000${String(doc._etag)}` : undefined;
  if (key !== undefined) {
    const hit = texts.get(key);
    if (hit !== undefined) return hit;
  }
  const parts: string[] = [];
  if (o.mode !== 'write') {
    for (const field of plan.fields) {
      if (!(field.name in doc)) continue;
      const value = doc[field.name];
      if (value === undefined) continue;
      const text = fieldJson(field, value, res, o.registry);
      if (text !== undefined) parts.push(`${field.key}${text}`);
    }
  }
  metaParts(doc, parts);
  parts.push(linksJson(plan, res, doc));
  if (o.mode === 'write') parts.push('"_status":"OK"');
  const text = `{${parts.join(',')}}`;
  if (key !== undefined) remember(key, text);
  return text;
}

function pickMeta(item: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const meta of META) if (item[meta] !== undefined) out[meta] = item[meta];
  return out;
}
