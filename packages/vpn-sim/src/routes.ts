/**
 * The route table: pritunl-web's registrations (handlers/handlers.go) with, for each, the
 * proxy group (`openAuth` or `authGroup`, which runs `Authorize`), the Go struct the body is
 * bound to, and the Flask decorator of the handler it reaches (`open_auth`,
 * `session_light_auth` or `session_auth`). Any other path or method is gin's 404.
 */
import { login, logout, stateGet } from './auth';
import { since, type Call, type SimContext } from './context';
import { ping, profileKeyGet, profileTarGet } from './keys';
import { orgDelete, orgGet, orgPost, orgPut } from './orgs';
import { serverOperationPut, serverOrgDelete, serverOrgPut, serverOrgsGet, serversGet } from './servers';
import { userPut } from './user-put';
import { userDelete, userGet, userPost } from './users';
import { abort, GIN_NOT_FOUND, STRUCTS, type GoStruct, type SimResponse } from './wire';

export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Express path; also the key of `stats.byRoute`. */
  readonly path: string;
  /** `auth`: pritunl-web's `authGroup` (token cookie checked); `open`: `openAuth`. */
  readonly proxy: 'open' | 'auth';
  /** The Flask decorator: `session` checks the CSRF token, `light` does not. */
  readonly flask: 'open' | 'light' | 'session';
  readonly struct?: GoStruct;
  /** The body is a JSON array of `struct` (`/user/<org>/multi`). */
  readonly array?: boolean;
  /**
   * For a route some releases do not serve: what they answer instead, before any check of the
   * session (gin's 404 when pritunl-web has no such route, Flask's when Flask has none).
   */
  readonly missing?: (ctx: SimContext) => SimResponse | undefined;
  readonly handle: (
    ctx: SimContext,
    call: Call,
    bodies: readonly Readonly<Record<string, unknown>>[],
  ) => SimResponse | Promise<SimResponse>;
}

const route = (r: Route): Route => r;

/** Before 1.32.4465.96 pritunl-web registers no `/data` route (handlers.go): gin's 404. */
const dataMissing = (ctx: SimContext): SimResponse | undefined =>
  since(ctx, 'dataRoutes') ? undefined : GIN_NOT_FOUND;
/** From 1.32.4465.96 Flask serves profiles at `/data` only (handlers/key.py): Flask's 404. */
const keyMissing = (ctx: SimContext): SimResponse | undefined =>
  since(ctx, 'dataRoutes') ? abort(404) : undefined;

export const ROUTES: readonly Route[] = [
  route({
    method: 'POST',
    path: '/auth/session',
    proxy: 'open',
    flask: 'open',
    struct: STRUCTS.authSession,
    handle: login,
  }),
  route({ method: 'DELETE', path: '/auth/session', proxy: 'open', flask: 'open', handle: logout }),
  route({ method: 'GET', path: '/state', proxy: 'auth', flask: 'light', handle: stateGet }),
  route({ method: 'GET', path: '/ping', proxy: 'open', flask: 'open', handle: ping }),
  route({ method: 'GET', path: '/organization', proxy: 'auth', flask: 'session', handle: orgGet }),
  route({ method: 'GET', path: '/organization/:org_id', proxy: 'auth', flask: 'session', handle: orgGet }),
  route({
    method: 'POST',
    path: '/organization',
    proxy: 'auth',
    flask: 'session',
    struct: STRUCTS.orgPost,
    handle: orgPost,
  }),
  route({
    method: 'PUT',
    path: '/organization/:org_id',
    proxy: 'auth',
    flask: 'session',
    struct: STRUCTS.orgPut,
    handle: orgPut,
  }),
  route({
    method: 'DELETE',
    path: '/organization/:org_id',
    proxy: 'auth',
    flask: 'session',
    handle: orgDelete,
  }),
  route({ method: 'GET', path: '/user/:org_id', proxy: 'auth', flask: 'session', handle: userGet }),
  route({ method: 'GET', path: '/user/:org_id/:user_id', proxy: 'auth', flask: 'session', handle: userGet }),
  route({
    method: 'POST',
    path: '/user/:org_id',
    proxy: 'auth',
    flask: 'session',
    struct: STRUCTS.userPost,
    handle: (c, k, b) => userPost(c, k, b),
  }),
  route({
    method: 'POST',
    path: '/user/:org_id/multi',
    proxy: 'auth',
    flask: 'session',
    struct: STRUCTS.userPost,
    array: true,
    handle: (c, k, b) => userPost(c, k, b),
  }),
  route({
    method: 'PUT',
    path: '/user/:org_id/:user_id',
    proxy: 'auth',
    flask: 'session',
    struct: STRUCTS.userPut,
    handle: userPut,
  }),
  route({
    method: 'DELETE',
    path: '/user/:org_id/:user_id',
    proxy: 'auth',
    flask: 'session',
    handle: userDelete,
  }),
  route({
    method: 'GET',
    path: '/data/:org_id/:file',
    proxy: 'auth',
    flask: 'light',
    missing: dataMissing,
    handle: (c, k) => profileTarGet(c, k, 'data'),
  }),
  route({
    method: 'GET',
    path: '/data/:org_id/:user_id/:file',
    proxy: 'auth',
    flask: 'light',
    missing: dataMissing,
    handle: (c, k) => profileKeyGet(c, k, 'data'),
  }),
  // pritunl-web forwards every `/key/...` path (openAuth `keyGet`): Flask decides.
  route({
    method: 'GET',
    path: '/key/:org_id/:file',
    proxy: 'open',
    flask: 'light',
    missing: keyMissing,
    handle: (c, k) => profileTarGet(c, k, 'key'),
  }),
  route({
    method: 'GET',
    path: '/key/:org_id/:user_id/:file',
    proxy: 'open',
    flask: 'light',
    missing: keyMissing,
    handle: (c, k) => profileKeyGet(c, k, 'key'),
  }),
  route({ method: 'GET', path: '/server', proxy: 'auth', flask: 'session', handle: serversGet }),
  route({ method: 'GET', path: '/server/:server_id', proxy: 'auth', flask: 'session', handle: serversGet }),
  route({
    method: 'GET',
    path: '/server/:server_id/organization',
    proxy: 'auth',
    flask: 'session',
    handle: serverOrgsGet,
  }),
  route({
    method: 'PUT',
    path: '/server/:server_id/organization/:org_id',
    proxy: 'auth',
    flask: 'session',
    handle: serverOrgPut,
  }),
  route({
    method: 'DELETE',
    path: '/server/:server_id/organization/:org_id',
    proxy: 'auth',
    flask: 'session',
    handle: serverOrgDelete,
  }),
  route({
    method: 'PUT',
    path: '/server/:server_id/operation/:operation',
    proxy: 'auth',
    flask: 'session',
    handle: serverOperationPut,
  }),
];
