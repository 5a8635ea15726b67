/**
 * Driver errors translated at the adapter's edge (STYLE §8): a duplicate key becomes `Conflict`
 * naming the field, a query or update the server refuses to parse becomes `BadRequest` (as the
 * embedded store answers), a query past its `maxTimeMS` or an unreachable or unusable database
 * becomes `ServiceUnavailable`. Messages are ours; the driver's (redacted) is kept as `cause`.
 * Anything else is rethrown as it is and renders as a bare 500.
 */
import { BadRequest, Conflict, HttpError, PayloadTooLarge, ServiceUnavailable } from '../../errors';

/** E11000 (and its legacy/sharded twins): a unique index refused the write. */
const DUPLICATE_KEY_CODES: ReadonlySet<number> = new Set([11000, 11001, 12582]);

/** Driver error classes meaning "no usable server": selection timed out, network gone, closed. */
const UNREACHABLE_NAMES: ReadonlySet<string> = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'MongoServerClosedError',
  'MongoClientClosedError',
  'MongoStalePrimaryError',
  // The write reached the primary but not the requested number of members (w: majority timed out).
  'MongoWriteConcernError',
]);

/**
 * Server codes that mean "not now" rather than "bad request": elections, shutdowns, lost hosts,
 * refused credentials (https://github.com/mongodb/mongo/blob/master/src/mongo/base/error_codes.yml).
 */
const UNAVAILABLE_CODES: ReadonlySet<number> = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  18, // AuthenticationFailed
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
  112, // WriteConflict: a transaction lost to a concurrent write and its retries ran out
  251, // NoSuchTransaction: the transaction was aborted under us (election, time limit)
  257, // TransactionTooLarge
  290, // TransactionExceededLifetimeLimitSeconds
]);

/**
 * Server codes for a malformed query, update or projection: the caller's mistake, not ours. Each
 * gets our own sentence: the server's text (field values, internal names) never reaches a client.
 */
const BAD_REQUEST_MESSAGES: ReadonlyMap<number, string> = new Map([
  [2, 'invalid query or update: an operator got a value it does not accept'], // BadValue: unknown operator, `$in` without an array
  [9, 'invalid query or update: the update could not be parsed'], // FailedToParse: unknown update modifier, mixed operators and fields
  [66, 'invalid query or update: _id cannot be changed'], // ImmutableField
  // Path collision (4.4+, jstests/core/projection_conflicts.js): `{os: 1, "os.family": 1}`.
  [31249, 'projection: two of its paths overlap (one lies inside the other): name only one of them'],
  [31250, 'projection: two of its paths overlap (one lies inside the other): name only one of them'],
  [31254, 'projection: a projection cannot mix inclusion and exclusion'],
  [51091, 'where: a regular expression does not compile'], // jstests/core/regex_error.js
]);

/**
 * A document over MongoDB's 16 MB limit (https://www.mongodb.com/docs/manual/reference/limits/):
 * an insert is refused with BadValue "object to insert too large", a replacement with 17420, an
 * update that grows it with 17419 (8375908 on 8.x), a command over the size with 10334
 * (jstests/core/max_doc_size.js); the driver itself refuses a bulk insert of one
 * ("Document is larger than the maximum size", bulk/ordered.ts).
 */
const TOO_LARGE_CODES: ReadonlySet<number> = new Set([10334, 17419, 17420, 8375908]);
const TOO_LARGE_TEXT = /too large|larger than the maximum size/i;

/** The answer to a document over the limit: the item, not the request, is what is too large. */
export const TOO_LARGE_MESSAGE =
  "the item would be larger than MongoDB's 16 MB document limit: keep large contents in a file (media) instead";

/**
 * A sort no index serves ran out of memory: QueryExceededMemoryLimitNoDiskUseAllowed (4.4+),
 * 16819/16820 before it. `find` asks for disk use (plan.ts), so this comes only from a server that
 * forbids it (`allowDiskUseByDefault: false`).
 */
const SORT_MEMORY_CODES: ReadonlySet<number> = new Set([292, 16819, 16820]);

/** Our answer to a sort that does not fit in the server's memory. */
export const SORT_MEMORY_MESSAGE =
  'sort: the database could not sort this many items in memory: sort on an indexed field (docs/mongodb.md lists them), or narrow where';

/** MaxTimeMSExpired, ExceededTimeLimit: the query ran past the `maxTimeMS` the adapter sends. */
const TIME_LIMIT_CODES: ReadonlySet<number> = new Set([50, 262]);

/** The driver's client-side time-out (CSOT) and the server's, as one message of ours. */
export const TIME_LIMIT_MESSAGE =
  'the database did not finish this query within its time limit (maxTimeMS): narrow `where`, or filter and sort on indexed fields';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The error and the places a driver error nests the server's reply: bulk write errors, causes. */
function layers(error: Record<string, unknown>): Record<string, unknown>[] {
  const out = [error];
  const writeErrors = error.writeErrors;
  const first: unknown = Array.isArray(writeErrors) ? writeErrors[0] : undefined;
  if (isRecord(first)) out.push(first, ...(isRecord(first.err) ? [first.err] : []));
  for (const key of ['errorResponse', 'cause']) {
    const nested = error[key];
    if (isRecord(nested)) out.push(nested);
  }
  return out;
}

function codeOf(layer: Record<string, unknown>): number | undefined {
  return typeof layer.code === 'number' ? layer.code : undefined;
}

/**
 * The field(s) a duplicate key error names: `keyPattern` (MongoDB >= 4.2), else `keyValue`, else
 * the index name in the message (`index: host_1_name_1 dup key`). Compound keys are joined by `,`
 * as the embedded store does.
 */
export function duplicateKeyField(layers: readonly Record<string, unknown>[]): string {
  for (const layer of layers) {
    for (const key of ['keyPattern', 'keyValue']) {
      const pattern = layer[key];
      if (isRecord(pattern) && Object.keys(pattern).length > 0) return Object.keys(pattern).join(',');
    }
  }
  for (const layer of layers) {
    const message =
      typeof layer.errmsg === 'string'
        ? layer.errmsg
        : typeof layer.message === 'string'
          ? layer.message
          : '';
    const index = /index: (\S+) dup key/.exec(message)?.[1];
    if (index === '_id_') return '_id';
    // Default index names are `<field>_<direction>` joined by `_`: `host_1__created_-1`.
    const fields = index?.split(/_-?1(?:_|$)/).filter((part) => part.length > 0) ?? [];
    if (fields.length > 0) return fields.join(',');
  }
  return '_id';
}

/** Removes credentials a connection string in a message could carry (`//user:pass@host`). */
export function redact(message: string): string {
  return message.replace(/\/\/[^/@\s]*@/g, '//***@');
}

/** The error to throw for a driver error: an `HttpError` when it maps, else the error unchanged. */
export function translateMongoError(error: unknown): unknown {
  if (error instanceof HttpError || !isRecord(error)) return error;
  const all = layers(error);
  if (all.some((layer) => DUPLICATE_KEY_CODES.has(codeOf(layer) ?? 0))) {
    const field = duplicateKeyField(all);
    return new Conflict(`duplicate value for '${field}'`, field);
  }
  const name = typeof error.name === 'string' ? error.name : '';
  const code = codeOf(error);
  if (isTooLarge(all)) return withCause(new PayloadTooLarge(TOO_LARGE_MESSAGE), error);
  if (code !== undefined && SORT_MEMORY_CODES.has(code))
    return withCause(new ServiceUnavailable(SORT_MEMORY_MESSAGE), error);
  const badRequest = code === undefined ? undefined : BAD_REQUEST_MESSAGES.get(code);
  if (badRequest !== undefined) return withCause(new BadRequest(badRequest), error);
  if ((code !== undefined && TIME_LIMIT_CODES.has(code)) || name === 'MongoOperationTimeoutError')
    return withCause(new ServiceUnavailable(TIME_LIMIT_MESSAGE), error);
  if (UNREACHABLE_NAMES.has(name) || (code !== undefined && UNAVAILABLE_CODES.has(code))) {
    return withCause(
      new ServiceUnavailable('database unreachable: the MongoDB server could not be used; try again shortly'),
      error,
    );
  }
  return error;
}

/** Whether a layer says a document is over the size limit (by code, or BadValue / the driver by text). */
function isTooLarge(all: readonly Record<string, unknown>[]): boolean {
  return all.some((layer) => {
    const code = codeOf(layer);
    if (code !== undefined && TOO_LARGE_CODES.has(code)) return true;
    const text = typeof layer.errmsg === 'string' ? layer.errmsg : layer.message;
    const bySize = typeof text === 'string' && TOO_LARGE_TEXT.test(text);
    return bySize && (code === 2 || layer.name === 'MongoInvalidArgumentError');
  });
}

/**
 * Keeps the driver's reason (credentials redacted) as the `cause`, for the server's log: the client
 * sees only our message, which names neither hosts nor internal fields.
 */
function withCause<E extends Error>(translated: E, driverError: Record<string, unknown>): E {
  const name = typeof driverError.name === 'string' ? driverError.name : 'Error';
  const message = typeof driverError.message === 'string' ? redact(driverError.message) : name;
  Object.defineProperty(translated, 'cause', {
    value: { name, message },
    enumerable: false,
    configurable: true,
    writable: true,
  });
  return translated;
}

/** Runs a driver call, translating what it rejects with. */
export async function translated<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw translateMongoError(error);
  }
}
