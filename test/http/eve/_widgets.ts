/**
 * The throwaway resource of the Eve-parity tests: one field of every kind with every rule a
 * definition can state, a sub-document, a list of sub-documents, references (one checked, one list),
 * a server-set field, a field PATCH may not change, a `prepare` hook that refuses with a dotted key,
 * and a custom route with a declared Zod body. Served beside every real resource.
 */
import type { Response } from 'supertest';
import { defineResource, defineRoute, f, Unprocessable } from '../../../engine/src';
import { objectSchema } from '../../../engine/src/compile/zod';
import { allResources } from '../../../resources';
import { auth, startTestServer, uniqueName, type TestServer } from '../../helpers';

const fields = {
  name: f.string({ required: true, minLength: 1, maxLength: 10 }),
  kind: f.string({ enum: ['sensor', 'relay'], default: 'sensor' }),
  level: f.integer({ min: 1, max: 10 }),
  mode: f.integer({ enum: [1, 2, 4] }),
  ratio: f.number({ min: 0, max: 1 }),
  active: f.boolean(),
  seen: f.datetime({ nullable: true }),
  tags: f.array(f.string({ minLength: 1 }), { default: () => [] }),
  spec: f.object({ volts: f.integer({ min: 0 }), vendor: f.string({ maxLength: 5 }) }),
  parts: f.array(f.object({ sku: f.string({ required: true }), qty: f.integer({ min: 1 }) })),
  host: f.ref('hosts', { nullable: true }),
  peers: f.array(f.ref('eve_widgets', { onDelete: 'pull' }), { default: () => [] }),
  serial: f.string({ readonly: true }),
  batch: f.string(),
} as const;

/** The declared body of `POST /eve_widgets/:id/configure` (a Zod schema made from field declarations). */
const configureBody = objectSchema(
  {
    label: f.string({ required: true, minLength: 2 }),
    spec: f.object(
      { volts: f.number({ max: 48 }), mode: f.string({ enum: ['ac', 'dc'] }) },
      { required: true },
    ),
  },
  'create',
  false,
);

export const widgets = defineResource({
  name: 'eve_widgets',
  description: 'Throwaway resource of the Eve-parity tests.',
  fields,
  patchable: [
    'name',
    'kind',
    'level',
    'mode',
    'ratio',
    'active',
    'seen',
    'tags',
    'spec',
    'parts',
    'host',
    'peers',
  ],
  methods: {
    list: 'viewer',
    get: 'viewer',
    create: 'operator',
    patch: 'operator',
    replace: 'operator',
    delete: 'admin',
  },
  hooks: {
    // A hook refuses with a dotted key, as resources do (`info.regex`): the error nests it.
    prepare({ fields: given }) {
      if (given.spec?.vendor === 'nope')
        throw new Unprocessable('eve_widgets: unknown vendor', { 'spec.vendor': 'no such vendor' });
      return Promise.resolve(given);
    },
  },
  routes: [
    defineRoute<typeof fields, typeof configureBody>({
      method: 'post',
      path: '/:id/configure',
      role: 'operator',
      summary: 'A route with a declared body (its failures are _issues too)',
      body: configureBody,
      noContent: true,
      handler: () => Promise.resolve({ status: 204 }),
    }),
  ],
});

/** A server serving every real resource and `eve_widgets`. */
export function startEveServer(env: Readonly<Record<string, string>> = {}): Promise<TestServer> {
  return startTestServer({ definitions: [...allResources, widgets], env });
}

/** A valid widget body (unique name), with `overrides`. */
export function widget(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: uniqueName('w').slice(-10), ...overrides };
}

/** POSTs a widget as operator; returns its id and etag (fails the test unless 201). */
export async function createWidget(
  t: TestServer,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; etag: string }> {
  const res = await t.request.post('/api/eve_widgets').set(auth('operator')).send(widget(overrides));
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status: 201 });
  const body = res.body as { _id: string; _etag: string };
  return { id: body._id, etag: body._etag };
}

/** `_issues` of a 422 (asserting the status and the error envelope around it). */
export function issues(res: Response): Record<string, unknown> {
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({
    status: 422,
    body: { _status: 'ERR', _error: { code: 422 } },
  });
  return (res.body as { _issues: Record<string, unknown> })._issues;
}

/** How many widgets named `name` are stored. */
export function storedNamed(t: TestServer, name: unknown): Promise<number> {
  return t.store.count('eve_widgets', { name });
}
