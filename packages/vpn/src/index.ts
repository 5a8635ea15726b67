/**
 * @fleet/vpn: a typed client of one VPN manager (a Pritunl server), and the VPN service the
 * resources call (organizations and host accounts on the managers' servers, drift repair).
 */
import { VpnClient } from './client';
import type { VpnClientOptions } from './types';

export { VpnAttached, VpnClient, VpnMissing, VpnUnreadableCreate } from './client';
export { filterName } from './names';
export { readTar } from './tar';
export { releaseNumber } from './versions';
export type * from './types';
export {
  RECONCILE_LEASE,
  startVpnService,
  type ManagerReport,
  type RunningVpn,
  type VpnServiceOptions,
} from './service';

/** A client for one VPN manager; call `close()` when done (it logs out and frees the sockets). */
export function createVpnClient(options: VpnClientOptions): VpnClient {
  return new VpnClient(options);
}
