/**
 * One client per VPN manager, made on first use from the manager item (its password revealed
 * through the local API, as only the system principal may), kept and reused (the server caps
 * sessions and logins per administrator, pritunl/handlers/auth.py, pritunl/auth/), made again when the manager changed (its
 * `_etag`: any field, the sealed password included), and closed (logged out) on shutdown.
 */
import { NotFound, systemContext, type Log, type Runtime } from '@fleet/engine';
import { vpn_managers } from '@fleet/resources';
import { VpnClient } from '../client';
import type { VpnClientOptions } from '../types';

/** How the pool makes clients: everything of `VpnClientOptions` but the manager. */
export type ClientSettings = Omit<VpnClientOptions, 'manager' | 'log'>;

interface Entry {
  readonly etag: string;
  readonly client: VpnClient;
}

/** The clients of every manager in use. */
export class ClientPool {
  private readonly entries = new Map<string, Entry>();
  private readonly making = new Map<string, Promise<Entry | null>>();
  private readonly closing = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly o: { readonly runtime: Runtime; readonly log: Log; readonly settings: ClientSettings },
  ) {}

  /** The client of manager `id`, or null when there is no such manager. */
  async client(id: string): Promise<VpnClient | null> {
    const managers = this.o.runtime.resources.of(vpn_managers);
    const [current] = await managers.find(
      { where: { _id: id }, projection: { name: 1 } },
      systemContext(this.o.runtime),
    );
    if (current === undefined) {
      this.retire(id);
      return null;
    }
    const kept = this.entries.get(id);
    if (kept !== undefined && kept.etag === current._etag) return kept.client;
    let made = this.making.get(id);
    if (made === undefined) {
      made = this.make(id).finally(() => this.making.delete(id));
      this.making.set(id, made);
    }
    return (await made)?.client ?? null;
  }

  private async make(id: string): Promise<Entry | null> {
    let m;
    try {
      m = await this.o.runtime.resources
        .of(vpn_managers)
        .get(id, systemContext(this.o.runtime), { reveal: true });
    } catch (err) {
      if (err instanceof NotFound) return null;
      throw err;
    }
    if (this.closed) return null;
    this.retire(id);
    const manager = {
      name: m.name,
      dashboard_address: m.dashboard_address,
      server_address: m.server_address,
      username: m.username,
      password: m.password,
    };
    const entry = { etag: m._etag, client: new VpnClient({ ...this.o.settings, manager, log: this.o.log }) };
    this.entries.set(id, entry);
    return entry;
  }

  /** Closes the client of manager `id` (it changed or is gone); the next call makes a new one. */
  retire(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.entries.delete(id);
    const done = entry.client.close().finally(() => this.closing.delete(done));
    this.closing.add(done);
  }

  /** Closes every client (logs out, frees the sockets). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.making.values()]);
    for (const id of [...this.entries.keys()]) this.retire(id);
    await Promise.allSettled([...this.closing]);
  }
}
