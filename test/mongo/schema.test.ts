/**
 * No server: the Mongoose schemas compiled from definitions. Paths, Mongoose types, required,
 * defaults, references, secrets `select: false`, unique and declared indexes, schema options.
 */
import { compileResource } from '../../engine/src/compile/compile';
import { defineResource } from '../../engine/src/definition/define';
import { f } from '../../engine/src/definition/fields';
import { compileMongooseSchema, planIndexes, schemaIndexPlans } from '../../engine/src/store/mongo';
import { allResources } from '../../resources';

type Schema = ReturnType<typeof compileMongooseSchema>;

/** Reads a property of an object the Mongoose typings do not describe (or describe loosely). */
function prop(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** What a test needs to know about one schema path. */
function describePath(schema: Schema, path: string) {
  const type: unknown = schema.path(path);
  if (type === undefined) return undefined;
  const element = prop(type, 'embeddedSchemaType');
  return {
    instance: prop(type, 'instance'),
    element: prop(element, 'instance'),
    required: prop(type, 'isRequired') === true,
    select: prop(type, 'options', 'select'),
    unique: prop(type, 'options', 'unique'),
    ref: prop(type, 'options', 'ref') ?? prop(element, 'options', 'ref'),
    default: prop(type, 'options', 'default'),
    enum: prop(type, 'options', 'enum'),
  };
}

const widgets = compileResource(
  defineResource({
    name: 'widgets',
    description: 'every field kind, for the schema compiler',
    fields: {
      name: f.string({ required: true, unique: true, minLength: 1, maxLength: 64 }),
      kind: f.string({ enum: ['a', 'b'], default: 'a' }),
      count: f.integer({ min: 0, max: 10, default: 0 }),
      ratio: f.number({ required: true, nullable: true }),
      enabled: f.boolean({ default: true }),
      seen: f.datetime(),
      owner: f.ref('users', { required: true }),
      tags: f.array(f.string(), { default: () => ['new'] }),
      members: f.array(f.ref('hosts')),
      addresses: f.object(
        { master: f.string({ required: true }), resolver: f.string() },
        { default: () => ({ master: 'salt' }) },
      ),
      grain: f.object({}, { open: true, hiddenInList: true }),
      meta: f.object({ version: f.string() }, { open: true }),
      steps: f.array(f.object({ cmd: f.string(), ok: f.boolean() })),
      password: f.string({ secret: true }),
      vpn: f.object({ otp_secret: f.string({ secret: true }), user: f.string() }),
      data: f.media(),
      hosts: f.array(f.string(), { writeOnly: true }),
    },
    methods: { list: 'viewer' },
    softDelete: { field: '_deleted', param: 'show_deleted' },
    indexes: [
      {
        fields: [
          ['kind', 1],
          ['_created', -1],
        ],
      },
      {
        fields: [
          ['owner', 1],
          ['seen', 1],
        ],
        unique: true,
      },
    ],
  }),
);

const naturals = compileResource(
  defineResource({
    name: 'nodes',
    description: 'natural ids',
    id: 'natural',
    fields: { label: f.string() },
    methods: {},
  }),
);

describe('compileMongooseSchema on a synthetic definition', () => {
  const schema = compileMongooseSchema(widgets);

  test('schema options: collection = resource name, no version key, strict throw, explicit indexes', () => {
    expect(schema.get('collection')).toBe('widgets');
    expect(schema.get('versionKey')).toBe(false);
    expect(schema.get('strict')).toBe('throw');
    expect(schema.get('minimize')).toBe(false);
    expect(schema.get('autoIndex')).toBe(false);
    expect(schema.get('autoCreate')).toBe(false);
  });

  test('top-level paths: meta fields, the soft-delete flag, stored fields; write-only ones left out', () => {
    expect(Object.keys(schema.paths).sort()).toEqual(
      [
        '_id',
        '_created',
        '_updated',
        '_etag',
        '_deleted',
        'name',
        'kind',
        'count',
        'ratio',
        'enabled',
        'seen',
        'owner',
        'tags',
        'members',
        'addresses',
        'grain',
        'meta',
        'steps',
        'password',
        'vpn',
        'data',
      ].sort(),
    );
    expect(schema.path('hosts')).toBeUndefined();
  });

  test.each([
    ['_id', { instance: 'String', required: true }],
    ['_created', { instance: 'Date' }],
    ['_updated', { instance: 'Date' }],
    ['_etag', { instance: 'String' }],
    ['_deleted', { instance: 'Boolean' }],
    ['name', { instance: 'String', required: true, unique: true }],
    ['kind', { instance: 'String', default: 'a', enum: ['a', 'b'] }],
    ['count', { instance: 'Number', default: 0 }],
    ['ratio', { instance: 'Number', required: false }],
    ['enabled', { instance: 'Boolean', default: true }],
    ['seen', { instance: 'Date' }],
    ['owner', { instance: 'String', required: true, ref: 'users' }],
    ['tags', { instance: 'Array', element: 'String' }],
    ['members', { instance: 'Array', element: 'String', ref: 'hosts' }],
    ['addresses', { instance: 'Embedded' }],
    ['addresses.master', { instance: 'String', required: true }],
    ['addresses.resolver', { instance: 'String', required: false }],
    ['grain', { instance: 'Mixed' }],
    ['meta', { instance: 'Embedded' }],
    ['meta.version', { instance: 'String' }],
    ['steps', { instance: 'Array', element: 'DocumentArrayElement' }],
    ['steps.cmd', { instance: 'String' }],
    ['steps.ok', { instance: 'Boolean' }],
    ['password', { instance: 'String', select: false }],
    ['vpn', { instance: 'Embedded', select: undefined }],
    ['vpn.otp_secret', { instance: 'String', select: false }],
    ['vpn.user', { instance: 'String', select: undefined }],
    ['data', { instance: 'String' }],
  ])('%s', (path, expected) => {
    expect(describePath(schema, path)).toMatchObject(expected);
  });

  test('ids are strings: generated as 24-hex ObjectId strings, or none for natural ids', () => {
    const generate = describePath(schema, '_id')?.default;
    expect(typeof generate).toBe('function');
    const id: unknown = (generate as () => unknown)();
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(describePath(compileMongooseSchema(naturals), '_id')).toMatchObject({
      instance: 'String',
      default: undefined,
    });
  });

  test('object and array defaults are functions returning fresh values', () => {
    const tags = describePath(schema, 'tags')?.default as () => unknown[];
    expect(tags()).toEqual(['new']);
    expect(tags()).not.toBe(tags());
    expect((describePath(schema, 'addresses')?.default as () => unknown)()).toEqual({ master: 'salt' });
  });

  test('integers carry an integer validator that lets null through', () => {
    const validators = prop(schema.path('count'), 'validators');
    const entry = (Array.isArray(validators) ? validators : []).find(
      (v: unknown) => prop(v, 'message') === '{PATH} must be an integer',
    );
    const integer = prop(entry, 'validator') as ((v: unknown) => boolean) | undefined;
    expect(integer).toBeDefined();
    expect([2, 0, -3, null].map((v) => integer?.(v))).toEqual([true, true, true, true]);
    expect([1.5, Number.NaN].map((v) => integer?.(v))).toEqual([false, false]);
    expect(prop(schema.path('count'), 'options', 'min')).toBe(0);
    expect(prop(schema.path('count'), 'options', 'max')).toBe(10);
  });

  test('closed sub-documents throw on undeclared keys, open ones keep them; no _id on sub-documents', () => {
    expect(prop(schema.path('addresses'), 'schema', 'options', 'strict')).toBe('throw');
    expect(prop(schema.path('meta'), 'schema', 'options', 'strict')).toBe(false);
    expect(prop(schema.path('addresses'), 'schema', 'options', '_id')).toBe(false);
    expect(prop(schema.path('steps'), 'schema', 'options', '_id')).toBe(false);
  });

  test('indexes: unique fields, declared compound indexes (non-unique ones led by the soft-delete flag and ending with the _id tie-breaker), nothing else', () => {
    expect(schema.indexes().map(([keys, options]) => [keys, options.unique === true])).toEqual([
      [{ name: 1 }, true],
      [{ _deleted: 1, _id: 1 }, false],
      [{ _deleted: 1, kind: 1, _created: -1, _id: 1 }, false],
      [{ owner: 1, seen: 1 }, true],
    ]);
  });

  test("the schema's indexes are exactly the ones the adapter creates from the collection spec", () => {
    expect(sortPlans(schemaIndexPlans(schema))).toEqual(sortPlans(planIndexes(widgets.collection)));
  });
});

function sortPlans<T>(plans: T[]): string[] {
  return plans.map((p) => JSON.stringify(p)).sort();
}

const real = allResources.map((def) => compileResource(def));

describe('compileMongooseSchema on every real resource', () => {
  test.each(real.map((res) => [res.name, res] as const))('%s', (name, res) => {
    const schema = compileMongooseSchema(res);
    expect(schema.get('collection')).toBe(name);
    for (const field of res.storedFields) expect(schema.path(field)).toBeDefined();
    for (const field of res.writeOnlyFields) expect(schema.path(field)).toBeUndefined();
    for (const path of res.secretPaths) expect(describePath(schema, path)?.select).toBe(false);
    for (const relation of res.relations) expect(describePath(schema, relation.field)?.ref).toBe(relation.to);
    expect(describePath(schema, '_id')).toMatchObject({ instance: 'String', required: true });
    if (res.softDelete)
      expect(describePath(schema, res.softDelete.field)).toMatchObject({ instance: 'Boolean' });
    expect(sortPlans(schemaIndexPlans(schema))).toEqual(sortPlans(planIndexes(res.collection)));
  });

  /** The secondary indexes the queries rely on, by collection (each may declare more). */
  test.each([
    // hosts are read scoped by their soft-delete flag, which leads each of their indexes.
    ['hosts', { _soft_deleted: 1, status: 1, _updated: -1, _id: 1 }],
    ['actions', { host: 1, _created: -1, _id: 1 }],
    ['failed_patches', { host: 1, _created: -1, _id: 1 }],
    ['alerts', { read: 1, _created: -1, _id: 1 }],
    ['hosts_statistic', { timestamp: 1, _id: 1 }],
    ['tasks', { status: 1, next: 1, _id: 1 }],
  ])('%s has the index %j', (name, keys) => {
    const res = real.find((r) => r.name === name);
    expect(res).toBeDefined();
    const indexes = res
      ? compileMongooseSchema(res)
          .indexes()
          .map(([k]) => k)
      : [];
    expect(indexes).toContainEqual(keys);
  });

  test('secrets are select: false where the definitions declare them', () => {
    const secretsOf = (name: string) => real.find((r) => r.name === name)?.secretPaths ?? [];
    expect(secretsOf('vpn_managers')).toContain('password');
    expect(secretsOf('hosts')).toContain('vpnsrv_representation.otp_secret');
    for (const res of real) {
      const schema = compileMongooseSchema(res);
      for (const path of res.secretPaths)
        expect([res.name, path, describePath(schema, path)?.select]).toEqual([res.name, path, false]);
    }
  });
});
