/**
 * The VPN service is the port the resources call (resources/ports/vpn.ts, where the stored records
 * are declared once; the client's wire types extend them): checked by the type checker, and at run
 * time by the server registering it as `vpn` and taking it away on close.
 */
import { expectTypeOf } from 'expect-type';
import type { RunningVpn, VpnOrganization, VpnUser } from '@fleet/vpn';
import type { AccountRecord, OrganizationRecord, VpnService } from '../../resources/ports/vpn';
import { hosts, type vpn_organizations } from '../../resources';
import type { ItemOf } from '../../engine/src';
import { startTestServer } from '../helpers';

it('the service implements the port; its records fit the stored fields', () => {
  expectTypeOf<RunningVpn['service']>().toEqualTypeOf<VpnService>();
  expectTypeOf<VpnUser>().toExtend<AccountRecord>();
  expectTypeOf<VpnOrganization>().toEqualTypeOf<OrganizationRecord>();
  expectTypeOf<AccountRecord>().toExtend<NonNullable<ItemOf<typeof hosts>['vpnsrv_representation']>>();
  expectTypeOf<OrganizationRecord>().toExtend<ItemOf<typeof vpn_organizations>['vpnsrv_representation']>();
  expect(Object.keys(hosts.fields.vpnsrv_representation.fields).sort()).toEqual(
    [
      'auth_type',
      'yubico_id',
      'client_to_client',
      'otp_secret',
      'name',
      'pin',
      'dns_suffix',
      'disabled',
      'mac_addresses',
      'email',
      'organization_name',
      'bypass_secondary',
      'groups',
      'organization',
      'port_forwarding',
      'dns_servers',
      'type',
      'id',
    ].sort(),
  );
});

it('the server registers the service as `vpn` (without a master) and removes it on close', async () => {
  const t = await startTestServer();
  const services = t.engine.runtime.services;
  expect(Object.keys(services.vpn ?? {}).sort()).toEqual([
    'createOrganization',
    'deleteAccount',
    'deleteOrganization',
    'managerChanged',
    'moveAccount',
    'profile',
    'reconcile',
    'undoOrganization',
  ]);
  await t.close();
  expect(services.vpn).toBeUndefined();
});
