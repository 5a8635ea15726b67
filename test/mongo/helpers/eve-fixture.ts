/**
 * A small database of the original (Eve) application, shaped as Eve stored it: ObjectId `_id`s
 * and references (groups, VPN organizations, media), natural string ids where the original used
 * them (hosts, actions, settings "0", nodegroups), BSON dates for `_created`, `_updated` and every
 * datetime, Eve's own `_etag` (a SHA-1 this API does not compute), a soft-deleted host, a 64-bit
 * integer, and a GridFS file in bucket `fs` (PyMongo's `contentType` in `fs.files`, 255 KiB
 * chunks). Written out the two ways the MongoDB tools do (mongodump BSON, mongoexport Extended
 * JSON) for the tests without a server, and inserted as it is for the live test.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mongoose from 'mongoose';

const { BSON } = mongoose.mongo;
const { ObjectId, Long, Binary } = BSON;

const at = (iso: string): Date => new Date(iso);
const oid = (hex: string): InstanceType<typeof ObjectId> => new ObjectId(hex);

export const IDS = {
  managers: '5f0000000000000000000001',
  organization: '5f0000000000000000000002',
  parentGroup: '5f0000000000000000000003',
  childGroup: '5f0000000000000000000004',
  file: '5f0000000000000000000005',
  fileItem: '5f0000000000000000000006',
  alert: '5f0000000000000000000007',
} as const;

/** The bytes of the GridFS file: two chunks and a bit (255 KiB chunks). */
export const FILE_BYTES = Buffer.alloc(300 * 1024, 7).fill(9, 1000, 2000);
const CHUNK = 255 * 1024;

/** The original's documents, by collection. */
export function eveCollections(): Record<string, Record<string, unknown>[]> {
  const eveMeta = (created: string, updated = created) => ({
    _created: at(created),
    _updated: at(updated),
    _etag: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
  });
  return {
    vpn_managers: [
      {
        _id: oid(IDS.managers),
        name: 'vpn-main',
        server_address: 'https://vpn.example.net',
        dashboard_address: 'https://vpn.example.net/console',
        username: 'api',
        password: 'original-secret',
        ...eveMeta('2021-03-01T10:00:00Z'),
      },
    ],
    vpn_organizations: [
      {
        _id: oid(IDS.organization),
        name: 'office',
        vpn_manager: oid(IDS.managers),
        vpnsrv_representation: {
          auth_api: false,
          name: 'office',
          auth_token: null,
          user_count: Long.fromNumber(1),
          auth_secret: null,
          id: 'org-1',
        },
        type: 6,
        ...eveMeta('2021-03-02T10:00:00Z'),
      },
    ],
    nodegroups: [
      { _id: 'web', name: 'web', type: 1, info: { regex: '^web' }, ...eveMeta('2021-01-01T00:00:00Z') },
    ],
    groups: [
      // The parent comes first in the collection, its subgroup after: the import must reorder.
      {
        _id: oid(IDS.parentGroup),
        name: 'all',
        type: 0,
        subgroups: [oid(IDS.childGroup)],
        ...eveMeta('2021-02-01T00:00:00Z'),
      },
      {
        _id: oid(IDS.childGroup),
        name: 'web',
        type: 1,
        info: { regex: '^web' },
        ...eveMeta('2021-02-02T00:00:00Z'),
      },
    ],
    actions: [
      {
        _id: '20210405120000123456web1.example.net',
        jid: '20210405120000123456',
        action: 'cmd.run',
        host: 'web1.example.net',
        state: 'finished',
        args: [{ cmd: 'uptime', __kwarg__: true }],
        return: 'up 3 days',
        ...eveMeta('2021-04-05T12:00:01Z'),
      },
    ],
    hosts: [
      {
        _id: 'web1.example.net',
        version: '2018.3.4',
        ip: '10.0.0.1',
        nodegroups: ['web'],
        groups: [oid(IDS.childGroup)],
        status: 'up',
        key: 'accepted',
        heartbeat: at('2021-04-05T12:00:00Z'),
        last_action: '20210405120000123456web1.example.net',
        vpn_organization: oid(IDS.organization),
        vpnsrv_representation: {
          auth_type: 'local',
          yubico_id: null,
          client_to_client: false,
          otp_secret: 'JBSWY3DPEHPK3PXP',
          name: 'web1.example.net',
          pin: false,
          dns_suffix: null,
          disabled: false,
          mac_addresses: null,
          email: null,
          organization_name: 'office',
          bypass_secondary: false,
          groups: [],
          organization: 'org-1',
          port_forwarding: [],
          dns_servers: null,
          type: 'client',
          id: 'user-1',
        },
        _soft_deleted: false,
        ...eveMeta('2021-01-10T08:00:00Z', '2021-04-05T12:00:00Z'),
      },
      {
        _id: 'old.example.net',
        ip: '10.0.0.9',
        status: 'down',
        key: 'accepted',
        _soft_deleted: true,
        ...eveMeta('2020-06-01T00:00:00Z', '2020-12-01T00:00:00Z'),
      },
    ],
    files: [
      {
        _id: oid(IDS.fileItem),
        name: 'inventory.csv',
        data: oid(IDS.file),
        ...eveMeta('2021-05-01T00:00:00Z'),
      },
    ],
    settings: [
      {
        _id: '0',
        addresses: { resolver_address: '', master_address: 'salt.example.net', file: oid(IDS.fileItem) },
        ...eveMeta('2021-01-01T00:00:00Z', '2021-05-02T00:00:00Z'),
      },
    ],
    alerts: [
      {
        _id: oid(IDS.alert),
        type: 'vnc.connect',
        level: 'info',
        payload: { hostname: 'web1.example.net', status: 'connected' },
        read: false,
        ...eveMeta('2021-04-06T09:00:00Z'),
      },
    ],
    // Not a resource here: reported as not imported.
    oplog: [{ _id: oid('5f00000000000000000000ff'), o: 'x' }],
    'fs.files': [
      {
        _id: oid(IDS.file),
        filename: 'inventory.csv',
        contentType: 'text/csv',
        chunkSize: CHUNK,
        length: Long.fromNumber(FILE_BYTES.length),
        uploadDate: at('2021-05-01T00:00:00Z'),
      },
    ],
    // Stored out of order on purpose: chunks are put together by `n`.
    'fs.chunks': [1, 0].map((n) => ({
      _id: new ObjectId(),
      files_id: oid(IDS.file),
      n,
      data: new Binary(FILE_BYTES.subarray(n * CHUNK, (n + 1) * CHUNK)),
    })),
  };
}

/** Writes the collections as `mongodump` does: `<collection>.bson`, plus its `.metadata.json`. */
export function writeDump(dir: string, collections = eveCollections()): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, docs] of Object.entries(collections)) {
    writeFileSync(join(dir, `${name}.bson`), Buffer.concat(docs.map((d) => Buffer.from(BSON.serialize(d)))));
    writeFileSync(join(dir, `${name}.metadata.json`), JSON.stringify({ indexes: [], collectionName: name }));
  }
}

/** Writes the collections as `mongoexport` does: canonical Extended JSON, one document a line (or an array). */
export function writeExport(dir: string, o: { arrays?: boolean } = {}, collections = eveCollections()): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, docs] of Object.entries(collections)) {
    const lines = docs.map((d) => BSON.EJSON.stringify(d, { relaxed: false }));
    writeFileSync(join(dir, `${name}.json`), o.arrays ? `[${lines.join(',\n')}]\n` : `${lines.join('\n')}\n`);
  }
}
