/**
 * "A server holds the store": some instance keeps one of the deployment's duty leases alive.
 * Every running server asks for every duty lease every third of the lease time and keeps the ones
 * it gets, so while any server runs on a store at least one of them is live (the snapshot duty
 * runs in every configuration); a server stopped cleanly releases them, one killed leaves them
 * until they expire (LEASE_TTL_S). Commands that must not run under a server (restore,
 * rotate-key) ask here and refuse with one line.
 */
import type { Lease, LeaseStore } from '@fleet/engine';
import { DUTIES } from './table';

/** The leases whose live holder means a server runs on the store. */
export const SERVER_LEASES: readonly string[] = Object.values(DUTIES).map((d) => d.lease);

/** A server holds the store: the command stops before changing anything. */
export class StoreInUse extends Error {
  override readonly name = 'StoreInUse';
}

/** The first live duty lease: a server holds the store; `undefined` when none does. */
export async function storeHolder(leases: LeaseStore): Promise<Lease | undefined> {
  const live = await leases.live(SERVER_LEASES);
  return live.sort((a, b) => b.expiresAt.getTime() - a.expiresAt.getTime())[0];
}

/** Throws {@link StoreInUse} (one line naming the holder) when a server holds the store. */
export async function refuseWhileServed(leases: LeaseStore, what: string): Promise<void> {
  const lease = await storeHolder(leases);
  if (lease === undefined) return;
  const seconds = Math.max(1, Math.ceil((lease.expiresAt.getTime() - Date.now()) / 1000));
  throw new StoreInUse(
    `${what} refused: a server holds the store (lease "${lease.name}" of ${lease.holder}); stop every ` +
      `server first (a server that was killed lets go within ${seconds} s)`,
  );
}
