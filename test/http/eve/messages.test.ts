/**
 * Validation messages: each field says what is wrong, in our words and in
 * Cerberus' wording where Eve has one (`cerberus/errors.py` BasicErrorHandler, as Eve 2.3.1 uses it
 * §4.8). A wrong type is never "required field"; no library text reaches a client. The same table
 * answers POST, PATCH, PUT and the declared body of a custom route.
 */
import { auth, type TestServer } from '../../helpers';
import { createWidget, issues, startEveServer, storedNamed, widget } from './_widgets';

let t: TestServer;
beforeAll(async () => {
  t = await startEveServer();
});
afterAll(() => t.close());

const operator = auth('operator');
const DATE = 'must be a date: RFC 1123 or ISO 8601 (YYYY-MM-DD HH:MM is UTC)';
/** Zod's own wording, which must never reach a client. */
const LIBRARY_TEXT = /Invalid input|expected .*, received|Too (small|big)|Invalid option|Unrecognized key/;

describe('POST: one message per kind of failure', () => {
  it.each([
    ['a number for a string', { name: 5 }, 'name', 'must be of string type'],
    ['a missing required field', { name: undefined }, 'name', 'required field'],
    ['null for a field that is not nullable', { name: null }, 'name', 'null value not allowed'],
    ['an empty string under minLength 1', { name: '' }, 'name', 'min length is 1'],
    ['a string over maxLength', { name: 'x'.repeat(11) }, 'name', 'max length is 10'],
    ['a string out of its enum', { kind: 'valve' }, 'kind', 'unallowed value "valve"'],
    ['a number for a string enum', { kind: 5 }, 'kind', 'must be of string type'],
    ['a numeric string for an integer', { level: '5' }, 'level', 'must be of integer type'],
    ['a fraction for an integer', { level: 1.5 }, 'level', 'must be of integer type'],
    ['an integer under its min', { level: 0 }, 'level', 'min value is 1'],
    ['an integer over its max', { level: 11 }, 'level', 'max value is 10'],
    ['an integer out of its enum', { mode: 3 }, 'mode', 'unallowed value 3'],
    ['a string for an integer enum', { mode: 'one' }, 'mode', 'must be of integer type'],
    ['a string for a number', { ratio: 'half' }, 'ratio', 'must be of number type'],
    ['a number over its max', { ratio: 2 }, 'ratio', 'max value is 1'],
    ['a string for a boolean', { active: 'yes' }, 'active', 'must be of boolean type'],
    ['a text that is no date', { seen: 'yesterday' }, 'seen', DATE],
    ['a number for a datetime', { seen: 1700000000 }, 'seen', 'must be of datetime type'],
    ['a string for an array', { tags: 'lab' }, 'tags', 'must be of array type'],
    ['a string for an object', { spec: 'big' }, 'spec', 'must be of object type'],
    ['an empty string for a reference', { host: '' }, 'host', 'min length is 1'],
    ['a server-set field', { serial: 'SN-1' }, 'serial', 'field is read-only'],
    ['a meta field', { _updated: 'Wed, 25 Nov 2026 21:08:02 GMT' }, '_updated', 'field is read-only'],
    ['an unknown field', { colour: 'red' }, 'colour', 'unknown field'],
  ])('%s', async (_case, overrides, field, message) => {
    const sent = widget(overrides);
    const res = await t.request.post('/api/eve_widgets').set(operator).send(sent);
    const got = issues(res);
    expect(got[field]).toBe(message);
    expect(res.text).not.toMatch(LIBRARY_TEXT);
    expect(await storedNamed(t, sent.name ?? null)).toBe(0);
  });

  it('names every bad field of a body at once', async () => {
    const res = await t.request
      .post('/api/eve_widgets')
      .set(operator)
      .send({ level: '3', kind: 'valve', colour: 1 });
    expect(issues(res)).toEqual({
      name: 'required field',
      level: 'must be of integer type',
      kind: 'unallowed value "valve"',
      colour: 'unknown field',
    });
  });

  it('quotes a refused enum value briefly: a long input is cut, never echoed whole', async () => {
    const res = await t.request
      .post('/api/eve_widgets')
      .set(operator)
      .send(widget({ kind: 'v'.repeat(500) }));
    const message = String(issues(res).kind);
    expect(message.startsWith('unallowed value "vvv')).toBe(true);
    expect(message.length).toBeLessThan(60);
  });
});

describe("the issue's requests on the real resources", () => {
  const admin = auth('admin');
  it.each([
    ['groups', { name: 5 }, { name: 'must be of string type' }],
    ['groups', { name: 'g', type: 'x' }, { type: 'must be of integer type' }],
    ['groups', { name: 'g', type: 9 }, { type: 'unallowed value 9' }],
    ['groups', { name: '' }, { name: 'min length is 1' }],
    [
      'tasks',
      { name: 't', fun: 'test.ping', start: '2030-01-01 00:00', tgt: 'notalist' },
      { tgt: 'must be of array type' },
    ],
    [
      'tasks',
      { name: 't', fun: 'test.ping', start: '2030-01-01 00:00', tgt: ['web'], interval: '180' },
      { interval: 'must be of integer type' },
    ],
    [
      'tasks',
      { name: 't', fun: 'test.ping', start: '2030-01-01 00:00', tgt: ['web'], salt_client: 'ssh' },
      { salt_client: 'unallowed value "ssh"' },
    ],
  ])('POST /api/%s %j', async (resource, body, expected) => {
    expect(issues(await t.request.post(`/api/${resource}`).set(admin).send(body))).toEqual(expected);
  });
});

describe('PATCH and PUT use the same table', () => {
  it('PATCH: a wrong type, an enum, a bound; required fields are not required', async () => {
    const { id } = await createWidget(t);
    const res = await t.request
      .patch(`/api/eve_widgets/${id}`)
      .set(operator)
      .send({ level: '7', kind: 'valve', ratio: -1 });
    expect(issues(res)).toEqual({
      level: 'must be of integer type',
      kind: 'unallowed value "valve"',
      ratio: 'min value is 0',
    });
  });

  it('PATCH: a field PATCH may not change, and a server-set one', async () => {
    const { id } = await createWidget(t, { batch: 'b-1' });
    const res = await t.request
      .patch(`/api/eve_widgets/${id}`)
      .set(operator)
      .send({ batch: 'b-2', serial: 'SN-2' });
    expect(issues(res)).toEqual({ batch: 'field cannot be changed by PATCH', serial: 'field is read-only' });
  });

  it('PUT: required fields are required again', async () => {
    const { id } = await createWidget(t);
    const res = await t.request.put(`/api/eve_widgets/${id}`).set(operator).send({ level: 'high' });
    expect(issues(res)).toEqual({ name: 'required field', level: 'must be of integer type' });
  });
});

describe('a custom route with a declared body', () => {
  it('answers its validation failures with the same messages', async () => {
    const { id } = await createWidget(t);
    const res = await t.request
      .post(`/api/eve_widgets/${id}/configure`)
      .set(operator)
      .send({ label: 5, spec: { volts: 'high', mode: 'x' }, extra: true });
    expect(issues(res)).toEqual({
      label: 'must be of string type',
      spec: { volts: 'must be of number type', mode: 'unallowed value "x"' },
      extra: 'unknown field',
    });
    expect(res.text).not.toMatch(LIBRARY_TEXT);
  });

  it('a missing body is every required field', async () => {
    const { id } = await createWidget(t);
    expect(issues(await t.request.post(`/api/eve_widgets/${id}/configure`).set(operator).send({}))).toEqual({
      label: 'required field',
      spec: 'required field',
    });
  });

  it('a valid body reaches the handler', async () => {
    const { id } = await createWidget(t);
    expect(
      (
        await t.request
          .post(`/api/eve_widgets/${id}/configure`)
          .set(operator)
          .send({ label: 'ok', spec: { volts: 12, mode: 'dc' } })
      ).status,
    ).toBe(204);
  });
});
