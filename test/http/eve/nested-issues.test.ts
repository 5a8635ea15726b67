/**
 * `_issues` nested like the document, as Eve's are: `{"spec": {"volts": "..."}}`
 * for a sub-field, list items keyed by their index as strings (`{"tags": {"1": "..."}}`,
 * eve/methods/common.py). Whoever builds the issues (the validator, a `prepare` hook throwing a
 * dotted key, the reference check naming `addresses.file`), the error nests them, on POST, PATCH,
 * PUT and custom route bodies.
 */
import { auth, type TestServer } from '../../helpers';
import { createWidget, issues, startEveServer, widget } from './_widgets';

let t: TestServer;
beforeAll(async () => {
  t = await startEveServer();
});
afterAll(() => t.close());

const operator = auth('operator');

describe('sub-documents', () => {
  it('POST: sub-field failures sit under their sub-document, unknown sub-keys too', async () => {
    const res = await t.request
      .post('/api/eve_widgets')
      .set(operator)
      .send(widget({ spec: { volts: -1, vendor: 'toolongname', hue: 'red' } }));
    expect(issues(res)).toEqual({
      spec: { volts: 'min value is 0', vendor: 'max length is 5', hue: 'unknown field' },
    });
  });

  it('PATCH: the same nesting (a PATCH of a sub-document is validated part by part)', async () => {
    const { id } = await createWidget(t, { spec: { volts: 12, vendor: 'acme' } });
    expect(
      issues(
        await t.request
          .patch(`/api/eve_widgets/${id}`)
          .set(operator)
          .send({ spec: { volts: 'twelve' } }),
      ),
    ).toEqual({ spec: { volts: 'must be of integer type' } });
  });

  it('PUT: the same nesting', async () => {
    const { id } = await createWidget(t);
    expect(
      issues(
        await t.request
          .put(`/api/eve_widgets/${id}`)
          .set(operator)
          .send(widget({ spec: { vendor: 7 } })),
      ),
    ).toEqual({ spec: { vendor: 'must be of string type' } });
  });

  it('a hook that refuses with a dotted key ("spec.vendor") is nested too', async () => {
    expect(
      issues(
        await t.request
          .post('/api/eve_widgets')
          .set(operator)
          .send(widget({ spec: { vendor: 'nope' } })),
      ),
    ).toEqual({ spec: { vendor: 'no such vendor' } });
  });

  it('a real resource: a group rule refused by its hook is {"info": {"regex": ...}}', async () => {
    const res = await t.request
      .post('/api/groups')
      .set(auth('admin'))
      .send({ name: 'rule', type: 1, info: { regex: '(a+)+$' } });
    const got = issues(res);
    expect(Object.keys(got)).toEqual(['info']);
    expect(got.info).toEqual({ regex: expect.stringMatching(/nested quantifier/) });
  });

  it('a real resource: the reference check of settings.addresses.file is {"addresses": {"file": ...}}', async () => {
    const res = await t.request
      .patch('/api/settings/0')
      .set(auth('admin'))
      .send({ addresses: { file: 'ffffffffffffffffffffffff' } });
    expect(issues(res)).toEqual({ addresses: { file: 'unknown files id(s): ffffffffffffffffffffffff' } });
  });
});

describe('dotted keys in a body', () => {
  it('are sub-documents, as Eve normalises them: accepted on POST, merged on PATCH', async () => {
    const { id } = await createWidget(t, { 'spec.volts': 12, 'spec.vendor': 'acme' });
    expect(
      (await t.request.patch(`/api/eve_widgets/${id}`).set(operator).send({ 'spec.volts': 24 })).status,
    ).toBe(200);
    const item = await t.request.get(`/api/eve_widgets/${id}`).set(auth('viewer'));
    expect((item.body as { spec: unknown }).spec).toEqual({ volts: 24, vendor: 'acme' });
  });

  it('a bad value under a dotted key is named where it belongs', async () => {
    expect(
      issues(
        await t.request
          .post('/api/eve_widgets')
          .set(operator)
          .send(widget({ 'spec.volts': 'high', 'spec.hue': 1 })),
      ),
    ).toEqual({
      spec: { volts: 'must be of integer type', hue: 'unknown field' },
    });
  });

  it('only at the top level: below it dotted keys are data (a rule group’s grain keys)', async () => {
    const res = await t.request
      .post('/api/groups')
      .set(auth('admin'))
      .send({ name: 'dots', type: 1, info: { grain: { 'tool.channel': 'beta' } } });
    expect(res.status).toBe(201);
    const group = await t.request
      .get(`/api/groups/${String((res.body as { _id: string })._id)}`)
      .set(auth('viewer'));
    expect((group.body as { info: unknown }).info).toEqual({ grain: { 'tool.channel': 'beta' } });
  });
});

describe('lists', () => {
  it('list items are keyed by their index, as strings', async () => {
    const res = await t.request
      .post('/api/eve_widgets')
      .set(operator)
      .send(widget({ tags: ['ok', '', 3] }));
    expect(issues(res)).toEqual({ tags: { '1': 'min length is 1', '2': 'must be of string type' } });
  });

  it('sub-documents in a list nest under their index', async () => {
    const res = await t.request
      .post('/api/eve_widgets')
      .set(operator)
      .send(widget({ parts: [{ sku: 'a', qty: 1 }, { qty: 0 }] }));
    expect(issues(res)).toEqual({ parts: { '1': { sku: 'required field', qty: 'min value is 1' } } });
  });

  it('a tasks tgt with an empty host name: {"tgt": {"0": ...}}', async () => {
    const res = await t.request
      .post('/api/tasks')
      .set(operator)
      .send({ name: 't', fun: 'test.ping', start: '2030-01-01 00:00', tgt: [''] });
    expect(issues(res)).toEqual({ tgt: { '0': 'min length is 1' } });
  });
});

describe('field names that are object keys of JavaScript', () => {
  it('an unknown "__proto__" is reported like any other key and pollutes nothing', async () => {
    const res = await t.request
      .post('/api/eve_widgets')
      .set(operator)
      .set('Content-Type', 'application/json')
      .send('{"name": "p", "__proto__": {"polluted": 1}, "spec": {"__proto__": 1}}');
    expect(JSON.parse(res.text)).toMatchObject({
      _issues: JSON.parse(
        '{"__proto__": "unknown field", "spec": {"__proto__": "unknown field"}}',
      ) as unknown,
    });
    expect(Object.keys(issues(res)).sort()).toEqual(['__proto__', 'spec']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('"constructor", "toString" and "valueOf" are unknown fields, not silently dropped', async () => {
    const res = await t.request
      .post('/api/eve_widgets')
      .set(operator)
      .send({ name: 'p', constructor: 1, toString: 2, valueOf: 3 });
    expect(issues(res)).toEqual({
      constructor: 'unknown field',
      toString: 'unknown field',
      valueOf: 'unknown field',
    });
  });
});
