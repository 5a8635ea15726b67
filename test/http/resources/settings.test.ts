/**
 * settings through HTTP: the one item `"0"` exists from the first start (its master address from
 * SALT_MASTER_NAME), and PATCH merges nested objects.
 */
import { auth, expectEnvelope, expectEveError, startTestServer, type TestServer } from '../../helpers';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer({ env: { SALT_MASTER_NAME: 'salt-master.fleet.test' } });
});
afterEach(() => t.close());

interface Settings {
  _id: string;
  addresses: { resolver_address: string; master_address: string; file: string | null };
  _etag: string;
  _links: Record<string, unknown>;
}

const getSettings = async () => {
  const res = await t.request.get('/api/settings/0').set(auth('viewer'));
  expect(res.status).toBe(200);
  return res.body as Settings;
};

describe('the settings item', () => {
  it('exists at first start as the only item, with _id "0" and the configured master', async () => {
    const page = expectEnvelope(await t.request.get('/api/settings').set(auth('viewer')), {
      page: 1,
      maxResults: 25,
      total: 1,
    });
    expect(page._items[0]).toMatchObject({
      _id: '0',
      addresses: { resolver_address: '', master_address: 'salt-master.fleet.test', file: null },
    });
    const item = await getSettings();
    expect(item._links).toEqual({
      self: { title: 'Setting', href: 'settings/0' },
      parent: { title: 'home', href: '/' },
      collection: { title: 'settings', href: 'settings' },
    });
  });

  it('has no POST and no DELETE (405)', async () => {
    expectEveError(await t.request.post('/api/settings').set(auth('admin')).send({ _id: '1' }), 405);
    expectEveError(await t.request.delete('/api/settings/0').set(auth('admin')), 405);
    expect(await t.store.count('settings', {})).toBe(1);
  });
});

describe('PATCH /api/settings/0', () => {
  it('changes addresses.resolver_address and keeps master_address (nested merge)', async () => {
    const before = await getSettings();
    const res = await t.request
      .patch('/api/settings/0')
      .set(auth('admin'))
      .send({ addresses: { resolver_address: 'http://resolver.fleet.test/ip' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: '0', _status: 'OK' });
    const after = await getSettings();
    expect(after.addresses).toEqual({
      resolver_address: 'http://resolver.fleet.test/ip',
      master_address: 'salt-master.fleet.test',
      file: null,
    });
    expect(after._etag).not.toBe(before._etag);
    const [stored] = await t.store.find('settings', { _id: '0' });
    expect(stored?.addresses).toEqual(after.addresses);
  });

  it('merges a second change over the first', async () => {
    await t.request
      .patch('/api/settings/0')
      .set(auth('admin'))
      .send({ addresses: { resolver_address: 'http://r1' } })
      .expect(200);
    await t.request
      .patch('/api/settings/0')
      .set(auth('admin'))
      .send({ addresses: { master_address: 'master-2' } })
      .expect(200);
    expect((await getSettings()).addresses).toEqual({
      resolver_address: 'http://r1',
      master_address: 'master-2',
      file: null,
    });
  });

  it('refuses a value of the wrong type with 422 and changes nothing', async () => {
    const res = await t.request
      .patch('/api/settings/0')
      .set(auth('admin'))
      .send({ addresses: { resolver_address: 42 } });
    expectEveError(res, 422);
    expect((await getSettings()).addresses.resolver_address).toBe('');
  });

  it('needs the admin role', async () => {
    expectEveError(
      await t.request
        .patch('/api/settings/0')
        .set(auth('operator'))
        .send({ addresses: { resolver_address: 'x' } }),
      403,
    );
  });
});
