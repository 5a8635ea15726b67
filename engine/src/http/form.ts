/**
 * Form bodies: `application/x-www-form-urlencoded` writes and the text parts of
 * `multipart/form-data`. Every value arrives as text; it is converted to the declared type of its
 * field where that is unambiguous, as Eve's schema-driven serializers do (`eve/io/mongo/mongo.py`
 * `serializers`: integer, number, boolean "1"/"true"/"0"/"false"), and left as text otherwise, so
 * validation reports the field's type. A dotted key names a sub-field (`spec.volts=12`); the
 * validator nests it (ops/validate.ts).
 */
import express, { type RequestHandler } from 'express';
import type { CompiledResource } from '../compile/compile';
import type { Field } from '../definition/fields';
import { BadRequest } from '../errors';
import { assertBodyBounds, MAX_BODY_KEYS, MAX_BODY_TEXT_BYTES } from '../query/bounds';

/** The declared field a form key names: a top-level field, or a dotted sub-field (`spec.volts`). */
function fieldNamed(res: CompiledResource, name: string): Field | undefined {
  if (Object.hasOwn(res.def.fields, name)) return res.def.fields[name];
  return res.paths.byPath.get(name)?.field;
}

/** One text value as its field's declared type, where that is unambiguous. */
function convert(res: CompiledResource, name: string, value: string): unknown {
  const field = fieldNamed(res, name);
  switch (field?.kind) {
    case 'integer':
    case 'number':
      return value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
    case 'boolean': {
      const lower = value.toLowerCase();
      return lower === 'true' || lower === '1' ? true : lower === 'false' || lower === '0' ? false : value;
    }
    case 'object':
    case 'array':
      // JSON.parse does not recurse; the whole body, this value in its place, is bounded next (formFields).
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value;
      }
    default:
      return value;
  }
}

/**
 * The fields of a form with their text values converted (values given twice stay lists of text),
 * bounded as a JSON body is (depth, keys) before anything walks them: a dotted key nests as deep
 * as it has segments once validated.
 */
export function formFields(
  res: CompiledResource,
  fields: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  // No prototype: a field named `__proto__` is a field like any other (refused as unknown).
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(fields)) out[k] = typeof v === 'string' ? convert(res, k, v) : v;
  assertBodyBounds(out);
  return out;
}

/**
 * A form's fields by name, every key kept as sent (`__proto__`, `tags[]`: no bracket syntax, no
 * key dropped), a name given twice as a list of its values.
 */
function parseForm(text: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  let count = 0;
  for (const [key, value] of new URLSearchParams(text)) {
    count += 1;
    if (count > MAX_BODY_KEYS) throw new BadRequest(`body: the form has more than ${MAX_BODY_KEYS} fields`);
    const seen = out[key];
    if (seen === undefined) out[key] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else out[key] = [seen, value];
  }
  return out;
}

/** The form's bytes as text (its charset honoured); the limit is the JSON body's, 1 MB. */
const readForm = express.text({ type: 'application/x-www-form-urlencoded', limit: MAX_BODY_TEXT_BYTES });

/** Parses a form-urlencoded body of a write into converted fields. */
export function formBody(res: CompiledResource): RequestHandler {
  return (req, resp, next) => {
    readForm(req, resp, (err?: unknown) => {
      if (err !== undefined) {
        next(err);
        return;
      }
      try {
        req.body = formFields(res, parseForm(typeof req.body === 'string' ? req.body : ''));
        next();
      } catch (error) {
        next(error);
      }
    });
  };
}
