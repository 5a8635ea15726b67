/**
 * `embedded` of a reference that names no visible item, as Eve's
 * `embedded_document` answers it: a single reference becomes `null`, a list of references drops the
 * missing entries and keeps the others in the order the list names them. Collections and item GETs
 * alike. Embedded items are the target's items (dates RFC 1123, secrets masked) without `_links`,
 * as Eve embeds the raw documents.
 */
import { startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import {
  auth,
  insertAction,
  insertHost,
  RFC1123,
  uniqueName,
  vpnManagerBody,
  type TestServer,
} from '../../helpers';
import { createWidget, startEveServer } from './_widgets';

let t: TestServer;
/** The VPN server the organization is created on. */
let vpn: VpnSim;
beforeAll(async () => {
  t = await startEveServer();
  vpn = await startVpnSim({ admins: [{ username: 'fleet-admin', password: 'vpn-embedded-password-53' }] });
});
afterAll(async () => {
  await t.close();
  await vpn.close();
});

const viewer = auth('viewer');

describe('a single reference', () => {
  it('embeds as null in a collection when the target is gone, as the item when it is there', async () => {
    const present = (await insertHost(t.store, `${uniqueName('e')}.fleet.test`))._id;
    const gone = `${uniqueName('gone')}.fleet.test`;
    const jid = '20260101000000000001';
    await insertAction(t.store, present, { jid });
    await insertAction(t.store, gone, { jid });
    const res = await t.request
      .get('/api/actions')
      .query({ where: JSON.stringify({ jid }), embedded: '{"host": 1}', sort: 'host' })
      .set(viewer);
    expect(res.status).toBe(200);
    const hosts = (res.body as { _items: { host: unknown }[] })._items.map((a) => a.host);
    expect(hosts).toHaveLength(2);
    expect(hosts).toContainEqual(null);
    expect(hosts).toContainEqual(expect.objectContaining({ _id: present }));
  });

  it('a reference removed behind the API’s back embeds as null on the item GET', async () => {
    const host = (await insertHost(t.store, `${uniqueName('e')}.fleet.test`))._id;
    const { id } = await createWidget(t, { host });
    await t.store.update('hosts', { _id: host }, { $set: { _soft_deleted: true } });
    const res = await t.request.get(`/api/eve_widgets/${id}`).query({ embedded: '{"host": 1}' }).set(viewer);
    expect(res.status).toBe(200);
    expect((res.body as { host: unknown }).host).toBeNull();
  });
});

describe('a list of references', () => {
  it('drops the missing entries and keeps the order the list names the others in', async () => {
    const a = await createWidget(t);
    const b = await createWidget(t);
    const gone = await createWidget(t);
    const { id } = await createWidget(t, { peers: [b.id, gone.id, a.id] });
    // Deleted behind the API's back: the API itself pulls a deleted peer from the lists naming it.
    await t.store.delete('eve_widgets', { _id: gone.id });
    const res = await t.request.get(`/api/eve_widgets/${id}`).query({ embedded: '{"peers": 1}' }).set(viewer);
    expect(res.status).toBe(200);
    expect((res.body as { peers: { _id: string }[] }).peers.map((p) => p._id)).toEqual([b.id, a.id]);
    const list = await t.request
      .get('/api/eve_widgets')
      .query({ where: JSON.stringify({ _id: id }), embedded: '{"peers": 1}' })
      .set(viewer);
    expect(
      (list.body as { _items: { peers: { _id: string }[] }[] })._items[0]?.peers.map((p) => p._id),
    ).toEqual([b.id, a.id]);
  });
});

describe('what an embedded item looks like', () => {
  it('the target’s item: dates RFC 1123, secrets masked, meta fields, no _links', async () => {
    const manager = await t.request
      .post('/api/vpn_managers')
      .set(auth('admin'))
      .send(vpnManagerBody({ dashboard_address: vpn.url, ...vpn.credentials }));
    expect(manager.status).toBe(201);
    const org = await t.request
      .post('/api/vpn_organizations')
      .set(auth('admin'))
      .send({ name: uniqueName('org'), vpn_manager: (manager.body as { _id: string })._id });
    expect(org.status).toBe(201);
    const res = await t.request
      .get(`/api/vpn_organizations/${String((org.body as { _id: string })._id)}`)
      .query({ embedded: '{"vpn_manager": 1}' })
      .set(viewer);
    const embedded = (res.body as { vpn_manager: Record<string, unknown> }).vpn_manager;
    expect(embedded).toMatchObject({
      _id: (manager.body as { _id: string })._id,
      password: '********',
      _etag: expect.any(String),
    });
    expect(String(embedded._updated)).toMatch(RFC1123);
    expect(embedded).not.toHaveProperty('_links');
  });
});
