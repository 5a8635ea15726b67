/**
 * The rest_cherrypy URL map (salt-api notes §2-3): `/` (welcome / lowstate), `/run`,
 * `/minions`, `/jobs`, `/keys`, `/events`, `/hook`, `/stats`, plus the auth endpoints.
 * Handlers stay thin: parse, call the lowstate/runner/wheel layer, render.
 */
import { Router, type Request, type Response } from 'express';
import { assertAcceptsJson, parseBody, toLowstate } from './body';
import { mountAuth, presentedSession, requireSession } from './auth-routes';
import { CLIENTS, funCall, type SimContext } from './context';
import { SimError, sendJson } from './http-errors';
import { runLowstate } from './lowstate';
import { runLocal } from './local';
import { runRunner } from './runners';
import type { Session } from './sessions';
import { runWheel } from './wheel';

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
  if (s === undefined) throw new SimError(401);
  return s.id;
}

function jobRoutes(ctx: SimContext, r: (m: 'get' | 'post', path: string, h: Handler) => void): void {
  r('get', '/jobs', async (req, res) => {
    const s = requireSession(ctx, req);
    const { ret } = await runRunner(ctx, { fun: 'jobs.list_jobs', args: [], kwargs: {}, user: s.user });
    sendJson(res, { return: [ret] });
  });
  r('get', '/jobs/:jid', async (req, res) => {
    const s = requireSession(ctx, req);
    const jid = String(req.params['jid']);
    const { ret } = await runRunner(ctx, { fun: 'jobs.list_job', args: [], kwargs: { jid }, user: s.user });
    const info = ret !== null && typeof ret === 'object' ? (ret as Record<string, unknown>) : {};
    const result = (info['Result'] ?? {}) as Record<string, { return: unknown }>;
    sendJson(res, { info: [info], return: [Object.fromEntries(Object.entries(result).map(([id, v]) => [id, v.return]))] });
  });
}

function minionAndKeyRoutes(ctx: SimContext, r: (m: 'get' | 'post', path: string, h: Handler) => void): void {
  const grains = async (req: Request, res: Response, tgt: string): Promise<void> => {
    const s = requireSession(ctx, req);
    ctx.stats.byFun['local:grains.items'] = (ctx.stats.byFun['local:grains.items'] ?? 0) + 1;
    sendJson(res, { return: [await runLocal(ctx, { client: 'local', tgt, fun: 'grains.items' }, s.user)] });
  };
  r('get', '/minions', (req, res) => grains(req, res, '*'));
  r('get', '/minions/:mid', (req, res) => grains(req, res, String(req.params['mid'])));
  r('post', '/minions', async (req, res) => {
    const s = requireSession(ctx, req);
    const chunks = toLowstate(parseBody(req)).map((c) => ({ ...c, client: 'local_async' }));
    const ret = await runLowstate(ctx, chunks, s);
    const jobs = ret.flatMap((x) => (x !== null && typeof x === 'object' && 'jid' in x ? [{ href: `/jobs/${String(x.jid)}` }] : []));
    sendJson(res, { return: ret, _links: { jobs } }, 202);
  });
  // /keys answers the wheel's `data.return` directly, not wrapped in a list.
  r('get', '/keys', (req, res) => {
    const s = requireSession(ctx, req);
    sendJson(res, { return: runWheel(ctx, funCall({ fun: 'key.list_all' }, s.user, true)).data['return'] });
  });
  r('get', '/keys/:mid', (req, res) => {
    const s = requireSession(ctx, req);
    sendJson(res, { return: runWheel(ctx, funCall({ fun: 'key.finger', match: String(req.params['mid']) }, s.user, true)).data['return'] });
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
    for (const chunk of toLowstate(parseBody(req))) out.push(...(await runLowstate(ctx, [chunk], runCredentials(ctx, chunk))));
    sendJson(res, { return: out });
  });
  mountAuth(router, ctx);
  jobRoutes(ctx, r);
  minionAndKeyRoutes(ctx, r);
  r('get', '/events', (req, res) => {
    const id = eventsSession(ctx, req);
    ctx.bus.attach(res, () => ctx.sessions.isValid(id));
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
