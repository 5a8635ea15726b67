/**
 * What the MongoDB server is: its version (from the handshake's wire version) and its topology
 * (standalone, replica set, sharded cluster), read once per connection. The version decides
 * whether the service may start at all; the topology decides how multi-document writes are made
 * all or nothing (transactions on a replica set or sharded cluster, an undo log on a standalone
 * server: see atomic.ts).
 *
 * The bundled driver (mongodb 7.x, `cmap/wire_protocol/constants.ts`) speaks wire versions 9 to 29:
 * MongoDB 4.4 to 9.0. It refuses any other server during its handshake, but only reports that as a
 * server selection time-out after `serverSelectionTimeoutMS`, with its own message hidden inside;
 * {@link unsupportedServer} turns the handshake's refusal into one line naming both versions, at once.
 */

import { ServiceUnavailable } from '../../errors';

/** The oldest wire version the driver speaks (MIN_SUPPORTED_WIRE_VERSION): MongoDB 4.4. */
export const MIN_WIRE_VERSION = 9;
/** The newest wire version the driver speaks (MAX_SUPPORTED_WIRE_VERSION): MongoDB 9.0. */
export const MAX_WIRE_VERSION = 29;
/** The supported server versions, as the docs and the refusal state them. */
export const SUPPORTED_VERSIONS = 'MongoDB 4.4 or later (wire versions 9 to 29: 4.4 to 9.0)';

/**
 * Server releases by the wire version they introduced (the `maxWireVersion` of their `hello`).
 * Rapid releases between them (5.1 to 5.3, 6.1 to 6.3, ...) have wire versions of their own.
 */
const RELEASES: ReadonlyArray<readonly [wire: number, release: string]> = [
  [6, '3.6'],
  [7, '4.0'],
  [8, '4.2'],
  [9, '4.4'],
  [13, '5.0'],
  [17, '6.0'],
  [21, '7.0'],
  [25, '8.0'],
  [27, '8.2'],
  [29, '9.0'],
];

/** A wire version in words: `MongoDB 4.2 (wire version 8)`, `a MongoDB release after 5.0 (wire version 14)`. */
export function describeWireVersion(wire: number): string {
  const exact = RELEASES.find(([w]) => w === wire);
  if (exact) return `MongoDB ${exact[1]} (wire version ${wire})`;
  const before = [...RELEASES].reverse().find(([w]) => w < wire);
  if (before === undefined) return `a MongoDB release older than 3.6 (wire version ${wire})`;
  return `a MongoDB release after ${before[1]} (wire version ${wire})`;
}

/**
 * The server's version is outside what the driver speaks: the start stops with this one line, and
 * a call made while such a server answers is a 503 saying so (no host named: clients see it too).
 */
export class UnsupportedServer extends ServiceUnavailable {}

/**
 * The driver's handshake refusal (`MongoCompatibilityError`, `cmap/connect.ts` checkSupportedServer
 * and `sdam/topology_description.ts`) as our one line, or undefined when `error` is not one.
 */
export function unsupportedServer(error: unknown): UnsupportedServer | undefined {
  if (!(error instanceof Error) || error.name !== 'MongoCompatibilityError') return undefined;
  const tooOld =
    /(?:maximum )?wire version (\d+), but this version of the (?:Node\.js )?[Dd]river requires at least/.exec(
      error.message,
    );
  if (tooOld?.[1] !== undefined)
    return new UnsupportedServer(
      `the MongoDB server is ${describeWireVersion(Number(tooOld[1]))}: Fleet API needs ${SUPPORTED_VERSIONS}; upgrade the server`,
    );
  const tooNew = /(?:minimum wire version|requires wire version) "?(\d+)"?/.exec(error.message);
  const found =
    tooNew?.[1] === undefined ? 'newer than' : `${describeWireVersion(Number(tooNew[1]))}, newer than`;
  return new UnsupportedServer(
    `the MongoDB server is ${found} this Fleet API supports: it needs ${SUPPORTED_VERSIONS}; upgrade Fleet API`,
  );
}

/** How the deployment is laid out, as far as writes are concerned. */
export type Topology = 'standalone' | 'replicaSet' | 'sharded';

/** What the adapter knows of the server it talks to. */
export interface ServerInfo {
  /** The release, as `buildInfo` gives it (`7.0.12`), else derived from the wire version. */
  readonly version: string;
  readonly wireVersion: number;
  readonly topology: Topology;
  /** Multi-document transactions: a replica set or a sharded cluster with sessions. */
  readonly transactions: boolean;
}

/** The fields of a `hello` reply the adapter reads. */
export interface HelloReply {
  readonly maxWireVersion?: unknown;
  readonly setName?: unknown;
  readonly msg?: unknown;
  readonly logicalSessionTimeoutMinutes?: unknown;
}

/**
 * Reads a `hello` reply: `setName` marks a replica set member, `msg: "isdbgrid"` a `mongos`
 * (https://www.mongodb.com/docs/manual/reference/command/hello/). Sessions (and so transactions)
 * need `logicalSessionTimeoutMinutes`; a standalone server has sessions but no transactions.
 */
export function serverInfoOf(hello: HelloReply, version?: string): ServerInfo {
  const wireVersion = typeof hello.maxWireVersion === 'number' ? hello.maxWireVersion : 0;
  const topology: Topology =
    hello.msg === 'isdbgrid' ? 'sharded' : typeof hello.setName === 'string' ? 'replicaSet' : 'standalone';
  const sessions = typeof hello.logicalSessionTimeoutMinutes === 'number';
  const release = RELEASES.find(([w]) => w === wireVersion)?.[1];
  return {
    version: version ?? release ?? `wire version ${wireVersion}`,
    wireVersion,
    topology,
    transactions: sessions && topology !== 'standalone',
  };
}
