/**
 * The definition file `fleet new-resource <name>` writes: the README's worked example in small —
 * fields of the common kinds with their rules, a declared relation, a server-set field, roles per
 * method, an index and a default sort, a `prepare` hook and a custom route writing as the system
 * principal — so it is served, validated, stored, documented and covered by the generic tests as
 * it is, and each line shows an option to change (docs/authoring.md).
 */

/** The description a new resource starts with. */
export function defaultDescription(name: string): string {
  return `What one item of ${name} is and who writes it: say it here (it heads its section of the API docs).`;
}

/** A TypeScript single-quoted string literal of `text`. */
function quoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\r?\n/g, ' ')}'`;
}

/** The source of `resources/<name>.ts`. */
export function resourceSource(name: string, description: string): string {
  return `/**
 * ${name}: ${description.replace(/\*\//g, '* /')}
 *
 * Made by \`fleet new-resource ${name}\` and registered in resources/registry.ts: served at /api/${name}
 * with validation (422 naming the field), the envelope and links, roles, its table and indexes,
 * and its OpenAPI schema. Change the fields, roles and hook to fit: docs/authoring.md explains
 * each option.
 */
import { defineResource, f, systemContext, Unprocessable } from '@fleet/engine';

export const ${name} = defineResource({
  name: '${name}',
  description: ${quoted(description)},
  fields: {
    title: f.string({ required: true, minLength: 1, maxLength: 200 }),
    // One of a fixed list; anything else is a 422 naming the field.
    state: f.string({ enum: ['planned', 'active', 'done'], default: 'planned' }),
    priority: f.integer({ min: 0, max: 10, default: 5 }),
    // A declared relation: the group must exist (422), and deleting the group sets this to null.
    group: f.ref('groups', { nullable: true, default: null, onDelete: 'nullify' }),
    starts: f.datetime({ nullable: true, default: null }),
    ends: f.datetime({ nullable: true, default: null }),
    tags: f.array(f.string({ maxLength: 50 }), { default: () => [] }),
    // Server-set: a client that sends it gets 422; hooks and routes write it as the system principal.
    closed_by: f.string({ readonly: true, nullable: true, default: null }),
  },
  // A valid item, the one the generic tests create (they fill in the references): it keeps the hook's rule.
  sample: () => ({ title: 'rack 12 move', starts: new Date('2030-01-01T02:00:00Z'), ends: new Date('2030-01-01T04:00:00Z') }),
  methods: { list: 'viewer', get: 'viewer', create: 'operator', patch: 'operator', delete: 'admin' },
  indexes: [{ fields: [['state', 1]] }],
  defaultSort: [['priority', -1]],
  hooks: {
    // Runs for every writer (HTTP, other hooks, integrations), typed from the fields above.
    async prepare({ fields, original }) {
      const starts = fields.starts ?? original?.starts;
      const ends = fields.ends ?? original?.ends;
      if (starts && ends && ends < starts) throw new Unprocessable('${name}: it ends before it starts', { ends: 'must not be before starts' });
      return fields;
    },
  },
  routes: [
    {
      // POST /api/${name}/{id}/close, mounted before the generic routes: never read as an item id.
      method: 'post',
      path: '/:id/close',
      role: 'operator',
      summary: 'Marks the item done and records who closed it',
      renders: { as: 'write' },
      async handler({ params, ctx, resource, ifMatch }) {
        const item = await resource.get(params.id ?? '', ctx); // 404 when missing
        // \`closed_by\` is server-set: the system principal writes it, on the caller's behalf.
        const options = ifMatch === undefined ? {} : { ifMatch };
        const closed = await resource.patch(item._id, { state: 'done', closed_by: ctx.principal.name }, systemContext(ctx.runtime, ctx.now), options);
        return { write: closed };
      },
    },
  ],
});
`;
}
