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
import { translateMongoError } from '../../engine/src/store/mongo';

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
    ['unknown operator (BadValue)', serverError({ code: 2, errmsg: 'unknown operator: $foo' })],
    [
      'unknown update modifier (FailedToParse)',
      serverError({
        code: 9,
        errmsg:
          'Unknown modifier: $bogus. Expected a valid update modifier or pipeline-style update specified as an array',
      }),
    ],
    [
      'changing _id (ImmutableField)',
      serverError({
        code: 66,
        errmsg: "Performing an update on the path '_id' would modify the immutable field '_id'",
      }),
    ],
    [
      'mixed projection',
      serverError({ code: 31254, errmsg: 'Cannot do exclusion on field status in inclusion projection' }),
    ],
    ['bad regex', serverError({ code: 51091, errmsg: 'Regular expression is invalid: missing )' })],
  ])('%s', (_name, error) => {
    const translated = translateMongoError(error);
    expect(translated).toBeInstanceOf(BadRequest);
    expect(translated).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^invalid query or update: /),
    });
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
