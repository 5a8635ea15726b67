/**
 * The fields of a group, declared apart from the definition so the membership code (which the
 * definition's hooks and routes call) can be typed from them without a cycle.
 */
import { f } from '@fleet/engine';

export const GROUPS = 'groups';

export const groupFields = {
  name: f.string({ required: true, minLength: 1, maxLength: 200 }),
  type: f.integer({
    enum: [0, 1, 2, 3, 4],
    default: 0,
    description: '0 container, 1 rule, 2 master root, 3 gateway, 4 direct-attached',
  }),
  subgroups: f.array(f.ref(GROUPS, { onDelete: 'pull' }), { default: () => [] }),
  info: f.object(
    { regex: f.string({ maxLength: 256 }), grain: f.object({}, { open: true }), ip: f.string() },
    {
      default: () => ({}),
      description: 'Rule of a type 1 group: regex on the host name and/or grain equalities',
    },
  ),
  hosts: f.array(f.string(), {
    writeOnly: true,
    description: 'Host names to make the static members (write only)',
  }),
} as const;

/** The groups resource as the local API's `of` takes it. */
export const groupsRef = { name: GROUPS, fields: groupFields } as const;
