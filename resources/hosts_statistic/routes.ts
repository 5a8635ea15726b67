/**
 * The five statistics routes (spec "Aggregated host statistics"), one path each with the
 * parameters it reads and the answer it gives, so a generated client types each call without a
 * union: `online` points, and the host-name lists of `unique_online`, `unique_updated`,
 * `unique_dist_upgraded` and `new_hosts`. statistics.ts parses their queries (the engine answers
 * 400 naming a parameter that is wrong) and computes them.
 */
import type { CustomRoute, Fields, routeFor } from '@fleet/engine';
import { z } from 'zod';
import { compiledSnapshots, listsQuery, onlineQuery, statistic, type StatisticKind } from './statistics';

const names = (what: string) => z.array(z.string()).describe(what);

/** Each statistic: its summary and what it answers (an array, as the spec has it). */
const KINDS: Readonly<Record<StatisticKind, { summary: string; response: z.ZodType }>> = {
  online: {
    summary: 'Hosts up and down at each snapshot of the period',
    response: z.array(
      z.object({
        timestamp: z.string().describe('The snapshot time (RFC 1123)'),
        _id: z.null(),
        hostnames: z.object({ up: z.number().int().min(0), down: z.number().int().min(0) }),
      }),
    ),
  },
  unique_online: {
    summary: 'Hosts up at least once in the period, among all hosts seen in it',
    response: z.array(
      z.object({
        hostnames: z.object({ up: names('Up at least once'), all: names('Every host seen in the period') }),
      }),
    ),
  },
  unique_updated: {
    summary: 'Hosts whose last state.apply falls in the period, among all hosts seen in it',
    response: z.array(
      z.object({
        hostnames: z.object({
          updated: names('last_stateapply in the period'),
          all: names('Every host seen in the period'),
        }),
      }),
    ),
  },
  unique_dist_upgraded: {
    summary: 'Hosts whose last distribution upgrade falls in the period, among all hosts seen in it',
    response: z.array(
      z.object({
        hostnames: z.object({
          distUpgraded: names('last_distupgrade in the period'),
          all: names('Every host seen in the period'),
        }),
      }),
    ),
  },
  new_hosts: {
    summary: 'Hosts first seen in the period',
    response: z.array(z.object({ hostnames: z.object({ new: names('First seen in the period') }) })),
  },
};

/**
 * GET /api/hosts/statistics/<kind>, for each of the five kinds, declared by `route` (the hosts'
 * `routeFor`: the routes are mounted under hosts).
 */
export function statisticsRoutes<F extends Fields>(route: ReturnType<typeof routeFor<F>>): CustomRoute<F>[] {
  const common = (kind: StatisticKind) => ({
    method: 'get' as const,
    path: `/statistics/${kind}`,
    role: 'viewer' as const,
    summary: KINDS[kind].summary,
    description: 'Aggregated over the host-list snapshots of the period; soft-deleted hosts are left out.',
    response: KINDS[kind].response,
  });
  return (Object.keys(KINDS) as StatisticKind[]).map((kind) =>
    kind === 'online'
      ? route({
          ...common(kind),
          query: onlineQuery,
          handler: async (req) => ({ body: await statistic(kind, req, compiledSnapshots) }),
        })
      : route({
          ...common(kind),
          query: listsQuery,
          handler: async (req) => ({ body: await statistic(kind, req, compiledSnapshots) }),
        }),
  );
}
