/**
 * Alerts the VPN integration raises, through the local API as the system principal. A finding
 * that lasts (an organization on the server the store does not know) is raised once: its alert
 * has an id made from what it is about, and a second create of that id is a no-op.
 */
import { Conflict, systemContext, type Log, type Runtime } from '@fleet/engine';
import { alerts } from '@fleet/resources';

/** What an alert says. */
export interface VpnAlert {
  /** `vpn.unreachable`, `vpn.reachable`, `vpn.organization.recreated`, ... (docs/vpn.md). */
  readonly type: string;
  readonly level: 'info' | 'warning' | 'error';
  readonly payload: Record<string, unknown>;
  /** Given for findings raised once (`vpn-extra-org-<id>`). */
  readonly id?: string;
}

/** Raises `alert`; never throws (a failed alert is logged, the work it reports goes on). */
export async function raise(runtime: Runtime, log: Log, alert: VpnAlert): Promise<void> {
  try {
    const fields = { type: alert.type, level: alert.level, payload: alert.payload, read: false };
    await runtime.resources
      .of(alerts)
      .create(alert.id === undefined ? fields : { ...fields, _id: alert.id }, systemContext(runtime));
  } catch (err) {
    if (err instanceof Conflict) return;
    log.error(
      { type: alert.type, err: err instanceof Error ? err.message : 'unknown error' },
      'VPN alert not recorded',
    );
  }
}

/** The message of an error, for payloads and logs (the client's messages never hold a secret). */
export function reason(err: unknown): string {
  return err instanceof Error ? err.message : 'unknown error';
}
