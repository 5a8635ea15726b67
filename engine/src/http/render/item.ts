/**
 * The two outputs of an item's plan (plan.ts): the rendered object, and its JSON text written
 * straight from the stored document, without building the object and walking it a second time.
 * Plans are compiled once per resource, mode, registry and projection (the parsed projection of one
 * raw string is one object: query/params.ts).
 */
import type { CompiledResource } from '../../compile/compile';
import type { Registry } from '../../compile/registry';
import type { Doc, Projection } from '../../store/port';
import { renderDates } from '../dates';
import { isRecord } from '../../query/path-tree';
import { compilePlan, dateText, META, type ItemPlan, type RenderMode } from './plan';
import { textOf } from './texts';

/** What an item is rendered for, and how. */
export interface RenderOptions {
  readonly mode: RenderMode;
  /** Every resource: titles of related links, embedded items, media links. */
  readonly registry: Registry;
  readonly projection?: Projection;
  /** The item embeds nothing: its text may be reused while its `_etag` holds (texts.ts). */
  readonly reuse?: boolean;
}

type ByMode = Map<RenderMode, ItemPlan>;
const plain = new WeakMap<CompiledResource, ByMode>();
const projected = new WeakMap<Projection, WeakMap<CompiledResource, ByMode>>();

function plansOf(res: CompiledResource, projection: Projection | undefined): ByMode {
  const owner =
    projection === undefined ? plain : (projected.get(projection) ?? new WeakMap<CompiledResource, ByMode>());
  if (projection !== undefined) projected.set(projection, owner);
  let byMode = owner.get(res);
  if (byMode === undefined) {
    byMode = new Map();
    owner.set(res, byMode);
  }
  return byMode;
}

/** The plan of `res` for `o` (compiled on first use). */
export function planOf(
  res: CompiledResource,
  o: Pick<RenderOptions, 'mode' | 'registry' | 'projection'>,
): ItemPlan {
  const byMode = plansOf(res, o.projection);
  let plan = byMode.get(o.mode);
  if (plan === undefined || plan.registry !== o.registry) {
    const embed = (target: string, doc: Doc) =>
      renderObject(o.registry.get(target), doc, { mode: 'embedded', registry: o.registry });
    plan = compilePlan(res, o.mode, o.registry, o.projection, embed);
    byMode.set(o.mode, plan);
  }
  return plan;
}

/** The id (or ids) of a relation field, also when the item embeds the targets. */
function linkIds(value: unknown): unknown {
  const idOf = (v: unknown) => (isRecord(v) && typeof v._id === 'string' ? v._id : v);
  return Array.isArray(value) ? value.map(idOf) : idOf(value);
}

interface Link {
  readonly title: string;
  readonly href: string;
}

/** `_links`: self, parent and collection on item GETs, related for the relations that hold ids. */
function links(plan: ItemPlan, doc: Doc): Record<string, unknown> {
  const { res } = plan;
  const out: Record<string, unknown> = {
    self: { title: res.itemTitle, href: `${res.name}/${String(doc._id)}` },
  };
  if (plan.mode === 'item') {
    out.parent = { title: 'home', href: '/' };
    out.collection = { title: res.name, href: res.name };
  }
  const related: Record<string, Link | Link[]> = {};
  for (const rel of plan.related) {
    const value = linkIds(doc[rel.field]);
    if (rel.many && Array.isArray(value) && value.length > 0)
      related[rel.field] = value
        .filter((v): v is string => typeof v === 'string')
        .map((v) => ({ title: rel.title, href: `${rel.to}/${v}` }));
    else if (!rel.many && typeof value === 'string' && value !== '')
      related[rel.field] = { title: rel.title, href: `${rel.to}/${value}` };
  }
  if (Object.keys(related).length > 0) out.related = related;
  return out;
}

/** One stored document as its item (a write's answer: meta fields, `_links`, `_status`). */
export function renderObject(res: CompiledResource, doc: Doc, o: RenderOptions): Record<string, unknown> {
  const plan = planOf(res, o);
  const out: Record<string, unknown> = {};
  for (const field of plan.fields) {
    const value = Object.hasOwn(doc, field.name) ? field.value(doc[field.name]) : undefined;
    if (value !== undefined) out[field.name] = value;
  }
  for (const meta of META) if (doc[meta] !== undefined) out[meta] = renderDates(doc[meta]);
  if (plan.mode !== 'embedded') out._links = links(plan, doc);
  if (plan.mode === 'write') out._status = 'OK';
  return out;
}

/** The JSON text of {@link renderObject}'s item, written from the same plan. */
export function renderText(res: CompiledResource, doc: Doc, o: RenderOptions): string {
  const plan = planOf(res, o);
  return textOf(plan, doc, o.reuse === true && plan.mode !== 'write', () => writeText(plan, doc));
}

function writeText(plan: ItemPlan, doc: Doc): string {
  const parts: string[] = [];
  for (const field of plan.fields) {
    if (!Object.hasOwn(doc, field.name) || doc[field.name] === undefined) continue;
    const text = field.text(doc[field.name]);
    if (text !== undefined) parts.push(`${field.key}${text}`);
  }
  for (const meta of META) {
    const text = doc[meta] === undefined ? undefined : dateText(doc[meta]);
    if (text !== undefined) parts.push(`"${meta}":${text}`);
  }
  if (plan.mode !== 'embedded') parts.push(`"_links":${JSON.stringify(links(plan, doc))}`);
  if (plan.mode === 'write') parts.push('"_status":"OK"');
  return `{${parts.join(',')}}`;
}
