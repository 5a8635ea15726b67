/**
 * The definition file `fleet new-resource <name>` writes: the README's worked example in small —
 * fields of the common kinds with their rules, a declared relation, a server-set field, roles per
 * method, an index and a default sort, and a `prepare` hook — so it is served, validated, stored,
 * documented and covered by the generic tests as it is, and each line shows an option to change
 * (docs/authoring.md).
 */

/** A TypeScript single-quoted string literal of `text`. */
function quoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\r?\n/g, ' ')}'`;
}

/** The source of `resources/<name>.ts`. */
export function resourceSource(name: string, description: string): string {
  return `/**
 * ${name}: ${description.replace(/\*\//g, '* /')}
 *
 * Made by \`fleet new-resource ${name}\` and registered in resources/index.ts: served at /api/${name}
 * with validation (422 naming the field), the envelope and links, roles, its table and indexes,
 * and its OpenAPI schema. Change the fields, roles and hook to fit: docs/authoring.md explains
 * each option.
 */
import { defineResource, f, Unprocessable } from '@fleet/engine';

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
  methods: { list: 'viewer', get: 'viewer', create: 'operator', patch: 'operator', delete: 'admin' },
  indexes: [{ fields: [['state', 1], ['priority', -1]] }],
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
});
`;
}
