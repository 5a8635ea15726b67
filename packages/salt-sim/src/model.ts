/**
 * The simulated master's world: minions (one per key), nodegroups from the master config,
 * and the `base` file_roots. Everything the HTTP layer serves is derived from this.
 */

/** Key directories of the master's pki_dir (salt-api notes §5, wheel key.list_all). */
export type KeyState = 'accepted' | 'pending' | 'rejected' | 'denied';

/** One minion as the master knows it: its key, its grains and whether it answers. */
export interface SimMinion {
  /** Minion id: the host's FQDN. */
  id: string;
  grains: Record<string, unknown>;
  key: KeyState;
  /** PEM public key; its `pem_finger` is what `key.finger` reports. */
  pem: string;
  /** Connected and answering publications; a down minion never returns. */
  up: boolean;
  /** State runs on this host have a failing `cmd.run` step (job retcode 2). */
  failingStates: boolean;
  /** The outward address an HTTP resolver would see (hosts behind one NAT share it). */
  publicIp: string;
}

/** A generated fleet; `startSaltSim` serves (and mutates) one of these. */
export interface Fleet {
  minions: Map<string, SimMinion>;
  /** Master config `nodegroups`: compound strings or token lists (salt-api notes §9). */
  nodegroups: Record<string, string | string[]>;
  /** `file_roots: base`, relative path -> text content (patches live under `patches/`). */
  files: Map<string, string>;
  /** The master's own id (`SALT_MASTER_NAME`). */
  masterId: string;
  saltVersion: string;
  /** Name of the nested grain object holding `last_distupgrade` / `last_stateapply`. */
  toolKey: string;
}

/** Options of `generateFleet`. */
export interface FleetOptions {
  /** Number of accepted minions (pending and rejected keys come on top). */
  hosts: number;
  seed?: number;
  /** Grain key of the nested tool object; default `tool` (DESIGN §6 GRAIN_TOOL_KEY). */
  toolKey?: string;
  /** Epoch ms that generated timestamps are relative to; fixed by default for determinism. */
  referenceTime?: number;
}

/** Minions whose key is accepted: the only ones targeting can match (salt-api notes §2). */
export function acceptedMinions(fleet: Fleet): SimMinion[] {
  return [...fleet.minions.values()].filter((m) => m.key === 'accepted');
}

/** `YYYY-MM-DD HH:MM:SS+00:00`, the format of the tool grain timestamps (spec: hosts grain). */
export function toolTimestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}+00:00`;
}
