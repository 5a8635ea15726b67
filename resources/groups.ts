/**
 * groups: containers (type 0) of subgroups, rule groups (type 1: `info.regex` / `info.grain`), and
 * the graph's master root (2), gateways (3) and direct-attached hosts (4). Any group may also have
 * static members: `hosts` in a write sets those hosts' `groups`.
 */
import { BadRequest, defineResource, f, isPlainObject, NotFound, Unprocessable, type CallContext, type Doc } from '@fleet/engine';
import { unsafeRegexReason } from '@fleet/engine/src/query/regex-guard';
import { hostnamesOf, wouldCycle } from './groups/membership';
import { jsonBody, master } from './lib/master';
import { touched } from './lib/touch';

async function checkSubgroups(ctx: CallContext, subgroups: string[], selfId: string | undefined): Promise<void> {
  const store = ctx.runtime.store;
  const ids = [...new Set(subgroups)];
  const found = await store.find('groups', { _id: { $in: ids } }, { projection: { _id: 1 } });
  const missing = ids.filter((id) => !found.some((g) => g._id === id));
  if (missing.length > 0) throw new Unprocessable('groups: unknown subgroup', { subgroups: `unknown group id(s): ${missing.join(', ')}` });
  if (selfId !== undefined && (await wouldCycle(store, selfId, ids))) {
    throw new Unprocessable('groups: the subgroups would make a cycle', { subgroups: 'a group cannot contain itself, directly or through its subgroups' });
  }
}

async function checkHosts(ctx: CallContext, hosts: string[]): Promise<void> {
  const found = await ctx.runtime.store.find('hosts', { _id: { $in: hosts }, _soft_deleted: { $ne: true } }, { projection: { _id: 1 } });
  const missing = hosts.filter((h) => !found.some((d) => d._id === h));
  if (missing.length > 0) throw new Unprocessable('groups: unknown host', { hosts: `unknown host(s): ${missing.slice(0, 20).join(', ')}` });
}

/** Makes exactly `hosts` the static members of group `id`. */
async function setMembers(ctx: CallContext, id: string, hosts: string[]): Promise<void> {
  const store = ctx.runtime.store;
  const set = touched(ctx.now);
  await store.update('hosts', { groups: id, _id: { $nin: hosts } }, { $pull: { groups: id }, $set: set }, { multi: true });
  await store.update('hosts', { _id: { $in: hosts }, groups: { $ne: id } }, { $addToSet: { groups: id }, $set: set }, { multi: true });
}

const DELETE_USAGE = 'where: DELETE /groups takes {"type": n}, {"type": [n, ...]} or {"type": {"$in": [n, ...]}}';

/** The group types named by the `where` of DELETE /groups (the spec: an integer or an array of them). */
function typesToDelete(raw: unknown): number[] {
  let where: unknown;
  try {
    where = typeof raw === 'string' ? JSON.parse(raw) : undefined;
  } catch {
    throw new BadRequest(DELETE_USAGE);
  }
  if (!isPlainObject(where) || Object.keys(where).join() !== 'type') throw new BadRequest(DELETE_USAGE);
  const type = where.type;
  const list: unknown = isPlainObject(type) && Object.keys(type).join() === '$in' ? type.$in : Array.isArray(type) ? type : [type];
  if (!Array.isArray(list) || list.length === 0 || !list.every((t) => Number.isInteger(t))) throw new BadRequest(DELETE_USAGE);
  return list as number[];
}

async function group(ctx: CallContext, id: string): Promise<Doc> {
  const [doc] = await ctx.runtime.store.find('groups', { _id: id }, { limit: 1 });
  if (!doc) throw new NotFound(`Group "${id}" was not found`);
  return doc;
}

export const groups = defineResource({
  name: 'groups',
  description: 'Groups of hosts: containers, rule groups, and the graph groups built by POST /api/graph.',
  fields: {
    name: f.string({ required: true, minLength: 1, maxLength: 200 }),
    type: f.integer({ enum: [0, 1, 2, 3, 4], default: 0, description: '0 container, 1 rule, 2 master root, 3 gateway, 4 direct-attached' }),
    subgroups: f.array(f.ref('groups'), { default: () => [] }),
    info: f.object(
      { regex: f.string({ maxLength: 256 }), grain: f.object({}, { open: true }), ip: f.string() },
      { default: () => ({}), description: 'Rule of a type 1 group: regex on the host name and/or grain equalities' },
    ),
    hosts: f.array(f.string(), { writeOnly: true, description: 'Host names to make the static members (write only)' }),
  },
  methods: { list: 'viewer', get: 'viewer', create: 'admin', patch: 'admin', delete: 'admin', deleteMany: 'admin' },
  indexes: [{ fields: [['type', 1]] }],
  hooks: {
    async prepare({ fields, extras, original, ctx }) {
      const info = fields.info as { regex?: string } | undefined;
      const why = info?.regex === undefined ? null : unsafeRegexReason(info.regex);
      if (why) throw new Unprocessable('groups: bad rule', { 'info.regex': why });
      if (Array.isArray(fields.subgroups)) {
        fields.subgroups = [...new Set(fields.subgroups as string[])];
        await checkSubgroups(ctx, fields.subgroups as string[], original?._id);
      }
      if (Array.isArray(extras.hosts)) {
        extras.hosts = [...new Set(extras.hosts as string[])];
        await checkHosts(ctx, extras.hosts as string[]);
      }
      return fields;
    },
    async afterWrite({ doc, extras, ctx }) {
      if (Array.isArray(extras.hosts)) await setMembers(ctx, doc._id, extras.hosts as string[]);
    },
    async afterDelete({ doc, ctx }) {
      const store = ctx.runtime.store;
      const set = touched(ctx.now);
      await store.update('groups', { subgroups: doc._id }, { $pull: { subgroups: doc._id }, $set: set }, { multi: true });
      await store.update('hosts', { groups: doc._id }, { $pull: { groups: doc._id }, $set: set }, { multi: true });
    },
  },
  routes: [
    {
      // '' is the collection itself: this replaces the generic where-delete, whose Mongo semantics
      // would read {"type": [2, 3]} as "type equals the array" and delete nothing.
      method: 'delete',
      path: '',
      role: 'admin',
      summary: 'Deletes every group of the given type(s): where={"type": n} or {"type": [n, ...]}',
      async handler({ query, ctx }) {
        const deleted = await ctx.runtime.resources.get('groups').removeMany({ type: { $in: typesToDelete(query.where) } }, ctx);
        return { status: 204, headers: { 'X-Deleted-Count': String(deleted) } };
      },
    },
    {
      method: 'get',
      path: '/:id/subgroups',
      role: 'viewer',
      summary: 'The ids of the direct subgroups of the group',
      handler: async ({ params, ctx }) => ({ body: ((await group(ctx, params.id ?? '')).subgroups as string[] | undefined) ?? [] }),
    },
    {
      method: 'get',
      path: '/:id/hostnames',
      role: 'viewer',
      summary: 'Host names of the group and all its nested subgroups (static members and rule matches)',
      handler: async ({ params, ctx }) => ({ body: await hostnamesOf(ctx.runtime.store, await group(ctx, params.id ?? '')) }),
    },
    {
      method: 'post',
      path: '/:id',
      role: 'operator',
      summary: 'Runs a Salt function on every host of the group (tgt: its host names, tgt_type: list)',
      async handler({ params, body, ctx }) {
        const service = master(ctx);
        const targets = await hostnamesOf(ctx.runtime.store, await group(ctx, params.id ?? ''));
        if (targets.length === 0) throw new Unprocessable('group has no hosts');
        return { body: await service.execute({ targets, kind: 'group', body: jsonBody(body) }, ctx) };
      },
    },
  ],
});
