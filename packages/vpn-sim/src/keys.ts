/**
 * Profile downloads (handlers/key.py): the `.tar` of one `<org>_<user>_<server>.ovpn`
 * per attached server the user's groups allow (empty when none), and one server's profile as
 * `<server_id>.key`. Both need no CSRF (`session_light_auth`). A missing organization or user
 * raises in the handler: 500.
 *
 * Where: `/key/<org>/<user>.tar` until 1.32.4465.96; from it `/data/<org>/<user>.tar`
 * (5540ea534). Before, pritunl-web registers no `/data` route: gin's `404 page not found`.
 * After, it still forwards `/key/...` (its key-link routes), where Flask has no such route
 * any more: Flask's `404: Not Found`.
 */
import { since, type Call, type SimContext } from './context';
import type { SimOrg, SimServer, SimUser } from './model';
import { argId } from './orgs';
import { buildTar } from './tar';
import { allows } from './user-rules';
import { abort, GIN_NOT_FOUND, type SimResponse } from './wire';

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

function load(
  ctx: SimContext,
  orgParam: string | undefined,
  userParam: string,
): { org: SimOrg; user: SimUser } | undefined {
  const org = ctx.state.organizations.get(argId(orgParam) ?? '');
  const user = ctx.state.users.get(argId(userParam) ?? '');
  return org === undefined || user === undefined ? undefined : { org, user };
}

/** Whether the release serves profiles under `prefix` (`data` or `key`). */
function served(ctx: SimContext, prefix: 'data' | 'key'): boolean {
  return since(ctx, 'dataRoutes') === (prefix === 'data');
}

/** The answer for a profile route the release does not serve. */
function notServed(prefix: 'data' | 'key'): SimResponse {
  return prefix === 'data' ? GIN_NOT_FOUND : abort(404);
}

/**
 * The `.tar`'s Content-Disposition name: NFKD and ASCII only since 1.30.3012.75 (66b195eb3 "Fix
 * unicode filename"); before, `usr.name` as it is: its latin-1 bytes (HTTP clients that read
 * this header as UTF-8 get U+FFFD for them), and a name latin-1 cannot carry fails (500).
 */
function tarFilename(ctx: SimContext, name: string): string | undefined {
  const below = (limit: number) => (c: string) => c.charCodeAt(0) < limit;
  if (since(ctx, 'asciiFilename')) return [...name.normalize('NFKD')].filter(below(0x80)).join('');
  return [...name].every(below(0x100)) ? name : undefined;
}

/**
 * `GET /<prefix>/<org_id>/<file>`: `<user_id>.tar` is the archive; `<user_id>` alone is the
 * session_auth key-links call (not simulated: answered as an unknown route); `.zip` and `.onc`
 * are not simulated either.
 */
export function profileTarGet(ctx: SimContext, call: Call, prefix: 'data' | 'key'): SimResponse {
  const file = call.params.file ?? '';
  if (!served(ctx, prefix)) return notServed(prefix);
  if (!file.endsWith('.tar')) return notServed(prefix);
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
  const filename = tarFilename(ctx, user.name);
  if (filename === undefined) return abort(500);
  return {
    status: 200,
    body: buildTar(files, ctx.clock.now(), ctx.tarFormat),
    contentType: 'application/octet-stream',
    headers: { 'Content-Disposition': `attachment; filename="${filename}.tar"` },
  };
}

/** `GET /<prefix>/<org_id>/<user_id>/<server_id>.key`: one profile, mimetype `application/ovpn`. */
export function profileKeyGet(ctx: SimContext, call: Call, prefix: 'data' | 'key'): SimResponse {
  const file = call.params.file ?? '';
  if (!served(ctx, prefix) || !file.endsWith('.key')) return notServed(prefix);
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

/** `GET /ping` (open route) answers the text `OK` (pritunl/handlers/, pritunl/utils/). */
export function ping(): SimResponse {
  return { status: 200, body: 'OK', contentType: 'text/html; charset=utf-8' };
}
