/**
 * Every registered resource answers its collection GET and its item GET: the Eve envelope, the
 * item's fields, RFC 1123 dates, `_links` (self, parent, collection, related), the ETag header,
 * and 401 without a token. The resources of the spec have a fixture each (the fields the spec
 * lists, written through the store port as the sync writes them); any other resource — one added
 * with a single definition file — gets a sample made from its definition (its declared `sample`
 * first). Each resource is set up on its own: one that cannot be set up fails its own tests only.
 */
import { allResources } from '../../../resources';
import {
  insertAction,
  insertDoc,
  insertHost,
  startTestServer,
  uniqueName,
  type TestServer,
} from '../../helpers';
import { describeReads, sampleCase, type ReadCase } from './reads';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const host = `${uniqueName('web')}.fleet.test`;
const step = {
  comment: 'Command "false" run',
  name: 'false',
  start_time: '10:42:01.532154',
  result: false,
  duration: 12.4,
  __run_num__: 0,
  __sls__: 'hotfix',
  changes: { pid: 4242, retcode: 1, stderr: '', stdout: '' },
  __id__: 'run-false',
  cmd: 'cmd.run',
};

const CASES: Record<string, ReadCase> = {
  actions: {
    title: 'Action',
    insert: async () => (await insertAction(t.store, host, { action: 'cmd.run', return: 'ok' }))._id,
    fields: (id) => ({
      _id: id,
      jid: id.slice(0, 20),
      action: 'cmd.run',
      host,
      state: 'finished',
      args: [{ cmd: 'uptime', __kwarg__: true }],
      return: 'ok',
    }),
    related: () => ({ host: { title: 'Host', href: `hosts/${host}` } }),
  },
  alerts: {
    title: 'Alert',
    insert: async () =>
      (
        await insertDoc(t.store, 'alerts', {
          _id: uniqueName('al'),
          type: 'vnc.connect',
          level: 'info',
          payload: { hostname: host, status: 'connected' },
          read: false,
        })
      )._id,
    fields: () => ({
      type: 'vnc.connect',
      level: 'info',
      payload: { hostname: host, status: 'connected' },
      read: false,
    }),
  },
  failed_patches: {
    title: 'Failed_patch',
    insert: async () => {
      const jid = '20261125104201532154';
      return (
        await insertDoc(t.store, 'failed_patches', {
          _id: `${jid}${host}`,
          jid,
          action: 'state.apply',
          host,
          state: 'finished',
          patch: 'hotfix',
          return: [step],
        })
      )._id;
    },
    fields: () => ({
      jid: '20261125104201532154',
      action: 'state.apply',
      host,
      state: 'finished',
      patch: 'hotfix',
      return: [step],
    }),
    related: () => ({ host: { title: 'Host', href: `hosts/${host}` } }),
  },
  files: {
    title: 'File',
    insert: async () =>
      (
        await insertDoc(t.store, 'files', {
          _id: 'aaaaaaaaaaaaaaaaaaaaaaa1',
          name: 'motd.txt',
          data: 'bbbbbbbbbbbbbbbbbbbbbbb2',
        })
      )._id,
    fields: () => ({
      name: 'motd.txt',
      data: expect.stringMatching(
        /^\/api\/media\/bbbbbbbbbbbbbbbbbbbbbbb2\?expires=\d+&signature=[\w-]{43}$/,
      ),
    }),
  },
  groups: {
    title: 'Group',
    insert: async () => {
      const child = await insertDoc(t.store, 'groups', {
        _id: 'cccccccccccccccccccccc01',
        name: 'debian',
        type: 1,
        subgroups: [],
        info: { grain: { lsb_distrib_id: 'Debian' } },
      });
      return (
        await insertDoc(t.store, 'groups', {
          _id: 'cccccccccccccccccccccc02',
          name: 'all',
          type: 0,
          subgroups: [child._id],
          info: {},
        })
      )._id;
    },
    fields: () => ({ name: 'all', type: 0, subgroups: ['cccccccccccccccccccccc01'] }),
    related: () => ({ subgroups: [{ title: 'Group', href: 'groups/cccccccccccccccccccccc01' }] }),
  },
  hosts: {
    title: 'Host',
    insert: async () =>
      (
        await insertHost(t.store, host, {
          groups: ['cccccccccccccccccccccc01'],
          nodegroups: ['webservers'],
          last_action: 'jid-1',
          vpn_organization: 'dddddddddddddddddddddd01',
        })
      )._id,
    fields: (id) => ({
      _id: id,
      version: '3006.9',
      ip: '10.0.0.10',
      nodegroups: ['webservers'],
      groups: ['cccccccccccccccccccccc01'],
      grain: expect.objectContaining({
        cpuarch: 'x86_64',
        mem_total: 7961,
        ip_interfaces: { eth0: ['10.0.0.10'], lo: ['127.0.0.1'] },
      }),
      last_distupgrade: 'Fri, 20 Nov 2026 04:00:00 GMT',
      last_stateapply: 'Tue, 24 Nov 2026 04:00:00 GMT',
      _soft_deleted: false,
      status: 'up',
      heartbeat: 'Wed, 25 Nov 2026 21:00:00 GMT',
      key: 'accepted',
      nat: false,
      fingerprint: expect.stringMatching(/^([0-9a-f]{2}:)+[0-9a-f]{2}$/),
      fingerprint_history: [],
      vpn_organization: 'dddddddddddddddddddddd01',
    }),
    related: () => ({
      last_action: { title: 'Action', href: 'actions/jid-1' },
      groups: [{ title: 'Group', href: 'groups/cccccccccccccccccccccc01' }],
      nodegroups: [{ title: 'Nodegroup', href: 'nodegroups/webservers' }],
      vpn_organization: { title: 'Vpn_organization', href: 'vpn_organizations/dddddddddddddddddddddd01' },
    }),
  },
  hosts_statistic: {
    title: 'Hosts_statistic',
    insert: async () =>
      (
        await insertDoc(t.store, 'hosts_statistic', {
          _id: 'eeeeeeeeeeeeeeeeeeeeee01',
          timestamp: new Date('2026-11-25T21:00:00Z'),
          index: 7,
          hosts: [
            {
              _id: host,
              version: '3006.9',
              ip: '10.0.0.10',
              nodegroups: [],
              status: 'up',
              _created: new Date('2026-11-01T00:00:00Z'),
              _updated: new Date('2026-11-25T20:59:00Z'),
              _soft_deleted: false,
            },
          ],
        })
      )._id,
    fields: () => ({
      timestamp: 'Wed, 25 Nov 2026 21:00:00 GMT',
      index: 7,
      // The spec's single-item shape: the deletion flag is `_deleted` (lists show `_soft_deleted`).
      hosts: [
        {
          _id: host,
          version: '3006.9',
          ip: '10.0.0.10',
          nodegroups: [],
          status: 'up',
          _created: 'Sun, 01 Nov 2026 00:00:00 GMT',
          _updated: 'Wed, 25 Nov 2026 20:59:00 GMT',
          _deleted: false,
        },
      ],
    }),
  },
  nodegroups: {
    title: 'Nodegroup',
    insert: async () =>
      (
        await insertDoc(t.store, 'nodegroups', {
          _id: 'webservers',
          name: 'webservers',
          type: 1,
          info: { regex: 'web' },
        })
      )._id,
    fields: (id) => ({ _id: id, name: 'webservers', type: 1, info: { regex: 'web' } }),
  },
  settings: {
    title: 'Setting',
    insert: async () => '0',
    fields: () => ({ _id: '0', addresses: { resolver_address: '', master_address: '', file: null } }),
  },
  tasks: {
    title: 'Task',
    insert: async () =>
      (
        await insertDoc(t.store, 'tasks', {
          _id: 'ffffffffffffffffffffff01',
          salt_client: 'local_async',
          name: 'uptime',
          fun: 'cmd.run',
          kwarg: { cmd: 'uptime' },
          start: new Date('2026-11-25T10:00:00Z'),
          status: 'scheduled',
          tgt: [host],
          interval: 180,
          next: new Date('2026-11-25T21:09:00Z'),
          count_of_execution: 223,
        })
      )._id,
    fields: () => ({
      salt_client: 'local_async',
      name: 'uptime',
      fun: 'cmd.run',
      kwarg: { cmd: 'uptime' },
      start: 'Wed, 25 Nov 2026 10:00:00 GMT',
      status: 'scheduled',
      tgt: [host],
      interval: 180,
      next: 'Wed, 25 Nov 2026 21:09:00 GMT',
      count_of_execution: 223,
    }),
  },
  updates: {
    title: 'Update',
    insert: async () =>
      (
        await insertDoc(t.store, 'updates', {
          _id: 'ffffffffffffffffffffff02',
          name: 'hotfix.sls',
          text: 'cmd.run: false',
          description: 'Hotfix',
        })
      )._id,
    fields: () => ({ name: 'hotfix.sls', text: 'cmd.run: false', description: 'Hotfix' }),
  },
  vpn_managers: {
    title: 'Vpn_manager',
    insert: async () =>
      (
        await insertDoc(t.store, 'vpn_managers', {
          _id: 'ffffffffffffffffffffff03',
          name: 'main',
          server_address: 'vpn.fleet.test',
          dashboard_address: 'https://vpn.fleet.test',
          username: 'admin',
          password: t.secrets.seal('hunter2-hunter2'),
        })
      )._id,
    fields: () => ({
      name: 'main',
      server_address: 'vpn.fleet.test',
      dashboard_address: 'https://vpn.fleet.test',
      username: 'admin',
      password: '********',
    }),
  },
  vpn_organizations: {
    title: 'Vpn_organization',
    insert: async () =>
      (
        await insertDoc(t.store, 'vpn_organizations', {
          _id: 'dddddddddddddddddddddd01',
          name: 'fleet',
          vpn_manager: 'ffffffffffffffffffffff03',
          cipher_type: 'rsa',
          type: 6,
          vpnsrv_representation: {
            auth_api: false,
            name: 'fleet',
            auth_token: null,
            user_count: 3,
            auth_secret: null,
            id: 'org-1',
          },
        })
      )._id,
    fields: () => ({
      name: 'fleet',
      vpn_manager: 'ffffffffffffffffffffff03',
      type: 6,
      vpnsrv_representation: {
        auth_api: false,
        name: 'fleet',
        auth_token: null,
        user_count: 3,
        auth_secret: null,
        id: 'org-1',
      },
    }),
    related: () => ({ vpn_manager: { title: 'Vpn_manager', href: 'vpn_managers/ffffffffffffffffffffff03' } }),
  },
};

/**
 * Every resource the server serves over HTTP (`allResources` with a list and an item GET): the
 * spec's fixtures, then samples for the rest. Internal resources (no HTTP methods) are left out.
 */
const served = (r: { methods: { list?: unknown; get?: unknown } }): boolean =>
  r.methods.list !== undefined && r.methods.get !== undefined;
const NAMES = allResources.filter(served).map((r) => r.name);
const caseOf = (name: string): ReadCase => CASES[name] ?? sampleCase(() => t, name);
const cases = new Map(NAMES.map((name) => [name, caseOf(name)]));

it('covers every resource the server registers, and a fixture for each resource of the spec', () => {
  expect([...cases.keys()].sort()).toEqual(
    [...t.engine.registry.resources.values()]
      .filter((r) => served(r.def))
      .map((r) => r.name)
      .sort(),
  );
  const SPEC = [
    'actions',
    'alerts',
    'failed_patches',
    'files',
    'groups',
    'hosts',
    'hosts_statistic',
    'nodegroups',
    'settings',
    'tasks',
    'updates',
    'vpn_managers',
    'vpn_organizations',
  ];
  for (const name of SPEC) expect(CASES[name]).toBeDefined();
});

describe.each(NAMES)('%s', (name) =>
  describeReads(name, { server: () => t, case: cases.get(name) as ReadCase }),
);
