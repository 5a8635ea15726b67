/**
 * No server: the pure plans of the mongo adapter's driver calls, case by case (the API-level table
 * is in driver-calls.test.ts).
 */
import { compileResource } from '../../engine/src/compile/compile';
import { defineResource } from '../../engine/src/definition/define';
import { f } from '../../engine/src/definition/fields';
import {
  isOperatorUpdate,
  planAcquire,
  planAggregate,
  planCount,
  planFind,
  planFindOneAndUpdate,
  planIndexes,
  planInsert,
  planProjection,
  planRenew,
  planSort,
  planUpdate,
  withUpsertId,
} from '../../engine/src/store/mongo';

const newId = (): string => 'aaaaaaaaaaaaaaaaaaaaaaaa';

describe('find', () => {
  test.each([
    ['no sort: by _id', undefined, [['_id', 1]]],
    ['empty sort: by _id', [], [['_id', 1]]],
    [
      'ties broken by _id ascending',
      [['cpu', -1]],
      [
        ['cpu', -1],
        ['_id', 1],
      ],
    ],
    [
      'an explicit _id key is kept where it is',
      [
        ['_id', -1],
        ['name', 1],
      ],
      [
        ['_id', -1],
        ['name', 1],
      ],
    ],
    [
      'integer-like keys keep their order (pairs, not an object)',
      [
        ['b', 1],
        ['10', 1],
      ],
      [
        ['b', 1],
        ['10', 1],
        ['_id', 1],
      ],
    ],
  ] as const)('sort: %s', (_label, sort, expected) => {
    expect(planSort(sort)).toEqual(expected);
  });

  test('the caller sort is not mutated', () => {
    const sort: [string, 1 | -1][] = [['cpu', 1]];
    planSort(sort);
    expect(sort).toEqual([['cpu', 1]]);
  });

  test.each([
    ['none', undefined, undefined],
    ['empty', {}, undefined],
    ['inclusive', { name: 1, 'os.family': 1 }, { name: 1, 'os.family': 1 }],
    ['exclusive', { grain: 0 }, { grain: 0 }],
    ['_id: 0 is dropped (the port always keeps _id)', { _id: 0, name: 1 }, { name: 1 }],
    ['only _id: 0 means no projection', { _id: 0 }, undefined],
  ] as const)('projection: %s', (_label, projection, expected) => {
    expect(planProjection(projection)).toEqual(expected);
  });

  test('the filter object is handed over as it is (same object)', () => {
    const filter = { status: 'up', _created: { $gte: new Date(0) } };
    expect(planFind('hosts', filter).filter).toBe(filter);
  });

  test('skip 0 is left out; limit is passed as given', () => {
    expect(planFind('hosts', {}, { skip: 0, limit: 25 }).options).toEqual({
      sort: [['_id', 1]],
      limit: 25,
      allowDiskUse: true,
    });
    expect(planFind('hosts', {}, { skip: 50, limit: 25 }).options).toEqual({
      sort: [['_id', 1]],
      skip: 50,
      limit: 25,
      allowDiskUse: true,
    });
  });

  test('a sort starting with the keys of a unique index gets no tie-breaker (it has no ties)', () => {
    const uniques = [
      [['name', 1]] as const,
      [
        ['owner', 1],
        ['seen', 1],
      ] as const,
    ];
    expect(planSort([['name', -1]], uniques)).toEqual([['name', -1]]);
    expect(
      planSort(
        [
          ['owner', 1],
          ['seen', -1],
          ['x', 1],
        ],
        uniques,
      ),
    ).toEqual([
      ['owner', 1],
      ['seen', -1],
      ['x', 1],
    ]);
    // Only a prefix of the unique keys: ties possible, so the tie-breaker stays.
    expect(planSort([['owner', 1]], uniques)).toEqual([
      ['owner', 1],
      ['_id', 1],
    ]);
    expect(
      planSort(
        [
          ['kind', 1],
          ['name', 1],
        ],
        uniques,
      ),
    ).toEqual([
      ['kind', 1],
      ['name', 1],
      ['_id', 1],
    ]);
  });

  test.each([
    ['a path and one inside it', { os: 1, 'os.family': 1 }, ['os', 'os.family']],
    ['excluded the same way', { 'grain.os': 0, grain: 0 }, ['grain', 'grain.os']],
    ['deeper', { a: 1, 'a.b.c': 1 }, ['a', 'a.b.c']],
  ] as const)('overlapping projected paths are a 400 naming projection: %s', (_label, projection, pair) => {
    expect(() => planProjection(projection)).toThrow(
      expect.objectContaining({
        status: 400,
        message: expect.stringMatching(new RegExp(`^projection: "${pair[0]}" and "${pair[1]}" overlap`)),
      }),
    );
  });

  test('paths that only share a prefix of their names do not overlap', () => {
    expect(planProjection({ os: 1, os_family: 1, 'osx.a': 1 })).toEqual({ os: 1, os_family: 1, 'osx.a': 1 });
  });
});

describe('count', () => {
  test('estimated for an empty filter, countDocuments otherwise', () => {
    expect(planCount('hosts', {})).toEqual({ collection: 'hosts', method: 'estimatedDocumentCount' });
    expect(planCount('hosts', { status: 'up' })).toEqual({
      collection: 'hosts',
      method: 'countDocuments',
      filter: { status: 'up' },
    });
  });
});

describe('update', () => {
  test.each([
    [{ $set: { a: 1 } }, true],
    [{ $inc: { n: 1 }, $push: { log: 'x' } }, true],
    [{ a: 1, b: { $set: 1 } }, false],
    [{}, false],
  ])('%j is an operator update: %s', (update, expected) => {
    expect(isOperatorUpdate(update)).toBe(expected);
  });

  test.each([
    ['operators, one', {}, 'updateOne'],
    ['operators, multi', { multi: true }, 'updateMany'],
  ] as const)('%s', (_label, options, method) => {
    expect(planUpdate('tasks', { a: 1 }, { $set: { b: 2 } }, { ...options, newId })).toEqual({
      collection: 'tasks',
      method,
      filter: { a: 1 },
      update: { $set: { b: 2 } },
      options: { upsert: false },
    });
  });

  test('a replacement document is replaceOne, even with multi', () => {
    expect(planUpdate('hosts', { _id: 'h1' }, { _id: 'h1', name: 'x' }, { multi: true, newId }).method).toBe(
      'replaceOne',
    );
  });

  test.each([
    [
      'no _id anywhere: a string id on insert',
      { name: 'p' },
      { $set: { t: 1 } },
      { $set: { t: 1 }, $setOnInsert: { _id: newId() } },
    ],
    [
      'merged into an existing $setOnInsert',
      { name: 'p' },
      { $setOnInsert: { c: 1 } },
      { $setOnInsert: { c: 1, _id: newId() } },
    ],
    ['the filter names _id: left to MongoDB', { _id: 'h8' }, { $set: { t: 1 } }, { $set: { t: 1 } }],
    [
      'the update sets _id: left alone',
      { name: 'p' },
      { $setOnInsert: { _id: 'mine' } },
      { $setOnInsert: { _id: 'mine' } },
    ],
    [
      'a replacement without _id gets one',
      { name: 'p' },
      { name: 'p', t: 1 },
      { name: 'p', t: 1, _id: newId() },
    ],
    ['a replacement with _id keeps it', { name: 'p' }, { _id: 'x', name: 'p' }, { _id: 'x', name: 'p' }],
  ])('upsert id: %s', (_label, filter, update, expected) => {
    expect(withUpsertId(filter, update, newId)).toEqual(expected);
    expect(planUpdate('updates', filter, update, { upsert: true, newId })).toMatchObject({
      update: expected,
      options: { upsert: true },
    });
  });

  test('no upsert, no id added', () => {
    expect(planUpdate('updates', { name: 'p' }, { $set: { t: 1 } }, { newId }).update).toEqual({
      $set: { t: 1 },
    });
  });
});

describe('findOneAndUpdate', () => {
  test('defaults: after-image, no sort, no upsert, plain document result', () => {
    expect(
      planFindOneAndUpdate('jobs', { status: 'queued' }, { $set: { status: 'running' } }, { newId }),
    ).toEqual({
      collection: 'jobs',
      method: 'findOneAndUpdate',
      filter: { status: 'queued' },
      update: { $set: { status: 'running' } },
      options: { upsert: false, returnDocument: 'after', includeResultMetadata: false },
    });
  });

  test('before-image, sort with tie-breaker, upsert with a string id, replacement', () => {
    expect(
      planFindOneAndUpdate(
        'jobs',
        { status: 'x' },
        { n: 1 },
        { sort: [['n', 1]], upsert: true, returnDocument: 'before', newId },
      ),
    ).toEqual({
      collection: 'jobs',
      method: 'findOneAndReplace',
      filter: { status: 'x' },
      update: { n: 1, _id: newId() },
      options: {
        sort: [
          ['n', 1],
          ['_id', 1],
        ],
        upsert: true,
        returnDocument: 'before',
        includeResultMetadata: false,
      },
    });
  });
});

describe('aggregate, insert, indexes', () => {
  test('the pipeline is copied, not changed, and may use disk', () => {
    const pipeline = [{ $match: { a: 1 } }, { $group: { _id: '$b', n: { $sum: 1 } } }];
    const plan = planAggregate('hosts', pipeline);
    expect(plan).toEqual({ collection: 'hosts', pipeline, options: { allowDiskUse: true } });
    expect(plan.pipeline).not.toBe(pipeline);
    expect(plan.pipeline[0]).toBe(pipeline[0]);
  });

  test('inserts are ordered', () => {
    expect(planInsert('hosts', [{ _id: 'a' }])).toEqual({
      collection: 'hosts',
      docs: [{ _id: 'a' }],
      options: { ordered: true },
    });
  });

  test('indexes from a compiled resource: declared ones, then unique fields', () => {
    const res = compileResource(
      defineResource({
        name: 'updates',
        description: 'patches',
        fields: { name: f.string({ unique: true }), host: f.string(), when: f.datetime() },
        methods: {},
        indexes: [
          {
            fields: [
              ['host', 1],
              ['when', -1],
            ],
          },
        ],
      }),
    );
    // Non-unique indexes end with the tie-breaker the planned sorts end with; unique ones keep their keys.
    expect(planIndexes(res.collection)).toEqual([
      { key: { host: 1, when: -1, _id: 1 } },
      { key: { name: 1 }, unique: true },
    ]);
  });
});

describe('leases', () => {
  const now = new Date('2026-11-25T21:00:00Z');

  test('acquire: free, expired or ours, else the upsert collides on _id', () => {
    expect(planAcquire('scheduler', 'api-1', 30_000, now)).toEqual({
      filter: { _id: 'scheduler', $or: [{ expires_at: { $lte: now } }, { holder: 'api-1' }] },
      update: { $set: { holder: 'api-1', expires_at: new Date('2026-11-25T21:00:30Z') } },
      options: { upsert: true, returnDocument: 'after', includeResultMetadata: false },
    });
  });

  test('renew: still ours (even past expiry when nobody took it), never inserted', () => {
    expect(planRenew('scheduler', 'api-1', 60_000, now)).toEqual({
      filter: { _id: 'scheduler', holder: 'api-1' },
      update: { $set: { expires_at: new Date('2026-11-25T21:01:00Z') } },
      options: { upsert: false, returnDocument: 'after', includeResultMetadata: false },
    });
  });
});
