/**
 * Addresses an administrator types for the service to call (a VPN manager's console, an IP
 * resolver): an http or https URL naming a host, without credentials, of bounded length; and the
 * ranges an IP address belongs to, so that the service never sends a login to a cloud metadata
 * endpoint, and sends none to a private network when the deployment says so. The URL is read
 * with the WHATWG parser, which also normalises the spellings of an IPv4 address (`2852039166`,
 * `0xa9.0xfe.0xa9.0xfe`) and of IPv6, so one check covers them all.
 */
import { BlockList, isIP } from 'node:net';

/** The longest address accepted. */
export const MAX_ADDRESS_LENGTH = 2048;

/**
 * `link-local`: 169.254.0.0/16 and fe80::/10, where clouds answer metadata (and credentials) to
 * anyone on the machine, plus the metadata addresses outside those ranges (AWS's fd00:ec2::254,
 * Alibaba's 100.100.100.200). `private`: loopback, RFC 1918, carrier-grade NAT, unique local
 * IPv6, "this network". `public`: the rest.
 */
export type AddressRange = 'link-local' | 'private' | 'public';

/** Whether addresses in private ranges may be called (`allow`) or only public ones (`refuse`). */
export type PrivateAddresses = 'allow' | 'refuse';

function blockList(v4: readonly [string, number][], v6: readonly [string, number][]): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of v4) {
    list.addSubnet(net, prefix, 'ipv4');
    // The same network written as an IPv4-mapped IPv6 address (::ffff:169.254.169.254).
    list.addSubnet(`::ffff:${net}`, 96 + prefix, 'ipv6');
  }
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

const LINK_LOCAL = blockList(
  [
    ['169.254.0.0', 16],
    ['100.100.100.200', 32],
  ],
  [
    ['fe80::', 10],
    ['fd00:ec2::254', 128],
  ],
);

const PRIVATE = blockList(
  [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
  ],
  [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
  ],
);

/** The range of an IP address (brackets of a URL's IPv6 host allowed); null when it is no IP. */
export function addressRange(address: string): AddressRange | null {
  const ip = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(ip);
  if (family === 0) return null;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (LINK_LOCAL.check(ip, type)) return 'link-local';
  if (PRIVATE.check(ip, type)) return 'private';
  return 'public';
}

/** Why the service must not call an IP address under the policy, or null when it may. */
export function ipRefusal(address: string, policy: PrivateAddresses): string | null {
  const range = addressRange(address);
  if (range === 'link-local') return 'is a link-local address (where clouds serve instance metadata)';
  if (range === 'private' && policy === 'refuse')
    return 'is a private address (VPN_PRIVATE_ADDRESSES=refuse)';
  return null;
}

/** Why `value` is not an http(s) URL naming a host without credentials, or null when it is one. */
export function httpUrlIssue(value: string, maxLength = MAX_ADDRESS_LENGTH): string | null {
  if (value.length > maxLength) return `max length is ${maxLength}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  // Credentials in a URL end up in logs, job caches and error messages.
  if (url.username !== '' || url.password !== '') return 'must not carry credentials (user:password@)';
  if (url.hostname === '') return 'must name a host';
  return null;
}

/**
 * Why the service must not send a request to `value`, or null: an http(s) URL whose host, when
 * it is an IP address, the policy allows. (A host name is checked when it resolves: the caller's
 * HTTP agent looks it up through {@link ipRefusal}.)
 */
export function callableUrlIssue(value: string, policy: PrivateAddresses): string | null {
  const issue = httpUrlIssue(value);
  if (issue !== null) return issue;
  const host = new URL(value).hostname;
  const refusal = ipRefusal(host, policy);
  return refusal === null ? null : `${host} ${refusal}`;
}
