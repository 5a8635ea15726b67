/**
 * The client's own errors, told apart with `instanceof`: a write under a missing organization or
 * user, a delete the client refuses because the server would stop VPN servers, and a create the
 * server made but answered with a record the client cannot read.
 */
import { BadGateway, Conflict } from '@fleet/engine';
import type { VpnServer } from './types';

/** A write found its organization or user gone on the server (502). */
export class VpnMissing extends BadGateway {
  constructor(
    manager: string,
    readonly kind: 'organization' | 'user',
    readonly id: string,
  ) {
    super(`VPN manager "${manager}": ${kind} ${id} does not exist on the VPN server`);
  }
}

/**
 * An organization still attached to VPN servers: the client does not delete it (409), since
 * Pritunl's `Organization.remove()` stops every online server it is attached to and restarts
 * none. Its administrator detaches it from them in the VPN server's console first.
 */
export class VpnAttached extends Conflict {
  constructor(
    manager: string,
    readonly id: string,
    readonly servers: readonly VpnServer[],
  ) {
    const names = servers.map((s) => `"${s.name}" (${s.status})`).join(', ');
    super(
      `VPN manager "${manager}": organization ${id} is attached to VPN server${servers.length > 1 ? 's' : ''} ${names}; deleting it would stop ${servers.length > 1 ? 'them' : 'it'} while online: detach it in the VPN server's console first`,
    );
  }
}

/** The server made an item but answered it in a shape the client cannot read (502); `madeId` is what it made. */
export class VpnUnreadableCreate extends BadGateway {
  constructor(
    message: string,
    readonly madeId: string,
  ) {
    super(message);
  }
}
