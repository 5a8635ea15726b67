/**
 * Property-based (fast-check): generated `where`, `sort`, `projection`, paging, write bodies,
 * multipart parts, form keys and multipart field names (their depth, count and length), and the
 * admin-only inputs that are addresses (the resolver of settings and of request_ips, the VPN
 * managers' addresses), sent over HTTP as a viewer, an operator or an admin would. Whatever the
 * input: never a 5xx, every 4xx in the error shape (how long answers take under hostile input is
 * the bench's to measure: `hostile`, docs/limits.md). Bodies past
 * the body bounds are refused by them (400 naming `body`, or the upload's limit) and never reach
 * validation; an address is stored or used only when it is an http(s) URL naming a host.
 * A fixed seed and bounded runs keep it to a few seconds and reproducible.
 */
import fc from 'fast-check';
import { auth, insertHosts, startTestServer, type TestRole, type TestServer } from '../helpers';
import { multipartBody, rawError, rawPost, rawRequest } from './support';

const SEED = 20_808;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await insertHosts(s.store, 30, {
    prefix: 'prop',
    overrides: (i) => ({ grain: { osfullname: `Debian ${i}`, num_cpus: i } }),
  });
});
afterAll(() => s.close());

interface Answer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly text: string;
}

/** The property every answer keeps. */
function expectWellFormed(a: Answer, what: string): void {
  const where = `${what} -> ${a.status} ${a.text.slice(0, 300)}`;
  expect({ where, serverError: a.status >= 500 }).toEqual({ where, serverError: false });
  if (a.status < 400) return;
  expect({ where, type: a.contentType }).toEqual({
    where,
    type: expect.stringMatching(/^application\/json/),
  });
  const body = JSON.parse(a.text) as { _status?: unknown; _error?: { code?: unknown; message?: unknown } };
  expect({
    where,
    status: body._status,
    code: body._error?.code,
    message: typeof body._error?.message,
  }).toEqual({
    where,
    status: 'ERR',
    code: a.status,
    message: 'string',
  });
}

async function send(
  method: 'get' | 'post' | 'patch',
  path: string,
  role: TestRole,
  body?: string,
): Promise<Answer> {
  let req = s.request[method](path).set(auth(role));
  if (body !== undefined) req = req.set('Content-Type', 'application/json').send(body);
  const res = await req;
  return {
    status: res.status,
    contentType: res.headers['content-type'],
    text: res.text,
  };
}

/** Fields of hosts (declared, open sub-paths), then what must be refused: secrets, unknowns, JavaScript's machinery. */
const field = fc.constantFrom(
  '_id',
  'status',
  'grain.osfullname',
  'grain.num_cpus',
  'grain',
  'groups',
  'ip',
  'identification_number',
  '_created',
  '_updated',
  'vpn_organization',
);
const badField = fc.constantFrom(
  'vpnsrv_representation.otp_secret',
  'vpnsrv_representation.otp_secret.length',
  'nope',
  'a.b.c',
  '__proto__',
  'grain.constructor',
  'prototype',
  'toString',
  '',
);
const operator = fc.constantFrom(
  '$in',
  '$nin',
  '$all',
  '$regex',
  '$options',
  '$exists',
  '$gt',
  '$lte',
  '$ne',
  '$eq',
  '$size',
  '$type',
  '$mod',
  '$elemMatch',
  '$not',
);
const refused = fc.constantFrom(
  '$where',
  '$expr',
  '$function',
  '$text',
  '$jsonSchema',
  '$accumulator',
  '$unknown',
);
const key = fc.oneof(
  { weight: 6, arbitrary: field },
  { weight: 2, arbitrary: badField },
  { weight: 3, arbitrary: operator },
  { weight: 1, arbitrary: refused },
  { weight: 1, arbitrary: fc.constantFrom('$and', '$or', '$nor') },
);
const pattern = fc.constantFrom(
  '.*.*.*.*.*.*.*=',
  '(a+)+$',
  '^(a|aa)*$',
  '(a)\\1',
  'web(?=-1)',
  '[',
  '\\u0041',
  'a{0,999}b{0,999}',
  '^prop-0',
  '(?i)DEBIAN',
  '\\z',
  'x'.repeat(300),
);
const scalar = fc.oneof(
  fc.string({ maxLength: 12 }),
  pattern,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    'ims',
    'x',
    'Wed, 25 Nov 2026 21:08:02 GMT',
    '2026-11-25',
    'string',
    'object',
    'prop-00.fleet.test',
    'Debian 3',
  ),
);
const { json } = fc.letrec((tie) => ({
  json: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('list'), tie('doc')),
  list: fc.array(tie('json'), { maxLength: 4 }),
  doc: fc.dictionary(key, tie('json'), { maxKeys: 4 }),
}));
/** Filters shaped like real ones: declared fields, operators with plausible operands, logical lists. */
const condition = fc.oneof(
  scalar,
  fc.dictionary(operator, fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })), { minKeys: 1, maxKeys: 2 }),
);
const filter = fc.dictionary(field, condition, { maxKeys: 3 });
const plausible = fc.oneof(
  filter,
  filter.chain((f) => fc.constantFrom({ $or: [f, { status: 'up' }] }, { $and: [f] }, { $nor: [f] })),
);
/** Nested past the bound (kept short enough for a URL's 16 KB head), or just at it. */
const deep = (max: number) => fc.integer({ min: 1, max }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`);
const rawJson = (depth: number) =>
  fc.oneof(
    { weight: 4, arbitrary: plausible.map((v) => JSON.stringify(v)) },
    { weight: 3, arbitrary: json.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: deep(depth) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{',
        '[]',
        'null',
        '{"_id":{"$in":[[[[[[]]]]]]}}',
        `{"_id":{"$in":[${'1,'.repeat(1500)}1]}}`,
      ),
    },
  );

const resource = fc.oneof(
  { weight: 6, arbitrary: fc.constant('hosts') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'actions',
      'alerts',
      'groups',
      'tasks',
      'vpn_organizations',
      'hosts_statistic',
      'files',
    ),
  },
);
const hostile = (depth: number) =>
  fc.oneof(
    json.map((v) => JSON.stringify(v)),
    deep(depth),
    fc.string({ maxLength: 30 }),
  );
const sortTerm = fc
  .oneof(
    { weight: 5, arbitrary: field },
    { weight: 1, arbitrary: key },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  )
  .chain((k) => fc.constantFrom(k, `-${k}`));
const sort = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(field, { minLength: 1, maxLength: 3 })
      .chain((fs) => fc.constantFrom(fs.join(','), fs.map((f) => `-${f}`).join(','))),
  },
  {
    weight: 2,
    arbitrary: fc.array(sortTerm, { minLength: 1, maxLength: 4 }).map((terms) => terms.join(',')),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(field, fc.constantFrom(1, -1, 0, 2)), { maxLength: 4 })
      .map((terms) => `[${terms.map(([k, d]) => `("${k}", ${d})`).join(', ')}]`),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 30, max: 500 }).map((n) => Array.from({ length: n }, () => '_id').join(',')),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);
const projection = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .dictionary(field, fc.constantFrom(0, 1), { minKeys: 1, maxKeys: 3 })
      .map((p) => JSON.stringify(p)),
  },
  {
    weight: 1,
    arbitrary: fc
      .dictionary(key, fc.constantFrom(0, 1, 2, -1, 'x', true), { maxKeys: 4 })
      .map((p) => JSON.stringify(p)),
  },
  { weight: 1, arbitrary: hostile(60) },
);
const embedded = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('{"groups":1}', '{"vpn_organization":1}', '{"host":1}') },
  { weight: 1, arbitrary: hostile(60) },
);
const count = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 50 }).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: -5, max: 100_000 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('9007199254740993', '1e3', 'abc', '', '0x10') },
);
const where = fc.oneof(
  { weight: 6, arbitrary: plausible.map((v) => JSON.stringify(v)) },
  { weight: 3, arbitrary: rawJson(400) },
);
const listQuery = fc.record(
  { where, sort, projection, max_results: count, page: count, embedded },
  { requiredKeys: [] },
);

/** Write targets, each with items shaped like its own (fields it declares, values of any type). */
const maybe = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: json });
const targets: readonly [
  method: 'post' | 'patch',
  path: string,
  role: TestRole,
  item: fc.Arbitrary<Record<string, unknown>>,
][] = [
  [
    'post',
    '/api/alerts',
    'operator',
    fc.record(
      {
        type: maybe(fc.string({ minLength: 1, maxLength: 8 })),
        level: maybe(fc.constantFrom('info', 'warning')),
        payload: maybe(fc.dictionary(key, json, { maxKeys: 3 })),
        read: maybe(fc.boolean()),
      },
      { requiredKeys: ['type'] },
    ),
  ],
  [
    'post',
    '/api/groups',
    'admin',
    fc.record(
      {
        name: maybe(fc.string({ minLength: 1, maxLength: 8 })),
        type: maybe(fc.constantFrom(0, 1, 2)),
        info: maybe(fc.record({ regex: maybe(pattern), grain: json }, { requiredKeys: [] })),
      },
      { requiredKeys: ['name'] },
    ),
  ],
  [
    'post',
    '/api/tasks',
    'operator',
    fc.record(
      {
        name: maybe(fc.string({ minLength: 1, maxLength: 8 })),
        fun: maybe(fc.constant('test.ping')),
        start: maybe(fc.constantFrom('2030-01-01 00:00', 'Wed, 25 Nov 2026 21:08:02 GMT')),
        tgt: maybe(fc.array(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 2 })),
        kwarg: maybe(fc.dictionary(key, json, { maxKeys: 3 })),
        cron: maybe(fc.constantFrom('*/5 * * * *', 'nope')),
      },
      { requiredKeys: ['name', 'fun', 'start', 'tgt'] },
    ),
  ],
  [
    'patch',
    '/api/hosts/prop-00.fleet.test',
    'admin',
    fc.record(
      {
        identification_number: maybe(fc.string({ maxLength: 8 })),
        groups: maybe(fc.array(fc.string({ maxLength: 24 }), { maxLength: 2 })),
        status: json,
      },
      { requiredKeys: [] },
    ),
  ],
  [
    'post',
    '/api/vpn_managers',
    'admin',
    fc.record(
      {
        name: maybe(fc.string({ maxLength: 8 })),
        url: maybe(fc.constantFrom('https://vpn.test', 'nope')),
        password: maybe(fc.string({ maxLength: 8 })),
      },
      { requiredKeys: [] },
    ),
  ],
];
const write = fc
  .constantFrom(...targets)
  .chain(([method, path, role, item]) =>
    fc
      .oneof(
        { weight: 5, arbitrary: item.map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: fc.array(item, { maxLength: 3 }).map((v) => JSON.stringify(v)) },
        { weight: 2, arbitrary: rawJson(3000) },
      )
      .map((text) => ({ method, path, role, text })),
  );

describe('generated requests never answer 5xx, and every 4xx is in the error shape, within the budget', () => {
  test('GET lists with where / sort / projection / embedded / paging (viewer)', async () => {
    await fc.assert(
      fc.asyncProperty(resource, listQuery, async (res, query) => {
        const qs = new URLSearchParams(query as Record<string, string>).toString();
        expectWellFormed(await send('get', `/api/${res}?${qs}`, 'viewer'), `GET /api/${res}?${qs}`);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  test('POST and PATCH bodies (operator and admin)', async () => {
    await fc.assert(
      fc.asyncProperty(write, async ({ method, path, role, text }) => {
        expectWellFormed(await send(method, path, role, text), `${method} ${path} ${text.slice(0, 200)}`);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  test('multipart parts with any names, file names and content types (operator)', async () => {
    // Mostly printable, now and then a control byte (a NUL, a DEL, a CR) that busboy refuses.
    const header = fc.oneof(
      { weight: 4, arbitrary: fc.string({ maxLength: 16 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 16 }) },
    );
    const part = fc.record({
      name: fc.oneof(fc.constantFrom('name', 'data', '__proto__', 'constructor'), header),
      value: fc.string({ maxLength: 20 }),
      filename: fc.option(header, { nil: undefined }),
      contentType: fc.option(fc.oneof(header, fc.constantFrom('text/html', 'image/svg+xml', 'image/png')), {
        nil: undefined,
      }),
    });
    const file = fc.record({
      name: fc.constant('data'),
      value: fc.string({ maxLength: 20 }),
      filename: header,
      contentType: fc.option(fc.oneof(header, fc.constantFrom('text/html', 'image/png')), { nil: undefined }),
    });
    const parts = fc.oneof(
      fc.array(part, { maxLength: 4 }),
      fc.tuple(fc.array(part, { maxLength: 2 }), file).map(([rest, f]) => [...rest, f]),
    );
    await fc.assert(
      fc.asyncProperty(parts, async (list) => {
        const { body, contentType } = multipartBody(
          list.map((p) => ({
            name: p.name,
            value: p.value,
            ...(p.filename === undefined ? {} : { filename: p.filename }),
            ...(p.contentType === undefined ? {} : { contentType: p.contentType }),
          })),
        );
        const res = await rawRequest(
          s.url,
          rawPost('/api/files', { ...auth('operator'), 'Content-Type': contentType }, body),
        );
        expectWellFormed(
          {
            status: res.status,
            contentType: res.headers['content-type'],
            text: res.body,
          },
          `multipart ${JSON.stringify(list)}`,
        );
      }),
      { seed: SEED, numRuns: 120 },
    );
  });
});

/** The body bounds (docs/limits.md), restated here as the oracle of the properties below. */
const BOUND = { depth: 32, keys: 1000, keyLength: 256 };

/** Dotted names of every shape that matters: a few segments, thousands, long ones, odd segments. */
const segment = fc.constantFrom('a', 'payload', 'name', 'x1', '__proto__', 'constructor', '', 'tags', '0');
const dottedName = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.array(segment, { minLength: 1, maxLength: 40 }).map((parts) => parts.join('.')),
  },
  // Around the depth bound within the length bound (at most 124 segments fit 256 characters), and past both.
  { weight: 2, arbitrary: fc.integer({ min: 20, max: 124 }).map((n) => `payload${'.a'.repeat(n)}`) },
  { weight: 1, arbitrary: fc.integer({ min: 125, max: 6000 }).map((n) => `payload${'.a'.repeat(n)}`) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 3000 }).map((n) => 'k'.repeat(n)) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z._]{0,24}$/) },
);
/** Distinct names (a name given twice is a list, one level more), a few or about the most allowed. */
const names = fc.oneof(
  { weight: 4, arbitrary: fc.uniqueArray(dottedName, { maxLength: 8 }) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: BOUND.keys - 5, max: BOUND.keys + 5 })
      .map((n) => Array.from({ length: n }, (_, i) => `payload.k${i}`)),
  },
);

/** Whether fields of these names pass the body bounds: a dotted name nests a level per segment. */
function withinBounds(fieldNames: readonly string[]): boolean {
  return (
    fieldNames.length <= BOUND.keys &&
    fieldNames.every((n) => n.length <= BOUND.keyLength && n.split('.').length <= BOUND.depth)
  );
}

/**
 * The property of the bounds: fields past them never reach validation (a 400, or 413, and never a
 * 2xx or a 422: the refusal may name another fault of the body found first); fields within them
 * are never refused by them.
 */
function expectBoundsKept(
  what: string,
  fieldNames: readonly string[],
  status: number,
  refusedByBounds: boolean,
): void {
  if (withinBounds(fieldNames)) expect({ what, refusedByBounds }).toEqual({ what, refusedByBounds: false });
  else expect({ what, refused: status === 400 || status === 413 }).toEqual({ what, refused: true });
}

/** An answer of a raw request, for {@link expectWellFormed}. */
async function rawAnswer(request: Buffer): Promise<Answer> {
  const res = await rawRequest(s.url, request);
  return {
    status: res.status,
    contentType: res.headers['content-type'],
    text: Buffer.from(res.body, 'latin1').toString('utf8'),
  };
}

describe('form keys and multipart field names: past the bounds refused by them, within them judged by validation', () => {
  test('form keys of any depth, count and length (POST /api/alerts, operator)', async () => {
    await fc.assert(
      fc.asyncProperty(names, async (keys) => {
        const fields = ['type', ...keys.filter((k) => k !== 'type')];
        const text = fields
          .map((k) => `${encodeURIComponent(k)}=${k === 'type' ? 'prop-form' : '1'}`)
          .join('&');
        const res = await s.request.post('/api/alerts').set(auth('operator')).type('form').send(text);
        const answer = {
          status: res.status,
          contentType: res.headers['content-type'],
          text: res.text,
        };
        const what = `form of ${fields.length} keys, longest ${Math.max(...fields.map((k) => k.length))}`;
        expectWellFormed(answer, what);
        const refusedByBounds = res.status === 400 && /^body: /.test(String(res.body?._error?.message));
        expectBoundsKept(what, fields, res.status, refusedByBounds);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  test('multipart field names of any depth, count and length (POST /api/files, operator)', async () => {
    const file = { name: 'data', value: 'hello', filename: 'a.txt', contentType: 'text/plain' };
    await fc.assert(
      fc.asyncProperty(names, async (fieldNames) => {
        const text = fieldNames.filter((n) => n !== 'data');
        const { body, contentType } = multipartBody([...text.map((name) => ({ name, value: 'x' })), file]);
        const answer = await rawAnswer(
          rawPost('/api/files', { ...auth('operator'), 'Content-Type': contentType }, body),
        );
        const what = `multipart of ${text.length} text parts, longest name ${Math.max(0, ...text.map((n) => n.length))}`;
        expectWellFormed(answer, what);
        const message =
          answer.status === 400
            ? rawError({ status: 400, headers: {}, body: answer.text, text: '' }).message
            : '';
        const refusedByBounds =
          /^(body: |Upload refused: (a part name is longer|the body has more than \d+ text parts))/.test(
            message,
          );
        expectBoundsKept(what, text, answer.status, refusedByBounds);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });
});

/** Addresses an admin may type: URLs of every scheme, credentials, link-local and private hosts, junk. */
const address = fc.oneof(
  { weight: 3, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/plain,x',
      'gopher://169.254.169.254/',
      'ftp://resolver.test/ip',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://user:secret@resolver.test/ip',
      'https://:pw@resolver.test/',
      'http://',
      'http:///ip',
      'https://resolver.test/ip?token=x',
      'HTTP://RESOLVER.TEST/IP',
      'http://10.0.0.1:8080/ip',
      'http://résolveur.test/ip',
      ' http://resolver.test/ip ',
      'http://resolver.test/a b',
      'http://resolver.test/\u0000',
      '//resolver.test/ip',
      'resolver.test',
      '',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 2000, max: 70_000 }).map((n) => `https://resolver.test/${'a'.repeat(n)}`),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
);

/** The resolver rule restated: an http(s) URL naming a host, without credentials, at most 2,048 characters. */
function usableResolver(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.hostname !== '' &&
      url.username === '' &&
      url.password === ''
    );
  } catch {
    return false;
  }
}

/** The link-local rule restated on the parsed host: 169.254/16, fe80::/10, their mapped forms, two metadata hosts. */
function isLinkLocal(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return (
    /^169\.254\./.test(host) ||
    /^fe[89ab][0-9a-f]?:/i.test(host) ||
    /^::ffff:a9fe:/i.test(host) ||
    host === 'fd00:ec2::254' ||
    host === '100.100.100.200'
  );
}

describe('admin-only inputs that are addresses', () => {
  test('settings: a resolver address is stored only when usable (or empty), in either form of the body', async () => {
    const form = fc.constantFrom('flat', 'nested');
    await fc.assert(
      fc.asyncProperty(address, form, async (value, shape) => {
        const body =
          shape === 'flat' ? { resolver_address: value } : { addresses: { resolver_address: value } };
        const text = JSON.stringify(body);
        const answer = await send('patch', '/api/settings/0', 'admin', text);
        const what = `PATCH settings ${text.slice(0, 120)}`;
        expectWellFormed(answer, what);
        const [stored] = await s.store.find('settings', { _id: '0' });
        const kept = (stored?.addresses as { resolver_address?: unknown } | undefined)?.resolver_address;
        const resolver = typeof kept === 'string' ? kept : '';
        expect({ what, storedUsable: resolver === '' || usableResolver(resolver) }).toEqual({
          what,
          storedUsable: true,
        });
        if (answer.status < 300)
          expect({ what, usable: value === '' || usableResolver(value) }).toEqual({ what, usable: true });
      }),
      { seed: SEED, numRuns: 80 },
    );
  });

  test('request_ips: an ip_resolver that is not usable is refused (4xx) before anything starts', async () => {
    await fc.assert(
      fc.asyncProperty(address, async (value) => {
        const text = JSON.stringify({ action: 'request_ips', ip_resolver: value });
        const answer = await send('post', '/api/graph', 'admin', text);
        const what = `POST graph ${text.slice(0, 120)}`;
        // No master here: a usable resolver gets as far as the master (503), never further.
        if (answer.status !== 503) expectWellFormed(answer, what);
        const refused = answer.status >= 400 && answer.status < 500;
        expect({ what, refused }).toEqual({ what, refused: !usableResolver(value) });
      }),
      { seed: SEED, numRuns: 80 },
    );
  });

  test('VPN managers: any address in POST and PATCH answers well-formed', async () => {
    await fc.assert(
      fc.asyncProperty(address, address, fc.boolean(), async (dashboard, server, patch) => {
        const name = `prop-vpn-${Math.random().toString(36).slice(2, 10)}`;
        const created = await send(
          'post',
          '/api/vpn_managers',
          'admin',
          JSON.stringify({
            name,
            server_address: server,
            dashboard_address: dashboard,
            username: 'u',
            password: 'p',
          }),
        );
        const what = `POST vpn_managers ${dashboard.slice(0, 80)} ${server.slice(0, 80)}`;
        expectWellFormed(created, what);
        // Stored only when the service may send the login there: usable, and no link-local host.
        const callable = usableResolver(dashboard) && !isLinkLocal(new URL(dashboard).hostname);
        expect({ what, stored: created.status === 201 }).toEqual({
          what,
          stored: callable && server.length > 0 && server.length <= 2048,
        });
        if (!patch || created.status !== 201) return;
        const id = (JSON.parse(created.text) as { _id: string })._id;
        const patched = await send(
          'patch',
          `/api/vpn_managers/${id}`,
          'admin',
          JSON.stringify({ dashboard_address: server }),
        );
        expectWellFormed(patched, `PATCH vpn_managers ${server.slice(0, 80)}`);
      }),
      { seed: SEED, numRuns: 40 },
    );
  });
});
