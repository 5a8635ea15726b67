/**
 * Write bodies: meta and server-set fields refused for users (the system principal may set
 * server-set ones), then the resource's Zod schema (defaults applied), then write-only inputs split
 * off for the hooks. Every problem of a body is reported at once in `_issues`.
 */
import type { z } from 'zod';
import type { CompiledResource } from '../compile/compile';
import { issueMessage, parseWith } from '../compile/zod';
import type { WriteOp } from '../definition/define';
import { Unprocessable } from '../errors';
import { isPlainObject } from '../values';

const META_KEYS = new Set(['_created', '_updated', '_etag', '_links', '_status']);
/** Meta fields the system principal may give on create: when the item came to be. */
const HISTORY_KEYS = new Set(['_created', '_updated']);

/** A validated body: the fields to store and the write-only inputs. */
export interface ValidBody {
  readonly stored: Record<string, unknown>;
  readonly extras: Record<string, unknown>;
}

function schemaOf(res: CompiledResource, op: WriteOp, system: boolean): z.ZodType {
  if (system) return op === 'patch' ? res.validators.systemPatch : res.validators.systemCreate;
  return op === 'patch' ? res.validators.patch : res.validators.create;
}

/** Why a key of the body may not be written by this caller, or null. */
function refusal(res: CompiledResource, key: string, op: WriteOp, system: boolean): string | null {
  const readOnly = issueMessage('readOnly');
  // An import by the system principal (the seed, a migration) keeps the item's own history.
  if (system && op === 'create' && HISTORY_KEYS.has(key)) return null;
  if (META_KEYS.has(key)) return readOnly;
  // A natural id is given by the client; the system principal may also name a generated-style id
  // (an alert derived from an event, stored once by every instance that sees the event).
  if (key === '_id') return op === 'create' && (res.def.id === 'natural' || system) ? null : readOnly;
  if (key === res.softDelete?.field) return readOnly;
  if (system) return null;
  if (res.readonlyFields.has(key)) return readOnly;
  if (op === 'patch' && Object.hasOwn(res.def.fields, key) && !res.patchable.has(key))
    return issueMessage('notPatchable');
  return null;
}

const UNSAFE_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Top-level dotted keys as sub-documents: `{"spec.volts": 12}` is `{"spec": {"volts": 12}}`, as
 * Eve's `normalize_dotted_fields` makes them (NORMALIZE_DOTTED_FIELDS, on by default): the one way a
 * form body names a sub-field. Top level only: below it, dotted keys are data (a rule group's
 * `info.grain` names dotted grain keys). A key that cannot be placed stays as given, and is refused.
 */
function normalizeDotted(body: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const dotted = Object.keys(body).filter((k) => k.includes('.'));
  if (dotted.length === 0) return body;
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(body))
    if (!key.includes('.')) out[key] = isPlainObject(value) ? { ...value } : value;
  for (const key of dotted) {
    const parts = key.split('.');
    let node: Record<string, unknown> | null = out;
    for (const part of parts.slice(0, -1)) {
      if (node === null || UNSAFE_SEGMENTS.has(part) || part === '') node = null;
      else if (!Object.hasOwn(node, part)) node = node[part] = {} as Record<string, unknown>;
      else node = isPlainObject(node[part]) ? (node[part] = { ...node[part] }) : null;
    }
    const last = parts[parts.length - 1] ?? '';
    if (node === null || UNSAFE_SEGMENTS.has(last) || last === '' || Object.hasOwn(node, last))
      out[key] = body[key];
    else node[last] = body[key];
  }
  return out;
}

/** Validates a write body for `op` by this caller; throws 422 with every issue. */
export function validateBody(
  res: CompiledResource,
  given: Readonly<Record<string, unknown>>,
  op: WriteOp,
  system: boolean,
): ValidBody {
  const body = normalizeDotted(given);
  // No prototypes: a key named `__proto__` is a key like any other (reported unknown), never a prototype.
  const issues = Object.create(null) as Record<string, string>;
  const rest = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(body)) {
    const why = refusal(res, key, op, system);
    if (why !== null) issues[key] = why;
    else if (HISTORY_KEYS.has(key)) {
      if (!(value instanceof Date)) issues[key] = issueMessage('type', { type: 'datetime' });
    } else if (key !== '_id') rest[key] = value;
  }
  const parsed = parseWith(schemaOf(res, op, system), rest);
  if (!parsed.ok) Object.assign(issues, parsed.issues);
  if (!parsed.ok || Object.keys(issues).length > 0)
    throw new Unprocessable(
      `${res.name}: the body has ${Object.keys(issues).length} invalid field(s)`,
      issues,
    );
  const extras: Record<string, unknown> = {};
  const stored: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parsed.data as Record<string, unknown>))
    (res.writeOnlyFields.includes(k) ? extras : stored)[k] = v;
  if (typeof body._id === 'string' && op === 'create') stored._id = body._id;
  for (const key of HISTORY_KEYS)
    if (system && op === 'create' && body[key] instanceof Date) stored[key] = body[key];
  return { stored, extras };
}
