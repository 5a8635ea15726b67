/** Store contract: `ensureCollection` is idempotent; a closed store rejects with ServiceUnavailable. */
import { ServiceUnavailable } from '../../../engine/src/errors';
import { HOSTS, type Context } from './fixtures';

/** Idempotent `ensureCollection`; calls after close reject. */
export function lifecycleTests(ctx: Context): void {
  test('ensureCollection is idempotent', async () => {
    await ctx.store.ensureCollection(HOSTS);
    expect(await ctx.store.count('hosts', {})).toBe(6);
  });
  test('after close, calls reject with ServiceUnavailable', async () => {
    await ctx.store.close();
    await expect(ctx.store.find('hosts', {})).rejects.toBeInstanceOf(ServiceUnavailable);
    await expect(ctx.store.insert('hosts', [{ _id: 'x' }])).rejects.toBeInstanceOf(ServiceUnavailable);
  });
}
