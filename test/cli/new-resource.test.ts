/**
 * `fleet new-resource widgets` into a copy of the resources directory (`--dir`): the definition
 * file is written and registered with one line in registry.ts; both type-check
 * under the project's compiler options; the definition loads and is served beside every real
 * resource with no other edit: CRUD, 422 (rules, its hook, its relation, a server-set field),
 * 401/403 by role, its custom route (the system principal writing a server-set field), its delete
 * rule, its OpenAPI paths, and a sample made from its definition alone, as the generic tests make
 * one (test/http/resources/every-resource.test.ts). The author's guide shows the file as written.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import type { AnyResourceDefinition } from '../../engine/src';
import { allResources } from '../../resources';
import { newResourceCommand, registerIn } from '../../packages/server/src/cli/new-resource';
import { defaultDescription, resourceSource } from '../../packages/server/src/cli/resource-template';
import { ConfigError } from '../../packages/server/src/config';
import { auth, createSample, expectEveError, startTestServer, uniqueName, type TestServer } from '../helpers';

const ROOT = resolve(__dirname, '..', '..');
/** `widgets`, or another free name once `fleet new-resource widgets` has been run in this repository. */
const NAME = allResources.some((r) => r.name === 'widgets') ? `widgets_${process.pid}` : 'widgets';
const work = join(ROOT, 'test', '.tmp', `new-resource-${process.pid}`);
const dir = join(work, 'resources');

/** Compiler errors of `files`, with the project's options, in a program rooted at the copy's index.ts. */
function typeErrors(files: readonly string[]): string[] {
  const base = ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(base.config, ts.sys, ROOT);
  const program = ts.createProgram([join(dir, 'index.ts')], { ...options, noEmit: true, types: ['node'] });
  return files.flatMap((file) => {
    const source = program.getSourceFile(file);
    if (!source) return [`${file}: not part of the program`];
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
      (d) => `${file}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
  });
}

let output = '';
let t: TestServer;
beforeAll(async () => {
  mkdirSync(work, { recursive: true });
  cpSync(join(ROOT, 'resources'), dir, { recursive: true, filter: (src) => !src.includes('node_modules') });
  // The copy resolves @fleet/engine, zod... through the real directory's links.
  symlinkSync(join(ROOT, 'resources', 'node_modules'), join(dir, 'node_modules'));
  output = (await newResourceCommand([NAME, '--dir', dir])).stdout;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const generated = (require(join(dir, `${NAME}.ts`)) as Record<string, AnyResourceDefinition>)[NAME];
  if (!generated) throw new Error(`${NAME}.ts exports no ${NAME}`);
  t = await startTestServer({ definitions: [...allResources, generated] });
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('fleet new-resource', () => {
  it('writes the definition and registers it with one line in registry.ts, which allResources serves', async () => {
    expect(output).toContain(
      `Wrote ${relative(process.cwd(), join(dir, `${NAME}.ts`))} and registered it in ${relative(process.cwd(), join(dir, 'registry.ts'))}.`,
    );
    expect(output).toContain(`GET/POST /api/${NAME}, GET/PATCH/DELETE /api/${NAME}/{id}`);
    const registry = readFileSync(join(dir, 'registry.ts'), 'utf8');
    const original = readFileSync(join(ROOT, 'resources', 'registry.ts'), 'utf8');
    const added = registry.split('\n').filter((line) => !original.split('\n').includes(line));
    expect(added).toEqual([`export { ${NAME} } from './${NAME}';`]);
    expect(readFileSync(join(dir, 'index.ts'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'resources', 'index.ts'), 'utf8'),
    );
    // The copy's index serves the new resource with every real one.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const copy = require(join(dir, 'index.ts')) as { allResources: readonly AnyResourceDefinition[] };
    expect(copy.allResources.map((r) => r.name)).toEqual([...allResources.map((r) => r.name), NAME].sort());
  });

  it('registers in alphabetical order, or last when the list is not sorted', () => {
    const registry = "/** doc */\nexport { alerts } from './alerts';\nexport { zebras } from './zebras';\n";
    expect(registerIn(registry, 'widgets')).toBe(
      "/** doc */\nexport { alerts } from './alerts';\nexport { widgets } from './widgets';\nexport { zebras } from './zebras';\n",
    );
    expect(registerIn("export { alerts } from './alerts';\n", 'zz')).toBe(
      "export { alerts } from './alerts';\nexport { zz } from './zz';\n",
    );
  });

  it("is the worked example of the author's guide, as written there", () => {
    expect(readFileSync(join(dir, `${NAME}.ts`), 'utf8')).toBe(
      resourceSource(NAME, defaultDescription(NAME)),
    );
    expect(readFileSync(join(ROOT, 'docs', 'authoring.md'), 'utf8')).toContain(
      `\`\`\`ts\n// resources/widgets.ts\n${resourceSource('widgets', defaultDescription('widgets'))}\`\`\``,
    );
  });

  it('type-checks as written, with the index that imports it', () => {
    expect(typeErrors([join(dir, `${NAME}.ts`), join(dir, 'index.ts')])).toEqual([]);
  }, 30_000);

  it('refuses a name that is taken, reserved or not a collection name, and writes nothing then', async () => {
    const registry = readFileSync(join(dir, 'registry.ts'), 'utf8');
    for (const [argv, message] of [
      [[NAME, '--dir', dir], 'exists'],
      [['hosts', '--dir', dir], 'a resource named "hosts" exists'],
      [['graph', '--dir', dir], '/api/graph is a route group'],
      [['media', '--dir', dir], 'reserved'],
      [['delete', '--dir', dir], 'reserved'],
      [['Widgets', '--dir', dir], 'lower case letters'],
      [['gizmos', '--dir', join(work, 'nowhere')], 'does not exist'],
    ] as const) {
      const attempt = newResourceCommand(argv);
      await expect(attempt).rejects.toBeInstanceOf(ConfigError);
      await expect(attempt).rejects.toThrow(message);
    }
    expect(readFileSync(join(dir, 'registry.ts'), 'utf8')).toBe(registry);
    for (const name of ['media', 'delete', 'Widgets'])
      expect(existsSync(join(dir, `${name}.ts`))).toBe(false);
  });
});

describe('the generated resource, served', () => {
  let group = '';
  beforeAll(async () => {
    group = String(
      (
        await t.request
          .post('/api/groups')
          .set(auth('admin'))
          .send({ name: uniqueName('racks') })
      ).body._id,
    );
  });

  it('is created, read with its defaults and links, changed and deleted, by role', async () => {
    const created = await t.request
      .post(`/api/${NAME}`)
      .set(auth('operator'))
      .send({ title: 'rack 4', group, starts: '2030-01-01 02:00', tags: ['a'] });
    expect(created.status).toBe(201);
    const id = String(created.body._id);
    const item = await t.request.get(`/api/${NAME}/${id}`).set(auth('viewer'));
    expect(item.body).toMatchObject({
      title: 'rack 4',
      state: 'planned',
      priority: 5,
      group,
      starts: 'Tue, 01 Jan 2030 02:00:00 GMT',
      ends: null,
      tags: ['a'],
      closed_by: null,
      _links: { related: { group: { title: 'Group', href: `groups/${group}` } } },
    });
    const page = await t.request.get(`/api/${NAME}?where={"state":"planned"}`).set(auth('viewer'));
    expect(page.body._meta.total).toBeGreaterThanOrEqual(1);
    const patched = await t.request
      .patch(`/api/${NAME}/${id}`)
      .set(auth('operator'))
      .set('If-Match', String(item.body._etag))
      .send({ state: 'active' });
    expect(patched.status).toBe(200);
    expectEveError(await t.request.post(`/api/${NAME}`).set(auth('viewer')).send({ title: 'x' }), 403);
    expectEveError(await t.request.delete(`/api/${NAME}/${id}`).set(auth('operator')), 403);
    expectEveError(await t.request.get(`/api/${NAME}`), 401);
    expect((await t.request.delete(`/api/${NAME}/${id}`).set(auth('admin'))).status).toBe(204);
    expectEveError(await t.request.get(`/api/${NAME}/${id}`).set(auth('viewer')), 404);
  });

  it('answers 422 naming the field: rules, its hook, its relation, a server-set field', async () => {
    const post = (body: Record<string, unknown>) =>
      t.request.post(`/api/${NAME}`).set(auth('operator')).send(body);
    expectEveError(await post({ state: 'active' }), 422, { issues: ['title'] });
    expectEveError(await post({ title: 'x', state: 'lost' }), 422, { issues: ['state'] });
    expectEveError(await post({ title: 'x', priority: 11 }), 422, { issues: ['priority'] });
    expectEveError(await post({ title: 'x', starts: '2030-01-02', ends: '2030-01-01' }), 422, {
      issues: ['ends'],
    });
    expectEveError(await post({ title: 'x', group: 'ffffffffffffffffffffffff' }), 422, { issues: ['group'] });
    expectEveError(await post({ title: 'x', closed_by: 'me' }), 422, { issues: ['closed_by'] });
  });

  it('closes an item through its custom route, the system principal writing the server-set field', async () => {
    const id = String(
      (await t.request.post(`/api/${NAME}`).set(auth('operator')).send({ title: 'to close' })).body._id,
    );
    expectEveError(await t.request.post(`/api/${NAME}/${id}/close`).set(auth('viewer')), 403);
    const closed = await t.request.post(`/api/${NAME}/${id}/close`).set(auth('operator'));
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ _id: id, _status: 'OK' });
    expect((await t.request.get(`/api/${NAME}/${id}`).set(auth('viewer'))).body).toMatchObject({
      state: 'done',
      closed_by: 'operator',
    });
    expectEveError(
      await t.request.post(`/api/${NAME}/ffffffffffffffffffffffff/close`).set(auth('operator')),
      404,
    );
  });

  it('lets its group be deleted, setting the reference to null', async () => {
    const g = String(
      (
        await t.request
          .post('/api/groups')
          .set(auth('admin'))
          .send({ name: uniqueName('gone') })
      ).body._id,
    );
    const id = String(
      (await t.request.post(`/api/${NAME}`).set(auth('operator')).send({ title: 'w', group: g })).body._id,
    );
    expect((await t.request.delete(`/api/groups/${g}`).set(auth('admin'))).status).toBe(204);
    expect((await t.request.get(`/api/${NAME}/${id}`).set(auth('viewer'))).body.group).toBeNull();
  });

  it('is in the OpenAPI document, and the generic tests can sample it from its definition', async () => {
    const doc = (await t.request.get('/api/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    // Whatever else the document says of them, the operations are there.
    expect(doc.paths[`/api/${NAME}`]).toEqual(
      expect.objectContaining({ get: expect.anything(), post: expect.anything() }),
    );
    expect(doc.paths[`/api/${NAME}/{id}`]).toEqual(
      expect.objectContaining({
        get: expect.anything(),
        patch: expect.anything(),
        delete: expect.anything(),
      }),
    );
    expect(doc.paths[`/api/${NAME}/{id}`]).not.toHaveProperty('put');
    expect(doc.paths[`/api/${NAME}/{id}/close`]).toEqual(
      expect.objectContaining({ post: expect.anything() }),
    );
    const sample = await createSample(t.engine, NAME);
    expect((await t.request.get(`/api/${NAME}/${sample.id}`).set(auth('viewer'))).status).toBe(200);
  });
});
