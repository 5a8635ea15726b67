/**
 * No server: every query the mongo adapter sends carries `maxTimeMS`, a query stopped by it is a
 * 503 of ours, and the server's own text never becomes a client's message.
 */
import { BadRequest, ServiceUnavailable } from '../../engine/src/errors';
import {
  MongoStore,
  serverInfoOf,
  TIME_LIMIT_MESSAGE,
  translateMongoError,
  type DbSource,
} from '../../engine/src/store/mongo';

/** A driver `Db` whose every collection method records its options and rejects with `error`. */
function failingDb(error: Error): { source: DbSource; options: unknown[] } {
  const options: unknown[] = [];
  const method = (...args: unknown[]) => {
    options.push(args[args.length - 1]);
    const rejection = Promise.reject(error);
    // `find` and `aggregate` return cursors; the others return promises.
    return Object.assign(rejection, { toArray: () => rejection });
  };
  const collection = () => new Proxy({}, { get: (_t, key: string) => (key === 'then' ? undefined : method) });
  const db = { collection } as unknown as Awaited<ReturnType<DbSource['db']>>;
  const server = serverInfoOf({ maxWireVersion: 21 });
  return {
    source: { db: async () => db, server: async () => server, close: async () => undefined },
    options,
  };
}

const serverError = (code: number, errmsg: string): Error =>
  Object.assign(new Error(errmsg), {
    name: 'MongoServerError',
    code,
    errmsg,
    errorResponse: { ok: 0, code, errmsg },
  });

describe('maxTimeMS', () => {
  const expired = serverError(50, 'operation exceeded time limit: {"secret_field": "x"}');

  test.each([
    ['find', (s: MongoStore) => s.find('hosts', { name: { $regex: 'a.*b.*c' } })],
    ['count', (s: MongoStore) => s.count('hosts', { name: 'x' })],
    ['aggregate', (s: MongoStore) => s.aggregate('hosts', [{ $match: {} }])],
    ['update', (s: MongoStore) => s.update('hosts', { name: 'x' }, { $set: { a: 1 } })],
    ['findOneAndUpdate', (s: MongoStore) => s.findOneAndUpdate('hosts', { name: 'x' }, { $set: { a: 1 } })],
    ['delete', (s: MongoStore) => s.delete('hosts', { name: 'x' })],
  ])('%s sends the configured maxTimeMS and turns its expiry into our 503', async (_name, call) => {
    const { source, options } = failingDb(expired);
    const rejection = call(new MongoStore(source, { maxTimeMS: 1234 }));
    await expect(rejection).rejects.toBeInstanceOf(ServiceUnavailable);
    await expect(rejection).rejects.toMatchObject({ status: 503, message: TIME_LIMIT_MESSAGE });
    expect(options).toEqual([expect.objectContaining({ maxTimeMS: 1234 })]);
  });

  test('the client-side time-out of the driver is the same 503', () => {
    const error = Object.assign(new Error('Timed out after 5000ms'), { name: 'MongoOperationTimeoutError' });
    expect(translateMongoError(error)).toMatchObject({ status: 503, message: TIME_LIMIT_MESSAGE });
  });
});

describe('server text stays out of client messages', () => {
  test.each([
    [2, 'unknown operator: $foo in {"password": "hunter2"}'],
    [9, "Unknown modifier: $bogus for field 'password'"],
    [51091, 'Regular expression is invalid: missing ) near hunter2'],
  ])('code %d is a 400 in our words', (code, errmsg) => {
    const translated = translateMongoError(serverError(code, errmsg));
    expect(translated).toBeInstanceOf(BadRequest);
    expect((translated as Error).message).toMatch(/^(invalid query or update|where): /);
    expect((translated as Error).message).not.toContain('hunter2');
    expect((translated as Error).message).not.toContain(errmsg);
  });
});
