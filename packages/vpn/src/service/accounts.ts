/**
 * Host accounts on the VPN server, for the hooks and the profile route of hosts. A host's account
 * is a client user named after the host (its minion id, as the server filters names) in the
 * organization the host is linked to. A move creates the new account first, then deletes the old
 * one; if the delete fails the new one is deleted again, so a failure leaves both as they were.
 */
import { Conflict, NotFound, type CallContext, type Download } from '@fleet/engine';
import { hosts } from '@fleet/resources';
import { VpnMissing } from '../client';
import type { VpnUser } from '../types';
import { reason } from './alerts';
import {
  alert,
  clientOf,
  idIn,
  serverIdOf,
  storedAccountIds,
  storedOrganization,
  type Deps,
  type StoredOrganization,
} from './deps';
import type { AccountRecord } from '@fleet/resources';
import { accountRecord } from './records';

/** Where an account is: the stored organization and the stored record. */
export interface Place {
  readonly organization: string;
  readonly account: { readonly id?: unknown; readonly organization?: unknown } | null;
}

/** What OpenVPN clients import (OpenVPN Connect registers this type for `.ovpn` files). */
const OVPN_TYPE = 'application/x-openvpn-profile';

/**
 * Creates the host's account in a stored organization, in `serverOrg` (default: the organization's
 * stored server id): `GET /user/<org>?search=<host>`, then `POST /user/<org>`.
 */
export async function createAccount(
  d: Deps,
  org: StoredOrganization,
  host: string,
  serverOrg = serverIdOf(org),
): Promise<VpnUser> {
  const client = await clientOf(d, org);
  const user = await d.leftovers.create({
    what: `account of host "${host}" in organization "${org.name}" on VPN manager "${client.manager}"`,
    list: async () => {
      const found = await client.findUsers(serverOrg, host);
      if (found === null) throw new VpnMissing(client.manager, 'organization', serverOrg);
      return found;
    },
    create: () => client.createUser(serverOrg, { name: host }),
    remove: (id) => client.deleteUser(serverOrg, id),
    kept: () => storedAccountIds(d, serverOrg),
    payload: { manager: client.manager, organization: org._id, hostname: host },
  });
  d.log.info(
    { manager: client.manager, organization: serverOrg, user: user.id, host },
    'VPN account created',
  );
  return user;
}

/** Deletes an account where the store says it is; already gone (or nothing stored) is fine. */
export async function removeAccount(d: Deps, place: Place): Promise<void> {
  const org = await storedOrganization(d, place.organization);
  const user = idIn(place.account, 'id');
  // The organization the account was made in (the stored one may have been made again since).
  const serverOrg = idIn(place.account, 'organization') ?? idIn(org?.vpnsrv_representation, 'id');
  if (org === null || user === undefined || serverOrg === undefined) return;
  const client = await clientOf(d, org);
  const outcome = await client.deleteUser(serverOrg, user);
  d.log.info({ manager: client.manager, organization: serverOrg, user, outcome }, 'VPN account deleted');
}

/** The compensation step: deletes an account a failed write made; a failure raises `vpn.leftover`. */
export async function undoAccount(d: Deps, place: Place, host?: string): Promise<void> {
  try {
    await removeAccount(d, place);
  } catch (err) {
    const id = idIn(place.account, 'id');
    await alert(d, {
      type: 'vpn.leftover',
      level: 'error',
      payload: {
        kind: 'account',
        organization: place.organization,
        id,
        ...(host ? { hostname: host } : {}),
        error: reason(err),
      },
    });
    throw err;
  }
}

/** Links, moves or unlinks: resolves the new record, null when unlinked, undefined for an unknown organization. */
export async function moveAccount(
  d: Deps,
  move: { host: string; from: Place | null; to: string | null },
): Promise<AccountRecord | null | undefined> {
  let made: AccountRecord | undefined;
  if (move.to !== null) {
    const target = await storedOrganization(d, move.to);
    if (target === null) return undefined;
    made = accountRecord(await createAccount(d, target, move.host));
  }
  if (move.from !== null) {
    try {
      await removeAccount(d, move.from);
    } catch (err) {
      if (made !== undefined && move.to !== null)
        await undoAccount(d, { organization: move.to, account: made }, move.host).catch(() => undefined);
      throw err;
    }
  }
  return made ?? null;
}

/** The host's client profile (`GET /user/<org>?search=id:<user>`, `GET /data/<org>/<user>.tar`). */
export async function profile(d: Deps, hostId: string, ctx: CallContext): Promise<Download> {
  const host = await d.runtime.resources.of(hosts).get(hostId, ctx);
  const user = idIn(host.vpnsrv_representation, 'id');
  const serverOrg = idIn(host.vpnsrv_representation, 'organization');
  const org = host.vpn_organization ? await storedOrganization(d, host.vpn_organization) : null;
  if (org === null || user === undefined || serverOrg === undefined)
    throw new NotFound(`Host "${host._id}" has no VPN account: PATCH its vpn_organization first`);
  const client = await clientOf(d, org);
  const found = await client.getProfile(serverOrg, user);
  if (found === null) throw new VpnMissing(client.manager, 'user', user);
  const [only, ...more] = found.files;
  if (only === undefined) {
    throw new Conflict(
      `VPN organization "${org.name}" is attached to no server on VPN manager "${client.manager}": its accounts have no profile until an administrator attaches it to a server in the VPN server's console`,
    );
  }
  if (more.length === 0)
    return { data: Buffer.from(only.content, 'utf8'), contentType: OVPN_TYPE, filename: only.name };
  return { data: found.archive, contentType: 'application/x-tar', filename: found.filename };
}
