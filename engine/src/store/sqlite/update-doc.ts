/**
 * MongoDB update semantics on one in-memory document: operator updates (through mingo),
 * replacements, the `_id` immutability rule, and the document an upsert inserts.
 */
import { BadRequest } from '../../errors';
import type { Doc, Filter, Update } from '../port';
import { newObjectId } from '../../ids';
import { applyOperators } from '../../query/in-memory';
import { isPlainObject } from '../../values';

/** An update checked once, before any document is touched. */
export type ParsedUpdate =
  | { readonly kind: 'replace'; readonly replacement: Readonly<Record<string, unknown>> }
  | { readonly kind: 'operators'; readonly ops: Readonly<Record<string, Record<string, unknown>>> };

/** Operators that may name `_id`: `$set` only to its current value, `$setOnInsert` on insert. */
const ID_TOLERANT = new Set(['$set', '$setOnInsert']);

/** Classifies and validates an update: all `$` keys (operators) or none (a replacement). */
export function parseUpdate(update: Update): ParsedUpdate {
  const keys = Object.keys(update);
  const operators = keys.filter((k) => k.startsWith('$'));
  if (operators.length === 0) return { kind: 'replace', replacement: update };
  if (operators.length !== keys.length) throw new BadRequest('an update mixes operators and plain fields');
  const ops: Record<string, Record<string, unknown>> = {};
  for (const op of operators) {
    const fields = update[op];
    if (!isPlainObject(fields)) throw new BadRequest(`${op} expects an object`);
    const touchesId = Object.entries(fields).some(
      ([path, target]) =>
        isIdPath(path) || (op === '$rename' && typeof target === 'string' && isIdPath(target)),
    );
    if (touchesId && !ID_TOLERANT.has(op))
      throw new BadRequest(`${op} cannot modify the immutable field '_id'`);
    ops[op] = fields;
  }
  return { kind: 'operators', ops };
}

/** Applies the update to `doc` (a private copy) and returns the new document. */
export function applyUpdate(doc: Doc, update: ParsedUpdate): Doc {
  if (update.kind === 'replace') {
    const { _id: id, ...rest } = update.replacement;
    assertSameId(id, doc._id);
    return { _id: doc._id, ...rest };
  }
  const { $setOnInsert: _ignored, ...ops } = update.ops;
  applyModifier(doc, withoutId(ops, doc._id));
  return doc;
}

/** The document an upsert inserts: filter equalities, then the update (with `$setOnInsert`). */
export function upsertDoc(filter: Filter, update: ParsedUpdate): Doc {
  const equalities = filterEqualities(filter);
  if (update.kind === 'replace') {
    const { _id: id, ...rest } = update.replacement;
    return { _id: chooseId(equalities._id, id), ...rest };
  }
  const { $setOnInsert: onInsert = {}, $set: set = {}, ...ops } = update.ops;
  const { _id: eqId, ...seed } = equalities;
  const doc: Doc = { _id: chooseId(eqId, onInsert._id ?? set._id) };
  applyModifier(doc, { $set: seed });
  const { _id: _a, ...setFields } = set;
  const { _id: _b, ...onInsertFields } = onInsert;
  applyModifier(doc, { ...ops, $set: { ...setFields, ...onInsertFields } });
  return doc;
}

/** Runs mingo's updater, skipping empty operator objects (which it rejects). */
function applyModifier(doc: Doc, modifier: Record<string, Record<string, unknown>>): void {
  const nonEmpty = Object.entries(modifier).filter(([, fields]) => Object.keys(fields).length > 0);
  if (nonEmpty.length > 0) applyOperators(doc, Object.fromEntries(nonEmpty));
}

/** `$set: {_id: <same>}` is a no-op MongoDB accepts; any other value is an attempt to change it. */
function withoutId(
  ops: Record<string, Record<string, unknown>>,
  id: string,
): Record<string, Record<string, unknown>> {
  const set = ops.$set;
  if (set === undefined || !Object.keys(set).some(isIdPath)) return ops;
  const { _id: newId, ...rest } = set;
  if (Object.keys(rest).some(isIdPath)) throw new BadRequest("$set cannot modify the immutable field '_id'");
  assertSameId(newId, id);
  return { ...ops, $set: rest };
}

function assertSameId(candidate: unknown, id: string): void {
  if (candidate !== undefined && candidate !== id)
    throw new BadRequest("cannot modify the immutable field '_id'");
}

function chooseId(...candidates: unknown[]): string {
  for (const candidate of candidates) {
    if (typeof candidate === 'string') return candidate;
    if (candidate !== undefined) throw new BadRequest('_id must be a string');
  }
  return newObjectId();
}

/** Top-level `{f: v}` and `{f: {$eq: v}}` of the filter (and of its `$and`), as MongoDB seeds an upsert. */
function filterEqualities(filter: Filter): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const part of value) if (isPlainObject(part)) Object.assign(out, filterEqualities(part));
    } else if (!key.startsWith('$')) {
      const operators = isPlainObject(value) ? Object.keys(value).filter((k) => k.startsWith('$')) : [];
      // A regex is a pattern, not a value to store (MongoDB skips it too).
      if (operators.length === 0 && !(value instanceof RegExp)) out[key] = value;
      else if (isPlainObject(value) && operators.length === 1 && '$eq' in value) out[key] = value.$eq;
    }
  }
  return out;
}

function isIdPath(path: string): boolean {
  return path === '_id' || path.startsWith('_id.');
}
