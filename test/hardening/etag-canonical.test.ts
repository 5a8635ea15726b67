/**
 * The etag canonicaliser writes with an explicit stack (a body nested 10,000 deep
 * overflowed its recursion). Stored etags must keep their values, so the text is checked against
 * the recursive form it replaced, on generated documents.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { canonicalJson, etagOf, etagsWith } from '../../engine/src/ops/etag';

/** The recursive canonical form of before (engine/src/ops/etag.ts before the explicit stack). */
function recursiveCanonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(recursiveCanonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      if (key !== '_etag') out[key] = recursiveCanonical((value as Record<string, unknown>)[key]);
    }
    return out;
  }
  return value;
}

const leaf = fc.oneof(
  fc.string(),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.date({
    min: new Date('1970-01-01T00:00:00Z'),
    max: new Date('2100-01-01T00:00:00Z'),
    noInvalidDate: true,
  }),
);
// Not `__proto__`: the recursive form assigned it to a fresh object, which set a prototype instead of
// copying the key, so the value never counted (see the last test).
const key = fc.oneof(
  fc.string().filter((k) => k !== '__proto__'),
  fc.constantFrom('_etag', '_id', 'a', 'b', 'constructor', '0', '2', '10', '01', '4294967295'),
);
const { doc } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('doc')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  doc: fc.dictionary(key, tie('value'), { maxKeys: 6 }),
}));

describe('the canonical JSON of an etag', () => {
  test('is the text of the recursive form it replaced, for any document', () => {
    fc.assert(
      fc.property(doc, (d) => {
        expect(canonicalJson(d)).toBe(JSON.stringify(recursiveCanonical(d)));
      }),
      { seed: 8, numRuns: 400 },
    );
  });

  test('an etag computed before keeps its value', () => {
    const stored = {
      _id: 'h1',
      _etag: 'old',
      b: [1, { z: null, a: new Date('2026-01-02T03:04:05Z') }],
      a: { _etag: 'x', y: 'é"\n' },
    };
    const before = createHash('sha1')
      .update(JSON.stringify(recursiveCanonical(stored)))
      .digest('hex');
    expect(etagOf(stored)).toBe(before);
  });

  test('an own __proto__ key (JSON.parse makes one) is content like any other key', () => {
    const a = JSON.parse('{"_id":"x","open":{"__proto__":{"k":1}}}') as Record<string, unknown>;
    const b = JSON.parse('{"_id":"x","open":{"__proto__":{"k":2}}}') as Record<string, unknown>;
    expect(etagOf(a)).not.toBe(etagOf(b));
  });

  test('a document nested 100,000 deep gets an etag instead of overflowing the stack', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 100_000; i++) deep = { a: deep, list: [i] };
    expect(etagOf(deep)).toMatch(/^[0-9a-f]{40}$/);
  });

  test('the etags of a document with other values of one top-level key are what etagOf gives for each', () => {
    const record = fc.dictionary(key, leaf, { maxKeys: 6 });
    fc.assert(
      fc.property(record, key, fc.array(leaf, { minLength: 1, maxLength: 3 }), (d, k, values) => {
        expect(etagsWith(d, k, values)).toEqual(values.map((v) => etagOf({ ...d, [k]: v })));
      }),
      { seed: 9, numRuns: 400 },
    );
    const stored = {
      _id: 'h1',
      _updated: new Date('2026-01-01T00:00:00Z'),
      grain: { os: 'Debian', '10': 1 },
    };
    const now = new Date('2026-02-01T00:00:00Z');
    expect(etagsWith(stored, '_updated', [stored._updated, now])).toEqual([
      etagOf(stored),
      etagOf({ ...stored, _updated: now }),
    ]);
  });
});
