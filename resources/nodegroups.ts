/**
 * nodegroups: read from the master's configuration by the fleet sync (compound expressions:
 * `E@` -> regex, `G@k:v` -> grain, `L@a,b` -> names). Read-only; fetched by name.
 */
import { defineResource, f } from '@fleet/engine';

export const nodegroups = defineResource({
  name: 'nodegroups',
  description: "Nodegroups of the master's configuration (read-only; the item id is the nodegroup name).",
  id: 'natural',
  idFrom: 'name',
  fields: {
    name: f.string({ required: true, readonly: true }),
    type: f.integer({ default: 1, readonly: true }),
    info: f.object(
      {
        regex: f.string(),
        grain: f.object({}, { open: true }),
        hosts: f.array(f.string()),
        expression: f.string(),
      },
      { readonly: true, default: () => ({}), description: 'The parsed compound expression' },
    ),
  },
  methods: { list: 'viewer', get: 'viewer' },
  defaultSort: [['_id', 1]],
});
