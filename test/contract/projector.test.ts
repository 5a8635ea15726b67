/**
 * The compiled projection of the embedded store (engine/src/query/projection.ts) follows MongoDB's
 * rules for dotted paths, which the MongoDB store gets from the server: arrays entered element by
 * element, an inclusion keeping only the objects and arrays on its paths, an exclusion leaving the
 * rest as it is, an outer path covering an inner one; the document given is never changed. Over
 * HTTP, dotted inclusions in a list and dotted exclusions on an item go through it (a list's
 * exclusion inside a field lists leave out is a 400: test/http/query.test.ts).
 */
import type { Doc, Projection } from '../../engine/src';
import { projector } from '../../engine/src/query/projection';
import { auth, hostDoc, insertHost, startTestServer, type TestServer } from '../helpers';

const doc = (): Doc => ({
  _id: '1',
  a: [1, { b: 2, c: 3 }, [{ b: 4, c: 5 }, 6]],
  s: 5,
  o: { x: 1, y: { z: 2, w: 3 } },
  n: null,
  d: new Date(0),
  _etag: 'e',
});

describe('dotted paths, by MongoDB rules', () => {
  test.each([
    [{ 'a.b': 1 }, { _id: '1', a: [{ b: 2 }, [{ b: 4 }]] }],
    [
      { 'a.b': 1, 'a.c': 1 },
      { _id: '1', a: [{ b: 2, c: 3 }, [{ b: 4, c: 5 }]] },
    ],
    [{ 's.b': 1, 'n.b': 1, 'd.b': 1 }, { _id: '1' }],
    [{ 'o.q': 1 }, { _id: '1', o: {} }],
    [
      { 'o.y.z': 1, s: 1 },
      { _id: '1', o: { y: { z: 2 } }, s: 5 },
    ],
    [
      { o: 1, 'o.y.z': 1 },
      { _id: '1', o: { x: 1, y: { z: 2, w: 3 } } },
    ],
  ])('inclusion %j', (projection, expected) => {
    expect(projector(projection as Projection)(doc())).toEqual(expected);
  });

  test.each([
    [{ 'a.b': 0 }, { ...doc(), a: [1, { c: 3 }, [{ c: 5 }, 6]] }],
    [{ 's.b': 0, 'n.b': 0 }, doc()],
    [
      { 'o.y.z': 0, s: 0 },
      { ...(({ s: _s, ...rest }) => rest)(doc()), o: { x: 1, y: { w: 3 } } },
    ],
    [{ o: 0, 'o.y.z': 0 }, (({ o: _o, ...rest }) => rest)(doc())],
  ])('exclusion %j', (projection, expected) => {
    expect(projector(projection as Projection)(doc())).toEqual(expected);
  });

  test('the document given is left as it was, and one projection compiles once', () => {
    const given = doc();
    const projection = { 'o.y.z': 0, 'a.b': 0 } as const;
    projector(projection)(given);
    expect(given).toEqual(doc());
    expect(projector(projection)).toBe(projector(projection));
  });
});

describe('over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await insertHost(s.store, 'proj-1.fleet.test', {
      grain: { ...(hostDoc('x').grain as Record<string, unknown>), gpus: [{ model: 'g' }] },
    });
  });
  afterAll(() => s.close());

  test('a dotted inclusion in a list keeps only its paths', async () => {
    const list = await s.request
      .get('/api/hosts?projection={"grain.cpu_model":1,"grain.gpus.model":1}')
      .set(auth('viewer'));
    expect(list.status).toBe(200);
    const host = (list.body._items as { _id: string; grain?: unknown }[]).find(
      (h) => h._id === 'proj-1.fleet.test',
    );
    expect(host?.grain).toEqual({
      cpu_model: (hostDoc('x').grain as Record<string, unknown>).cpu_model,
      gpus: [{ model: 'g' }],
    });
  });

  test('a dotted exclusion on an item leaves the rest of the field as it is', async () => {
    const item = await s.request
      .get('/api/hosts/proj-1.fleet.test?projection={"grain.cpu_model":0,"grain.gpus.model":0}')
      .set(auth('viewer'));
    expect(item.status).toBe(200);
    expect(item.body.grain).not.toHaveProperty('cpu_model');
    expect(item.body.grain.gpus).toEqual([{}]);
    expect(item.body.grain.kernel).toBe('Linux');
  });
});
