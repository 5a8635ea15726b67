/**
 * `application/x-www-form-urlencoded` writes, as Eve's `payload()` accepts
 * them: every value arrives as text and is converted to its field's declared type where that is
 * unambiguous (integer, number, boolean "1"/"true"/"0"/"false", JSON for objects and lists), the
 * same conversion multipart text parts get; what cannot be converted stays text, so validation
 * names the field's type. A field given twice is a list.
 */
import { auth, expectEveError, insertHost, uniqueName, type TestServer } from '../../helpers';
import { createWidget, issues, startEveServer } from './_widgets';

let t: TestServer;
beforeAll(async () => {
  t = await startEveServer();
});
afterAll(() => t.close());

const operator = auth('operator');

async function read(id: string): Promise<Record<string, unknown>> {
  const res = await t.request.get(`/api/eve_widgets/${id}`).set(auth('viewer'));
  expect(res.status).toBe(200);
  return res.body as Record<string, unknown>;
}

describe('POST', () => {
  it('creates from a form, each value as its field’s type', async () => {
    const name = uniqueName('f').slice(-10);
    const res = await t.request.post('/api/eve_widgets').set(operator).type('form').send({
      name,
      level: '5',
      ratio: '0.25',
      active: 'TRUE',
      mode: '4',
      seen: '2026-03-04 05:06',
      tags: '["a","b"]',
      spec: '{"volts": 12, "vendor": "acme"}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/api/eve_widgets/${String((res.body as { _id: string })._id)}`);
    expect(await read((res.body as { _id: string })._id)).toMatchObject({
      name,
      level: 5,
      ratio: 0.25,
      active: true,
      mode: 4,
      seen: 'Wed, 04 Mar 2026 05:06:00 GMT',
      tags: ['a', 'b'],
      spec: { volts: 12, vendor: 'acme' },
    });
  });

  it('a field given twice is a list', async () => {
    const res = await t.request
      .post('/api/eve_widgets')
      .set(operator)
      .type('form')
      .send('name=twice&tags=lab&tags=rack-4');
    expect(res.status).toBe(201);
    expect((await read((res.body as { _id: string })._id)).tags).toEqual(['lab', 'rack-4']);
  });

  it('a dotted key names a sub-field, converted to its type (Eve normalises dotted fields)', async () => {
    const res = await t.request
      .post('/api/eve_widgets')
      .set(operator)
      .type('form')
      .send('name=dotted&spec.volts=12&spec.vendor=acme');
    expect(res.status).toBe(201);
    expect((await read((res.body as { _id: string })._id)).spec).toEqual({ volts: 12, vendor: 'acme' });
  });

  it('what does not convert stays text and is refused by type, with the usual messages', async () => {
    const res = await t.request
      .post('/api/eve_widgets')
      .set(operator)
      .type('form')
      .send({ name: 'n', level: 'high', active: 'maybe', ratio: '', spec: '{not json' });
    expect(issues(res)).toEqual({
      level: 'must be of integer type',
      active: 'must be of boolean type',
      ratio: 'must be of number type',
      spec: 'must be of object type',
    });
  });

  it('a form without the required fields names them', async () => {
    expect(
      issues(await t.request.post('/api/eve_widgets').set(operator).type('form').send('level=3')),
    ).toEqual({ name: 'required field' });
  });

  it('every key is kept as sent: __proto__, constructor and bracket names are unknown fields, never dropped', async () => {
    const res = await t.request
      .post('/api/eve_widgets')
      .set(operator)
      .type('form')
      .send('name=keys&__proto__=1&constructor=2&tags[]=a');
    expect(JSON.parse(res.text)).toMatchObject({
      _issues: JSON.parse(
        '{"__proto__": "unknown field", "constructor": "unknown field", "tags[]": "unknown field"}',
      ) as unknown,
    });
    expect(await t.store.count('eve_widgets', { name: 'keys' })).toBe(0);
  });

  it('more than 1,000 fields is a 400, as a JSON object of more than 1,000 keys is', async () => {
    const body = Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&');
    const err = expectEveError(
      await t.request.post('/api/eve_widgets').set(operator).type('form').send(body),
      400,
    );
    expect(err._error.message).toBe('body: the form has more than 1000 fields');
  });

  it('a JSON value nested too deep is a 400, as a JSON body is', async () => {
    const deep = `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`;
    const err = expectEveError(
      await t.request.post('/api/eve_widgets').set(operator).type('form').send({ name: 'deep', spec: deep }),
      400,
    );
    expect(err._error.message).toBe('body: nested deeper than 32 levels');
  });

  it('on a real resource: a group from a form (type converted to its integer)', async () => {
    const name = uniqueName('gf');
    const res = await t.request
      .post('/api/groups')
      .set(auth('admin'))
      .type('form')
      .send({ name, type: '1', info: '{"regex": "^web"}' });
    expect(res.status).toBe(201);
    const group = await t.request
      .get(`/api/groups/${String((res.body as { _id: string })._id)}`)
      .set(auth('viewer'));
    expect(group.body).toMatchObject({ name, type: 1, info: { regex: '^web' } });
  });
});

describe('PATCH and PUT', () => {
  it('PATCH from a form changes the given fields, converted', async () => {
    const { id } = await createWidget(t, { level: 2, active: false });
    const res = await t.request
      .patch(`/api/eve_widgets/${id}`)
      .set(operator)
      .type('form')
      .send({ level: '9', active: '1' });
    expect(res.status).toBe(200);
    expect(await read(id)).toMatchObject({ level: 9, active: true });
  });

  it('PUT from a form replaces the item', async () => {
    const { id } = await createWidget(t, { level: 2, ratio: 0.5 });
    const res = await t.request
      .put(`/api/eve_widgets/${id}`)
      .set(operator)
      .type('form')
      .send({ name: 'replaced', level: '3' });
    expect(res.status).toBe(200);
    const item = await read(id);
    expect(item).toMatchObject({ name: 'replaced', level: 3 });
    expect(item).not.toHaveProperty('ratio');
  });

  it('on a real resource: a host PATCH from a form', async () => {
    const id = (await insertHost(t.store, `${uniqueName('hf')}.fleet.test`))._id;
    const res = await t.request
      .patch(`/api/hosts/${id}`)
      .set(auth('admin'))
      .type('form')
      .send({ identification_number: 'INV-42' });
    expect(res.status).toBe(200);
    expect((await t.request.get(`/api/hosts/${id}`).set(auth('viewer'))).body).toMatchObject({
      identification_number: 'INV-42',
    });
  });

  it('other body types are still a 415 naming what is accepted', async () => {
    const { id } = await createWidget(t);
    const err = expectEveError(
      await t.request.patch(`/api/eve_widgets/${id}`).set(operator).type('text/plain').send('level=3'),
      415,
    );
    expect(err._error.message).toBe('Send the body as application/json or application/x-www-form-urlencoded');
  });
});
