/**
 * The VPN integration's configuration: VPN_TIMEOUT_S and VPN_RECONCILE_INTERVAL_S bounded, and a
 * VPN_CA_FILE that cannot be read stops the start with one line naming it (the store closed).
 */
import { ConfigError, loadConfig } from '../../packages/server/src/config';
import { startTestServer } from '../helpers';

it('reads the VPN variables, with their defaults', () => {
  expect(loadConfig({})).toMatchObject({ VPN_RECONCILE_INTERVAL_S: 300, VPN_TIMEOUT_S: 15 });
  expect(
    loadConfig({ VPN_RECONCILE_INTERVAL_S: '0', VPN_TIMEOUT_S: '2.5', VPN_CA_FILE: ' /etc/ssl/vpn-ca.pem ' }),
  ).toMatchObject({
    VPN_RECONCILE_INTERVAL_S: 0,
    VPN_TIMEOUT_S: 2.5,
    VPN_CA_FILE: '/etc/ssl/vpn-ca.pem',
  });
});

it.each([
  ['VPN_TIMEOUT_S', '0'],
  ['VPN_TIMEOUT_S', 'soon'],
  ['VPN_RECONCILE_INTERVAL_S', '-1'],
])('refuses %s=%s naming it', (name, value) => {
  expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name} `));
});

it('an unreadable VPN_CA_FILE stops the start in one line', async () => {
  const start = startTestServer({ env: { VPN_CA_FILE: '/nonexistent/vpn-ca.pem' } });
  await expect(start).rejects.toBeInstanceOf(ConfigError);
  await expect(start).rejects.toThrow(
    'Invalid configuration: VPN_CA_FILE /nonexistent/vpn-ca.pem cannot be read (ENOENT)',
  );
});
