/**
 * The master route group (`/api/master`): what concerns the Salt master as a whole rather than one
 * collection. `POST /api/master/sync` runs the fleet sync now instead of waiting for SYNC_INTERVAL_S.
 */
import { defineRoutes } from '@fleet/engine';
import { master, syncResponse } from './ports/master';

export const masterRoutes = defineRoutes({
  base: 'master',
  description: 'The Salt master as a whole.',
  routes: [
    {
      method: 'post',
      path: '/sync',
      role: 'admin',
      summary: 'Runs the fleet sync now (hosts, keys, nodegroups, missed job returns) and answers its report',
      response: syncResponse,
      handler: async ({ ctx }) => ({ body: { _status: 'OK', ...(await master(ctx).syncNow(ctx)) } }),
    },
  ],
});
