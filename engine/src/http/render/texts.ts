/**
 * Item texts already written, by plan, id and stored `_etag`: the etag is the SHA-1 of the stored
 * content (ops/etag.ts, set by every write), so the same key is the same text, and a changed item
 * is simply another key. Used only where the text depends on nothing else: no `afterRead` hook
 * (it may change the page's items), no media field (signed links expire), nothing embedded (the
 * caller says so). The whole map is emptied once the texts in it pass {@link TEXTS_MAX_CHARS}
 * characters (a few MB).
 */
import type { Doc } from '../../store/port';
import type { ItemPlan } from './plan';

const texts = new Map<string, string>();
let chars = 0;
const TEXTS_MAX_CHARS = 4_000_000;

function remember(key: string, text: string): void {
  if (chars + text.length + key.length > TEXTS_MAX_CHARS) {
    texts.clear();
    chars = 0;
  }
  texts.set(key, text);
  chars += text.length + key.length;
}

function reusable(plan: ItemPlan): boolean {
  return plan.res.def.hooks?.afterRead === undefined && plan.res.mediaFields.length === 0;
}

/** The text of `doc` under `plan`: reused when `reuse` allows and it was written before, else `write()`. */
export function textOf(plan: ItemPlan, doc: Doc, reuse: boolean, write: () => string): string {
  const key =
    reuse && typeof doc._etag === 'string' && typeof doc._id === 'string' && reusable(plan)
      ? `${plan.id}\u0000${doc._id}\u0000${doc._etag}`
      : undefined;
  if (key === undefined) return write();
  const hit = texts.get(key);
  if (hit !== undefined) return hit;
  const text = write();
  remember(key, text);
  return text;
}
