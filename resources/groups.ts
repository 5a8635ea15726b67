/**
 * groups: containers (type 0) of subgroups, rule groups (type 1: `info.regex` / `info.grain`), and
 * the graph's master root (2), gateways (3) and direct-attached hosts (4). Any group may also have
 * static members: `hosts` in a write sets those hosts' `groups`. Subgroups and members must exist
 * (declared references); deleting a group pulls it from its parents and its hosts.
 */
import {
  BadRequest,
  compileMatcher,
  defineResource,
  routeFor,
  isPlainObject,
  systemContext,
  Unprocessable,
  unsafeRegexReason,
  type CallContext,
} from '@fleet/engine';
import { z } from 'zod';
import { GROUPS, groupFields } from './groups/fields';
import { hostnamesOf, wouldCycle } from './groups/membership';
import { ruleFilter, ruleKey, ruleOf } from './groups/rules';
import { afterRuleChanges } from './groups/upkeep';
import { hosts } from './hosts';
import { executionRequest, executionResponse, master } from './ports/master';

/** Refuses hosts that do not exist (or are hidden): members are named, not referenced, so checked here. */
async function checkHosts(ctx: CallContext, names: readonly string[]): Promise<void> {
  const found = new Set(
    (
      await ctx.runtime.resources
        .of(hosts)
        .find({ where: { _id: { $in: [...names] } }, projection: { _id: 1 } }, ctx)
    ).map((h) => h._id),
  );
  const missing = names.filter((h) => !found.has(h));
  if (missing.length > 0)
    throw new Unprocessable('groups: unknown host', {
      hosts: `unknown host(s): ${missing.slice(0, 20).join(', ')}`,
    });
}

/**
 * Makes exactly `members` the static members of group `id`. The hosts' `groups` are changed by the
 * service on the admin's behalf (a group write is admin-only), each host in one batch.
 */
async function setMembers(ctx: CallContext, id: string, members: readonly string[]): Promise<void> {
  const api = ctx.runtime.resources.of(hosts);
  const wanted = new Set(members);
  const affected = await api.find(
    { where: { $or: [{ groups: id }, { _id: { $in: [...members] } }] }, projection: { groups: 1 } },
    ctx,
  );
  const changes = affected.flatMap((h) => {
    const has = h.groups.includes(id);
    if (wanted.has(h._id) === has) return [];
    return [{ _id: h._id, groups: has ? h.groups.filter((g) => g !== id) : [...h.groups, id] }];
  });
  if (changes.length > 0) await api.upsertMany(changes, systemContext(ctx.runtime, ctx.now));
}

/** The routes of the groups, typed by their fields. */
const groupRoute = routeFor<typeof groupFields>();

/** The key of a group's rule, or null. */
function ruleKeyOf(group: { readonly info?: Parameters<typeof ruleOf>[0] }): string | null {
  const rule = ruleOf(group.info);
  return rule === null ? null : ruleKey(rule);
}

/** Why a rule cannot be evaluated on hosts (an unknown operator, a malformed value), or null. */
function unevaluableReason(filter: Record<string, unknown>): string | null {
  try {
    compileMatcher(filter);
    return null;
  } catch (err) {
    return err instanceof BadRequest ? err.message : 'the rule cannot be evaluated';
  }
}

const DELETE_USAGE = 'DELETE /groups takes {"type": n}, {"type": [n, ...]} or {"type": {"$in": [n, ...]}}';

/** The group types named by the `where` of DELETE /groups (the spec: an integer or an array of them). */
function typesToDelete(raw: string): number[] | undefined {
  let where: unknown;
  try {
    where = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isPlainObject(where) || Object.keys(where).join() !== 'type') return undefined;
  const type = where.type;
  const list: unknown =
    isPlainObject(type) && Object.keys(type).join() === '$in'
      ? type.$in
      : Array.isArray(type)
        ? type
        : [type];
  if (!Array.isArray(list) || list.length === 0 || !list.every((t): t is number => Number.isInteger(t)))
    return undefined;
  return list;
}

/** The query of DELETE /groups: `where` naming the types, parsed into them (400 naming `where`). */
const deleteQuery = z
  .object({
    where: z
      .string()
      .describe('{"type": n}, {"type": [n, ...]} or {"type": {"$in": [n, ...]}}')
      .meta({ examples: ['{"type": [2, 3, 4]}'] }),
  })
  .transform((query, ctx) => {
    const types = typesToDelete(query.where);
    if (types === undefined) ctx.addIssue({ code: 'custom', path: ['where'], message: DELETE_USAGE });
    return { types: types ?? [] };
  });

export const groups = defineResource({
  name: GROUPS,
  description: 'Groups of hosts: containers, rule groups, and the graph groups built by POST /api/graph.',
  fields: groupFields,
  methods: {
    list: 'viewer',
    get: 'viewer',
    create: 'admin',
    patch: 'admin',
    delete: 'admin',
    deleteMany: 'admin',
  },
  indexes: [{ fields: [['type', 1]] }],
  hooks: {
    async prepare({ fields, extras, original, ctx }) {
      const regex = fields.info?.regex;
      // The rule runs as a `$regex` on the host names: the same rules as a `where` pattern (linear
      // time here; MongoDB's own engine backtracks, so nested quantifiers are refused on both).
      const why = regex === undefined ? null : unsafeRegexReason(regex);
      if (why) throw new Unprocessable('groups: bad rule', { 'info.regex': why });
      const rule = ruleOf({ ...original?.info, ...fields.info });
      const ruleWhy = rule === null ? null : unevaluableReason(ruleFilter(rule));
      if (ruleWhy) throw new Unprocessable('groups: bad rule', { 'info.grain': ruleWhy });
      if (fields.subgroups && original && (await wouldCycle(ctx, original._id, fields.subgroups))) {
        throw new Unprocessable('groups: the subgroups would make a cycle', {
          subgroups: 'a group cannot contain itself, directly or through its subgroups',
        });
      }
      if (extras.hosts) await checkHosts(ctx, [...new Set(extras.hosts)]);
      return fields;
    },
    async afterWrite({ doc, extras, ctx }) {
      if (extras.hosts) await setMembers(ctx, doc._id, [...new Set(extras.hosts)]);
    },
    async afterWriteBatch({ writes, ctx }) {
      // A new rule is matched against every host before the write answers; an old one goes.
      const changed = writes.some(
        (w) => ruleKeyOf(w.doc) !== (w.original === undefined ? null : ruleKeyOf(w.original)),
      );
      if (changed) await afterRuleChanges(ctx.runtime);
    },
  },
  routes: [
    groupRoute({
      // '' is the collection itself: this replaces the generic where-delete, whose Mongo semantics
      // would read {"type": [2, 3]} as "type equals the array" and delete nothing.
      method: 'delete',
      path: '',
      role: 'admin',
      summary: 'Deletes every group of the given type(s): where={"type": n} or {"type": [n, ...]}',
      query: deleteQuery,
      noContent: true,
      async handler({ query, ctx, resource }) {
        const deleted = await resource.deleteMany({ type: { $in: query.types } }, ctx);
        return { status: 204, headers: { 'X-Deleted-Count': String(deleted) } };
      },
    }),
    {
      method: 'get',
      path: '/:id/subgroups',
      role: 'viewer',
      summary: 'The ids of the direct subgroups of the group',
      response: z.array(z.string()),
      handler: async ({ params, ctx, resource }) => ({
        body: (await resource.get(params.id ?? '', ctx)).subgroups,
      }),
    },
    {
      method: 'get',
      path: '/:id/hostnames',
      role: 'viewer',
      summary: 'Host names of the group and all its nested subgroups (static members and rule matches)',
      response: z.array(z.string()),
      handler: async ({ params, ctx, resource }) => ({
        body: await hostnamesOf(ctx, await resource.get(params.id ?? '', ctx)),
      }),
    },
    groupRoute({
      method: 'post',
      path: '/:id',
      execution: true,
      role: 'operator',
      summary: 'Runs a Salt function on every host of the group (tgt: its host names, tgt_type: list)',
      body: executionRequest,
      response: executionResponse,
      async handler({ params, body, ctx, resource }) {
        const service = master(ctx);
        const targets = await hostnamesOf(ctx, await resource.get(params.id ?? '', ctx));
        if (targets.length === 0) throw new Unprocessable('group has no hosts');
        return { body: await service.execute({ targets, kind: 'group', body }, ctx) };
      },
    }),
  ],
});
