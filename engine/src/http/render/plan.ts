/**
 * The field plan of an item: for one resource, mode and projection, compiled once, the fields an
 * item shows in order, each with its quoted key and how its value is rendered, then the meta
 * fields and the pieces of `_links`. Both outputs of an item are walks of the same plan (item.ts):
 * the object, and its JSON text written straight from the stored document (the idea of
 * fast-json-stringify). Each step gives the rendered value; its text is that value's JSON, written
 * directly only where that is the same text by construction (a value passed as it is, a date).
 *
 * What an item shows: RFC 1123 dates, media ids as links, embedded items as the target's items,
 * list-hidden fields left out of lists, the projection's top-level fields (the local API applied
 * the projection to the document itself, dotted paths included), secrets as the local API gives
 * them (masked: secrets/view.ts), `_links` (self; parent and collection on item GETs; related).
 */
import type { CompiledResource } from '../../compile/compile';
import type { Registry } from '../../compile/registry';
import type { Doc, Projection } from '../../store/port';
import { isRecord } from '../../query/path-tree';
import { formatHttpDate, renderDates } from '../dates';
import { mediaHrefFor } from './media';

/** What an item is rendered for: a list, an item GET, embedded in another item, a write's answer. */
export type RenderMode = 'list' | 'item' | 'embedded' | 'write';

/** The meta fields every item ends with, in this order. */
export const META = ['_id', '_created', '_updated', '_etag'] as const;

/** How one shown field renders its stored value. */
export interface FieldStep {
  readonly name: string;
  /** `"name":` */
  readonly key: string;
  /** The rendered value (undefined: left out, as JSON leaves it out). */
  value(raw: unknown): unknown;
  /** The JSON text of `value(raw)`. */
  text(raw: unknown): string | undefined;
}

/** A relation's piece of `_links.related`. */
interface RelatedStep {
  readonly field: string;
  readonly many: boolean;
  readonly to: string;
  readonly title: string;
}

/** The compiled plan of one resource, mode and projection. */
export interface ItemPlan {
  /** Tells plans apart in the keys of written texts. */
  readonly id: number;
  readonly res: CompiledResource;
  readonly mode: RenderMode;
  readonly registry: Registry;
  /** The shown fields, in definition order (none in `write` mode). */
  readonly fields: readonly FieldStep[];
  readonly related: readonly RelatedStep[];
}

/** The top-level fields an item of `mode` shows under `projection`, in definition order. */
export function visibleFields(res: CompiledResource, mode: RenderMode, projection?: Projection): string[] {
  const fields = [...res.storedFields, ...(res.softDelete ? [res.softDelete.field] : [])];
  const p = projection ?? {};
  const keys = Object.keys(p);
  const inclusive = Object.values(p).includes(1);
  return fields.filter((name) => {
    if (inclusive) return p[name] === 1 || keys.some((k) => k.startsWith(`${name}.`));
    if (p[name] === 0) return false;
    return !(mode !== 'item' && res.hiddenInList.includes(name));
  });
}

/** A date as JSON text: its RFC 1123 rendering has nothing JSON escapes. */
export function dateText(value: unknown): string | undefined {
  return value instanceof Date ? `"${formatHttpDate(value)}"` : JSON.stringify(renderDates(value));
}

const datedOf = new WeakMap<CompiledResource, ReadonlySet<string>>();

/** Top-level fields with a datetime below them: rendered by a copy with every date formatted. */
function datedFields(res: CompiledResource): ReadonlySet<string> {
  let names = datedOf.get(res);
  if (names === undefined) {
    const found = new Set<string>();
    for (const info of res.paths.byPath.values()) {
      const kind = info.field.kind === 'array' ? info.field.of.kind : info.field.kind;
      if (kind === 'datetime') found.add(info.path.split('.')[0] ?? info.path);
    }
    names = found;
    datedOf.set(res, names);
  }
  return names;
}

const json = (value: unknown): string | undefined => JSON.stringify(value);

function step(name: string, value: (raw: unknown) => unknown, text?: FieldStep['text']): FieldStep {
  return { name, key: `${JSON.stringify(name)}:`, value, text: text ?? ((raw) => json(value(raw))) };
}

/** How field `name` of `res` renders. */
function fieldStep(
  res: CompiledResource,
  name: string,
  registry: Registry,
  embed: (target: string, doc: Doc) => unknown,
): FieldStep {
  const relation = res.relations.find((r) => r.field === name);
  if (relation !== undefined) {
    const one = (v: unknown): unknown =>
      isRecord(v) && typeof v._id === 'string' ? embed(relation.to, v as Doc) : v;
    return step(name, (raw) => (Array.isArray(raw) ? raw.map(one) : one(raw)));
  }
  if (res.mediaFields.includes(name))
    return step(name, (raw) => (typeof raw === 'string' ? mediaHrefFor(registry)(raw) : raw));
  if (datedFields(res).has(name)) return step(name, renderDates, dateText);
  return step(name, (raw) => raw, json);
}

let planCount = 0;

/** Compiles the plan; `embed` renders an embedded item of another resource (its `embedded` plan). */
export function compilePlan(
  res: CompiledResource,
  mode: RenderMode,
  registry: Registry,
  projection: Projection | undefined,
  embed: (target: string, doc: Doc) => unknown,
): ItemPlan {
  const fields =
    mode === 'write'
      ? []
      : visibleFields(res, mode, projection).map((n) => fieldStep(res, n, registry, embed));
  const related = res.relations.map((r) => ({
    field: r.field,
    many: r.many,
    to: r.to,
    title: registry.get(r.to).itemTitle,
  }));
  planCount += 1;
  return { id: planCount, res, mode, registry, fields, related };
}
