/**
 * The one test for "a JSON object" that every part of the service uses: the parsed bodies and
 * filters, stored documents, upstream answers.
 */

/**
 * Whether `value` is a plain object: an object literal, `JSON.parse` output or `Object.create(null)`;
 * not an array, a `Date`, a `RegExp`, a `Buffer` nor any other class instance. The prototype is
 * compared by shape (its own prototype is null), not by identity with this realm's
 * `Object.prototype`: objects made by a worker thread, the SQLite driver or another VM context
 * (Jest's) are plain objects too.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}
