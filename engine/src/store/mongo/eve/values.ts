/**
 * The values of an Eve document as this API's items hold them: ObjectIds (ids, references, media
 * ids) become their 24-hex strings, the ids the API has always used for generated items; dates
 * stay dates (Eve stores UTC datetimes); 64-bit integers and decimals become numbers when they fit.
 * A value the API has no way to hold (binary data, a BSON timestamp, a regular expression, a
 * number past 2^53) is named, so the item is refused with the reason instead of changed silently.
 */
import mongoose from 'mongoose';

const { BSON } = mongoose.mongo;

/** Why a value cannot be imported, with its path in the document. */
export class UnimportableValue extends Error {
  constructor(
    readonly path: string,
    what: string,
  ) {
    super(`${path}: ${what} cannot be imported`);
    this.name = 'UnimportableValue';
  }
}

function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** One BSON value that is not a plain JSON value: converted, or refused. */
function bsonValue(value: object, path: string): unknown {
  if (value instanceof BSON.ObjectId) return value.toHexString();
  if (value instanceof BSON.Long) {
    if (value.greaterThan(Number.MAX_SAFE_INTEGER) || value.lessThan(Number.MIN_SAFE_INTEGER))
      throw new UnimportableValue(path, 'an integer beyond 2^53');
    return value.toNumber();
  }
  if (value instanceof BSON.Int32 || value instanceof BSON.Double) return value.valueOf();
  if (value instanceof BSON.Decimal128) return Number(value.toString());
  if (value instanceof BSON.DBRef) return bsonValue(value.oid, path);
  if (value instanceof BSON.Binary) throw new UnimportableValue(path, 'binary data');
  if (value instanceof BSON.Timestamp) throw new UnimportableValue(path, 'a BSON timestamp');
  if (value instanceof BSON.BSONRegExp || value instanceof RegExp)
    throw new UnimportableValue(path, 'a regular expression');
  throw new UnimportableValue(path, `a ${value.constructor.name} value`);
}

/** The value as an item holds it (see above); `path` names it in a refusal. */
export function fromEve(value: unknown, path = ''): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((item, i) => fromEve(item, `${path}.${i}`));
  if (!isPlain(value)) return bsonValue(value, path);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    out[key] = fromEve(item, path === '' ? key : `${path}.${key}`);
  return out;
}
