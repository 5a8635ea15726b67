/**
 * The simulated master's world: minions (one per key), nodegroups from the master config,
 * and the `base` file_roots. Everything the HTTP layer serves is derived from this.
 */

/** Key directories of the master's pki_dir (salt/runners/manage.py, salt/wheel/key.py, wheel key.list_all). */
export type KeyState = 'accepted' | 'pending' | 'rejected' | 'denied';

/** One minion as the master knows it: its key, its grains and whether it answers. */
export interface SimMinion {
  /** Minion id: the host's FQDN. */
  id: string;
  grains: Record<string, unknown>;
  key: KeyState;
  /** PEM public key; its `pem_finger` is what `key.finger` reports. */
  pem: string;
  /**
   * A second key presented while `pem` is accepted (a reinstalled host): the master wrote it to
   * `minions_denied` beside the accepted one (`transport/mixins/auth.py` `_auth`), so the id is
   * listed in both directories.
   */
  deniedPem?: string;
  /** Connected and answering publications; a down minion never returns. */
  up: boolean;
  /** State runs on this host have a failing `cmd.run` step (job retcode 2). */
  failingStates: boolean;
  /** The outward address an HTTP resolver would see (hosts behind one NAT share it). */
  publicIp: string;
  /** How the host reaches the internet (default `open`). */
  egress?: Egress;
  /** The HTTP clients installed (default: by the `os` grain, see web.ts). */
  httpTools?: readonly HttpTool[];
}

/**
 * A host's way out: `open`; `blocked` (a firewall drops its outgoing packets: connections time
 * out); `no_dns` (its resolver fails: no name resolves).
 */
export type Egress = 'open' | 'blocked' | 'no_dns';

/** The HTTP command-line clients a host may have. */
export type HttpTool = 'curl' | 'wget';

/**
 * An HTTP IP resolver the simulated hosts can reach, keyed in `Fleet.resolvers` by its URL's host
 * (`name[:port]`). It answers the address the request came from (the host's `publicIp`) as plain
 * text, unless told otherwise.
 */
export interface SimResolver {
  /** HTTP status of every answer (default 200). */
  status?: number;
  /** A fixed body instead of the caller's address (a resolver answering HTML, say). */
  body?: string;
  /** Minions this resolver answers 503 to (rate limited, say). */
  failing?: readonly string[];
  /** Nothing listens: connections are refused. */
  down?: boolean;
}

/** A generated fleet; `startSaltSim` serves (and mutates) one of these. */
export interface Fleet {
  minions: Map<string, SimMinion>;
  /** Master config `nodegroups`: compound strings or token lists (salt/utils/minions.py). */
  nodegroups: Record<string, string | string[]>;
  /** `file_roots: base`, relative path -> text content (patches live under `patches/`). */
  files: Map<string, string>;
  /** The master's own id (`SALT_MASTER_NAME`). */
  masterId: string;
  saltVersion: string;
  /** Name of the nested grain object holding `last_distupgrade` / `last_stateapply`. */
  toolKey: string;
  /** The IP resolvers on the simulated internet, by URL host; any other name does not resolve. */
  resolvers: Map<string, SimResolver>;
}

/** Options of `generateFleet`. */
export interface FleetOptions {
  /** Number of accepted minions (pending and rejected keys come on top). */
  hosts: number;
  seed?: number;
  /** Grain key of the nested tool object; default `tool` (GRAIN_TOOL_KEY). */
  toolKey?: string;
  /** Epoch ms that generated timestamps are relative to; fixed by default for determinism. */
  referenceTime?: number;
}

/** Minions whose key is accepted: the only ones targeting can match (salt/netapi/__init__.py, salt/client/__init__.py). */
export function acceptedMinions(fleet: Fleet): SimMinion[] {
  return [...fleet.minions.values()].filter((m) => m.key === 'accepted');
}

export { toolTimestamp } from '@fleet/fixtures';
