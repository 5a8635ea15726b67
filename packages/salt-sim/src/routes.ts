/**
 * The rest_cherrypy URL map (salt/netapi/__init__.py, salt/client/__init__.py, salt/netapi/rest_cherrypy/app.py): `/` (welcome / lowstate), `/run`,
 * `/minions`, `/jobs`, `/keys`, `/events`, `/hook`, `/stats`, plus the auth endpoints.
 * Handlers stay thin: parse, call the lowstate/runner/wheel layer, render.
 */
import { Router, type Request, type Response } from 'express';
import { assertAcceptsJson, parseBody, toLowstate } from './body';
import { mountAuth, presentedSession, requireSession } from './auth-routes';
import { CLIENTS, type SimContext } from './context';
import { SimError, sendJson } from './http-errors';
import { runLowstate } from './lowstate';
import type { Session } from './sessions';
import { atLeast } from './version';

type Handler = (req: Request, res: Response) => Promise<void> | void;

/** `/run`: each chunk carries eauth credentials or a Salt eauth token (not a session id). */
function runCredentials(ctx: SimContext, chunk: Record<string, unknown>): Session {
  const token = chunk['token'];
  if (token !== undefined) {
    if (typeof token !== 'string' || !/^[0-9a-f]+$/.test(token)) throw new SimError(401, 'Invalid token');
    const s = ctx.sessions.bySaltToken(token);
    if (s === undefined) throw new SimError(401, 'Authentication error occurred.');
    return s;
  }
  if (chunk['eauth'] === undefined) throw new SimError(401, 'No authentication credentials given');
  const s = ctx.sessions.login(chunk['username'], chunk['password'], chunk['eauth']);
  if (s === undefined) throw new SimError(401, 'Authentication error occurred.');
  return s;
}

/** `/events` auth: `?token=` session id, `?salt_token=`, the header or the cookie. */
function eventsSession(ctx: SimContext, req: Request): string {
  const q = req.query;
  const saltToken = typeof q['salt_token'] === 'string' ? q['salt_token'] : undefined;
  const id = (typeof q['token'] === 'string' ? q['token'] : undefined) ?? presentedSession(req);
  if (saltToken !== undefined) {
    const s = ctx.sessions.bySaltToken(saltToken);
    if (s === undefined) throw new SimError(401);
    return s.id;
  }
  if (id !== undefined && !/^[0-9a-f]+$/.test(id)) throw new SimError(401, 'Invalid token');
  const s = ctx.sessions.touch(id);
  // `_is_valid_token`: the session's Salt token must still resolve at the master.
  if (s === undefined || !ctx.sessions.saltTokenValid(s)) throw new SimError(401);
  return s.id;
}

/** One lowstate chunk built by a convenience URL, run as `POST /` would run it. */
async function one(ctx: SimContext, session: Session, chunk: Record<string, unknown>): Promise<unknown> {
  const [ret] = await runLowstate(ctx, [chunk], session);
  return ret;
}

function jobRoutes(ctx: SimContext, r: (m: 'get' | 'post', path: string, h: Handler) => void): void {
  // app.py Jobs.GET builds `{client: runner, fun: jobs.list_jobs}` or `{..., fun: jobs.list_job, jid}`.
  r('get', '/jobs', async (req, res) => {
    const s = requireSession(ctx, req);
    sendJson(res, { return: [await one(ctx, s, { client: 'runner', fun: 'jobs.list_jobs' })] });
  });
  r('get', '/jobs/:jid', async (req, res) => {
    const s = requireSession(ctx, req);
    const jid = String(req.params['jid']);
    const ret = await one(ctx, s, { client: 'runner', fun: 'jobs.list_job', jid });
    const info = ret !== null && typeof ret === 'object' ? (ret as Record<string, unknown>) : {};
    const result = (info['Result'] ?? {}) as Record<string, { return: unknown }>;
    sendJson(res, {
      info: [info],
      return: [Object.fromEntries(Object.entries(result).map(([id, v]) => [id, v.return]))],
    });
  });
}

function minionAndKeyRoutes(ctx: SimContext, r: (m: 'get' | 'post', path: string, h: Handler) => void): void {
  // app.py Minions.GET: `{client: local, tgt: mid or '*', fun: grains.items}`.
  const grains = async (req: Request, res: Response, tgt: string): Promise<void> => {
    const s = requireSession(ctx, req);
    sendJson(res, { return: [await one(ctx, s, { client: 'local', tgt, fun: 'grains.items' })] });
  };
  r('get', '/minions', (req, res) => grains(req, res, '*'));
  r('get', '/minions/:mid', (req, res) => grains(req, res, String(req.params['mid'])));
  r('post', '/minions', async (req, res) => {
    const s = requireSession(ctx, req);
    const chunks = toLowstate(parseBody(req)).map((c) => ({ ...c, client: 'local_async' }));
    const ret = await runLowstate(ctx, chunks, s);
    const jobs = ret.flatMap((x) =>
      x !== null && typeof x === 'object' && 'jid' in x ? [{ href: `/jobs/${String(x.jid)}` }] : [],
    );
    sendJson(res, { return: ret, _links: { jobs } }, 202);
  });
  // app.py Keys.GET: `{client: wheel, fun: key.list_all}` or `{..., fun: key.finger, match: mid}`;
  // it answers the wheel's `data.return` directly, not wrapped in a list.
  const wheelReturn = (ret: unknown): unknown =>
    ret !== null && typeof ret === 'object'
      ? (ret as { data?: { return?: unknown } }).data?.return
      : undefined;
  r('get', '/keys', async (req, res) => {
    const s = requireSession(ctx, req);
    sendJson(res, { return: wheelReturn(await one(ctx, s, { client: 'wheel', fun: 'key.list_all' })) });
  });
  r('get', '/keys/:mid', async (req, res) => {
    const s = requireSession(ctx, req);
    sendJson(res, {
      return: wheelReturn(
        await one(ctx, s, { client: 'wheel', fun: 'key.finger', match: String(req.params['mid']) }),
      ),
    });
  });
}

/** Builds the router with every salt-api endpoint. */
export function saltApiRouter(ctx: SimContext): Router {
  const router = Router();
  const r = (method: 'get' | 'post', path: string, h: Handler): void => {
    router[method](path, async (req, res) => {
      if (path !== '/events') assertAcceptsJson(req);
      await h(req, res);
    });
  };
  router.get('/', (_req, res) => {
    sendJson(res, { return: 'Welcome', clients: [...CLIENTS] });
  });
  r('post', '/', async (req, res) => {
    const session = requireSession(ctx, req);
    sendJson(res, { return: await runLowstate(ctx, toLowstate(parseBody(req)), session) });
  });
  r('post', '/run', async (req, res) => {
    const out: unknown[] = [];
    for (const chunk of toLowstate(parseBody(req)))
      out.push(...(await runLowstate(ctx, [chunk], runCredentials(ctx, chunk))));
    sendJson(res, { return: out });
  });
  mountAuth(router, ctx);
  jobRoutes(ctx, r);
  minionAndKeyRoutes(ctx, r);
  r('get', '/events', (req, res) => {
    const id = eventsSession(ctx, req);
    // The stream ends at token expiry only from 3005 on (issue #53742); a 2018.3 stream never does.
    ctx.bus.attach(res, () => !atLeast(ctx.settings.masterVersion, '3005') || ctx.sessions.isValid(id));
  });
  r('post', '/hook{/*path}', (req, res) => {
    requireSession(ctx, req);
    const raw: unknown = req.body;
    const body = Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
    const post = parseBody(req) ?? {};
    ctx.bus.fire(`salt/netapi/hook${req.path.replace(/^\/hook/, '')}`, { body, post, headers: req.headers });
    sendJson(res, { success: true });
  });
  r('get', '/stats', (req, res) => {
    requireSession(ctx, req);
    sendJson(res, {});
  });
  return router;
}
