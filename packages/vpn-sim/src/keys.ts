/**
 * Profile downloads (handlers/key.py, moved to `/data/...` in 1.32.4465; notes §3.6): the
 * `.tar` of one `<org>_<user>_<server>.ovpn` per attached server the user's groups allow
 * (empty when none), and one server's profile as `<server_id>.key`. Both need no CSRF
 * (`session_light_auth`). A missing organization or user raises in the handler: 500.
 */
import type { Call, SimContext } from './context';
import type { SimOrg, SimServer, SimUser } from './model';
import { argId } from './orgs';
import { abort, GIN_NOT_FOUND, type SimResponse } from './wire';

const BLOCK = 512;

/** One ustar header + data, padded to 512-byte blocks (POSIX.1-1988). */
function tarEntry(name: string, data: Buffer, mtime: number): Buffer {
  const header = Buffer.alloc(BLOCK);
  header.write(name.slice(0, 99), 0, 'utf8');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write(
    `${Math.floor(mtime / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
  );
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0' + '00', 257);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const padding = Buffer.alloc((BLOCK - (data.length % BLOCK)) % BLOCK);
  return Buffer.concat([header, data, padding]);
}

/** A tar archive (`tarfile.open(mode='w')`), ending with two zero blocks. */
export function buildTar(files: readonly { name: string; data: Buffer }[], mtime: number): Buffer {
  return Buffer.concat([...files.map((f) => tarEntry(f.name, f.data, mtime)), Buffer.alloc(BLOCK * 2)]);
}

function pem(label: string, bytes: Buffer): string {
  const b64 = bytes
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim();
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----`;
}

/** An OpenVPN client profile shaped like `user.build_key_conf` output (fake key material). */
function ovpn(ctx: SimContext, org: SimOrg, user: SimUser, server: SimServer): string {
  return [
    `# ${org.name}_${user.name}_${server.name}`,
    `setenv UV_ID ${user.id}`,
    `setenv UV_NAME ${user.name}`,
    'client',
    'dev tun',
    'dev-type tun',
    `remote ${ctx.publicAddress} ${server.port} ${server.protocol}`,
    'remote-random',
    'nobind',
    'persist-tun',
    'cipher AES-256-CBC',
    'auth SHA256',
    'verb 2',
    'mute 3',
    'push-peer-info',
    'ping 10',
    'ping-restart 60',
    'hand-window 70',
    'server-poll-timeout 4',
    'reneg-sec 2592000',
    'sndbuf 393216',
    'rcvbuf 393216',
    'remote-cert-tls server',
    `<ca>\n${pem('CERTIFICATE', ctx.gen.bytes(96))}\n</ca>`,
    `<cert>\n${pem('CERTIFICATE', ctx.gen.bytes(96))}\n</cert>`,
    `<key>\n${pem('PRIVATE KEY', ctx.gen.bytes(96))}\n</key>`,
    '',
  ].join('\n');
}

/** `Server.check_groups`: a server without groups serves everyone. */
function allows(server: SimServer, user: SimUser): boolean {
  return server.groups.length === 0 || server.groups.some((g) => user.groups.includes(g));
}

function load(
  ctx: SimContext,
  orgParam: string | undefined,
  userParam: string,
): { org: SimOrg; user: SimUser } | undefined {
  const org = ctx.state.organizations.get(argId(orgParam) ?? '');
  const user = ctx.state.users.get(argId(userParam) ?? '');
  return org === undefined || user === undefined ? undefined : { org, user };
}

/**
 * `GET /data/<org_id>/<file>`: `<user_id>.tar` is the archive; `<user_id>` alone is the
 * session_auth key-links call (not simulated: answered as the proxy answers an unknown route);
 * `.zip` and `.onc` are not simulated either.
 */
export function dataGet(ctx: SimContext, call: Call): SimResponse {
  const file = call.params.file ?? '';
  if (!file.endsWith('.tar')) return GIN_NOT_FOUND;
  const found = load(ctx, call.params.org_id, file.slice(0, -'.tar'.length));
  if (found === undefined) return abort(500);
  const { org, user } = found;
  const servers = [...ctx.state.servers.values()].filter(
    (s) => s.organizations.includes(org.id) && allows(s, user),
  );
  const files = servers.map((s) => ({
    name: `${org.name}_${user.name}_${s.name}.ovpn`,
    data: Buffer.from(ovpn(ctx, org, user, s)),
  }));
  return {
    status: 200,
    body: buildTar(files, ctx.clock.now()),
    contentType: 'application/octet-stream',
    headers: { 'Content-Disposition': `attachment; filename="${user.name}.tar"` },
  };
}

/** `GET /data/<org_id>/<user_id>/<server_id>.key`: one profile, mimetype `application/ovpn`. */
export function dataServerGet(ctx: SimContext, call: Call): SimResponse {
  const file = call.params.file ?? '';
  if (!file.endsWith('.key')) return GIN_NOT_FOUND;
  const found = load(ctx, call.params.org_id, call.params.user_id ?? '');
  const server = ctx.state.servers.get(argId(file.slice(0, -'.key'.length)) ?? '');
  if (found === undefined || server === undefined || !server.organizations.includes(found.org.id))
    return abort(500);
  const name = `${found.org.name}_${found.user.name}_${server.name}.ovpn`;
  return {
    status: 200,
    body: ovpn(ctx, found.org, found.user, server),
    contentType: 'application/ovpn',
    headers: { 'Content-Disposition': `attachment; filename="${name}"` },
  };
}

/** `GET /ping` (open route) answers the text `OK` (notes §4). */
export function ping(): SimResponse {
  return { status: 200, body: 'OK', contentType: 'text/html; charset=utf-8' };
}
