/**
 * No server: driver errors, constructed as the driver shapes them, translated at the adapter's
 * edge. Duplicate keys name the field(s), unreachable servers are 503, the rest passes through.
 *
 * The errors are built here with the driver's class names and fields (driver 7: a
 * `MongoServerError` copies every field of the server's reply onto itself, `keyPattern` and
 * `keyValue` included; a `MongoBulkWriteError` lists `writeErrors` whose `err` is the reply).
 * The test workspace does not depend on the driver, so its classes are not imported.
 */
import { BadRequest, Conflict, NotFound, ServiceUnavailable } from '../../engine/src/errors';
import { SORT_MEMORY_MESSAGE, TOO_LARGE_MESSAGE, translateMongoError } from '../../engine/src/store/mongo';

/** An error with the driver's class name and the reply's fields. */
function driverError(name: string, message: string, fields: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { name, ...fields });
}

/** A server error as the driver builds it from a reply document. */
function serverError(reply: Record<string, unknown>): Error {
  const message = typeof reply.errmsg === 'string' ? reply.errmsg : 'server error';
  return driverError('MongoServerError', message, { ok: 0, errorResponse: { ok: 0, ...reply }, ...reply });
}

describe('duplicate keys become Conflict naming the field', () => {
  test.each([
    [
      'keyPattern',
      serverError({
        code: 11000,
        errmsg: 'E11000 duplicate key error',
        keyPattern: { name: 1 },
        keyValue: { name: 'web1' },
      }),
      'name',
    ],
    ['keyValue only', serverError({ code: 11000, errmsg: 'E11000', keyValue: { email: 'a@b' } }), 'email'],
    [
      'compound key, joined like the embedded store',
      serverError({ code: 11000, keyPattern: { host: 1, jid: -1 } }),
      'host,jid',
    ],
    ['_id', serverError({ code: 11000, keyPattern: { _id: 1 }, keyValue: { _id: 'x' } }), '_id'],
    [
      'legacy message only (index name)',
      serverError({
        code: 11000,
        errmsg: 'E11000 duplicate key error collection: fleet.updates index: name_1 dup key: { name: "p" }',
      }),
      'name',
    ],
    [
      'legacy message, compound index with underscores and a descending key',
      serverError({
        code: 11000,
        errmsg: 'E11000 duplicate key error collection: fleet.a index: last_run_1__created_-1 dup key: { }',
      }),
      'last_run,_created',
    ],
    [
      'legacy message, the _id index',
      serverError({
        code: 11000,
        errmsg: 'E11000 duplicate key error collection: fleet.a index: _id_ dup key: { _id: "x" }',
      }),
      '_id',
    ],
    ['legacy code 11001', serverError({ code: 11001, keyPattern: { name: 1 } }), 'name'],
  ])('%s', (_name, error, field) => {
    const translated = translateMongoError(error);
    expect(translated).toBeInstanceOf(Conflict);
    expect(translated).toMatchObject({
      status: 409,
      field,
      message: `duplicate value for '${field}'`,
      issues: { [field]: `duplicate value for '${field}'` },
    });
  });

  test('a bulk write error (insertMany) is read from its first write error', () => {
    const bulk = Object.assign(new Error('E11000'), {
      name: 'MongoBulkWriteError',
      code: 11000,
      writeErrors: [
        { index: 1, err: { index: 1, code: 11000, keyPattern: { name: 1 }, keyValue: { name: 'n' } } },
      ],
    });
    expect(translateMongoError(bulk)).toMatchObject({ field: 'name' });
  });
});

describe('an unusable database becomes ServiceUnavailable', () => {
  test.each([
    [
      'server selection',
      driverError('MongoServerSelectionError', 'Server selection timed out after 500 ms', { reason: {} }),
    ],
    ['network', driverError('MongoNetworkError', 'connect ECONNREFUSED 127.0.0.1:27017')],
    ['network timeout', driverError('MongoNetworkTimeoutError', 'connection timed out')],
    ['topology closed', driverError('MongoTopologyClosedError', 'Topology is closed')],
    ['pool cleared', driverError('MongoPoolClearedError', 'Connection pool for db1:27017 was cleared')],
    [
      'write concern not satisfied',
      driverError('MongoWriteConcernError', 'waiting for replication timed out', { code: 64 }),
    ],
    [
      'Mongoose-wrapped selection error',
      driverError('MongooseServerSelectionError', 'connect ECONNREFUSED 127.0.0.1:1'),
    ],
    ['primary stepped down', serverError({ code: 189, errmsg: 'primary stepped down' })],
    ['not writable primary', serverError({ code: 10107, errmsg: 'not primary' })],
    ['shutting down', serverError({ code: 91, errmsg: 'shutdown in progress' })],
    ['authentication failed', serverError({ code: 18, errmsg: 'Authentication failed.' })],
  ])('%s', (_name, error) => {
    const translated = translateMongoError(error);
    expect(translated).toBeInstanceOf(ServiceUnavailable);
    expect(translated).toMatchObject({
      status: 503,
      message: expect.stringMatching(/^database unreachable: /),
    });
  });

  test('a connection string in a message loses its credentials', () => {
    const error = driverError(
      'MongoNetworkError',
      'failed to connect to mongodb://fleet:hunter2@db1:27017/fleet',
    );
    const translated = translateMongoError(error);
    expect(translated).toBeInstanceOf(ServiceUnavailable);
    expect((translated as Error).message).not.toContain('hunter2');
    // The client's message names no host; the log keeps the driver's reason, redacted, as the cause.
    expect((translated as Error).message).not.toContain('db1');
    expect((translated as Error).cause).toEqual({
      name: 'MongoNetworkError',
      message: 'failed to connect to mongodb://***@db1:27017/fleet',
    });
  });
});

describe('a query or update the server cannot parse is a BadRequest, as on the embedded store', () => {
  test.each([
    [
      'unknown operator (BadValue)',
      serverError({ code: 2, errmsg: 'unknown operator: $foo' }),
      /^invalid query or update: /,
    ],
    [
      'unknown update modifier (FailedToParse)',
      serverError({
        code: 9,
        errmsg:
          'Unknown modifier: $bogus. Expected a valid update modifier or pipeline-style update specified as an array',
      }),
      /^invalid query or update: /,
    ],
    [
      'changing _id (ImmutableField)',
      serverError({
        code: 66,
        errmsg: "Performing an update on the path '_id' would modify the immutable field '_id'",
      }),
      /^invalid query or update: /,
    ],
    [
      'mixed projection, naming projection',
      serverError({ code: 31254, errmsg: 'Cannot do exclusion on field status in inclusion projection' }),
      /^projection: /,
    ],
    [
      'projection path collision (4.4+, 31249), naming projection',
      serverError({ code: 31249, errmsg: 'Path collision at os.family remaining portion family' }),
      /^projection: two of its paths overlap/,
    ],
    [
      'projection path collision (31250), naming projection',
      serverError({ code: 31250, errmsg: 'Path collision at os' }),
      /^projection: two of its paths overlap/,
    ],
    [
      'bad regex, naming where',
      serverError({ code: 51091, errmsg: 'Regular expression is invalid: missing )' }),
      /^where: /,
    ],
  ])('%s', (_name, error, message) => {
    const translated = translateMongoError(error);
    expect(translated).toBeInstanceOf(BadRequest);
    expect(translated).toMatchObject({ status: 400, message: expect.stringMatching(message) });
  });
});

describe('limits of the server become our 413 and 503', () => {
  test.each([
    [
      'insert of a document over 16 MB (BadValue, jstests/core/max_doc_size.js)',
      serverError({
        code: 2,
        errmsg: 'object to insert too large. size in bytes: 17825826, max size: 16777216',
      }),
    ],
    [
      'a replacement over 16 MB (17420)',
      serverError({ code: 17420, errmsg: 'Replacement document is too large' }),
    ],
    [
      'an update that grows a document over 16 MB (17419)',
      serverError({ code: 17419, errmsg: 'Resulting document after update is larger than 16777216' }),
    ],
    ['the same on 8.x (8375908)', serverError({ code: 8375908, errmsg: 'Document too large' })],
    [
      'a command over the size (BSONObjectTooLarge)',
      serverError({ code: 10334, errmsg: 'BSONObj size: 17825826' }),
    ],
    [
      "the driver's own refusal in a bulk insert (bulk/ordered.ts)",
      driverError('MongoInvalidArgumentError', 'Document is larger than the maximum size 16777216'),
    ],
    [
      'inside a bulk write error',
      driverError('MongoBulkWriteError', 'bulk', {
        code: 2,
        writeErrors: [{ index: 0, code: 2, err: { code: 2, errmsg: 'object to insert too large' } }],
      }),
    ],
  ])('%s is a 413 saying what to do', (_name, error) => {
    expect(translateMongoError(error)).toMatchObject({ status: 413, message: TOO_LARGE_MESSAGE });
  });

  test('BadValue without "too large" stays a 400', () => {
    expect(translateMongoError(serverError({ code: 2, errmsg: '$in needs an array' }))).toMatchObject({
      status: 400,
    });
  });

  test.each([
    ['4.4+ (QueryExceededMemoryLimitNoDiskUseAllowed)', 292],
    ['before 4.4', 16819],
    ['before 4.4, the other path', 16820],
  ])('a sort over the memory limit, %s, is a 503 naming sort', (_name, code) => {
    const error = serverError({ code, errmsg: 'Sort exceeded memory limit of 104857600 bytes' });
    expect(translateMongoError(error)).toMatchObject({ status: 503, message: SORT_MEMORY_MESSAGE });
    expect(SORT_MEMORY_MESSAGE).toMatch(/^sort: /);
  });

  test.each([
    ['WriteConflict whose retries ran out', 112],
    ['NoSuchTransaction', 251],
    ['TransactionTooLarge', 257],
    ['TransactionExceededLifetimeLimitSeconds', 290],
  ])('%s is a 503 to retry', (_name, code) => {
    expect(translateMongoError(serverError({ code, errmsg: 'x' }))).toMatchObject({ status: 503 });
  });
});

describe('everything else passes through unchanged', () => {
  test.each([
    [
      'a server error of another kind',
      serverError({ code: 14, errmsg: 'Cannot apply $inc to a value of non-numeric type' }),
    ],
    ['an HttpError already', new NotFound()],
    ['a plain Error', new Error('boom')],
  ])('%s', (_name, error) => {
    expect(translateMongoError(error)).toBe(error);
  });

  test('non-objects too', () => {
    expect(translateMongoError('text')).toBe('text');
    expect(translateMongoError(undefined)).toBeUndefined();
  });
});
