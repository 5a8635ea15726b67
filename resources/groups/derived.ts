/**
 * Group membership kept, not recomputed per request (upkeep.ts keeps these; membership.ts reads
 * them). Static members need nothing kept: a host's `groups` list has an element index. Rule
 * matches are stored per host as the keys of the rules it matches (rules.ts), and each distinct
 * rule once its hosts are computed. Internal: no HTTP methods.
 */
import { defineResource, f } from '@fleet/engine';

/** Per host (by its id): the keys of the group rules it matches; hosts matching none have no item. */
export const host_rules = defineResource({
  name: 'host_rules',
  description: 'The keys of the group rules each host matches, kept as hosts and groups change (internal).',
  id: 'natural',
  fields: {
    rules: f.array(f.string(), { default: () => [], description: 'Keys of the rules the host matches' }),
  },
  methods: {},
  // `{rules: {$in: keys}}`: the hosts of a group's rules, from the list's element index.
  indexes: [{ fields: [['rules', 1]] }],
});

/**
 * Per distinct rule (by its key): the rule, present once every host has been matched against it.
 * A rule no group has any more is removed with its keys on the hosts.
 */
export const group_rules = defineResource({
  name: 'group_rules',
  description: 'The distinct rules of the groups whose hosts are computed (internal).',
  id: 'natural',
  fields: {
    regex: f.string({ nullable: true, default: null }),
    grain: f.object({}, { open: true, nullable: true, default: null }),
  },
  methods: {},
});
