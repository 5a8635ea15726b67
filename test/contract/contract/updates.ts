/** Store contract: `update` with each operator, multi, replacement, upsert and unique violations. */
import { BadRequest, Conflict } from '../../../engine/src/errors';
import type { Doc } from '../../../engine/src/store/port';
import { at, hosts, type Context } from './fixtures';

/** Update operators, multi, replacement, upsert and unique violations. */
export function updateTests(ctx: Context): void {
  const apply = async (update: Record<string, unknown>, id = 'h1'): Promise<Doc | undefined> => {
    await ctx.store.update('hosts', { _id: id }, update);
    return ctx.one(id);
  };
  test('$set, including a dotted path', async () => {
    expect(
      await ctx.store.update('hosts', { _id: 'h1' }, { $set: { status: 'down', 'os.version': '13' } }),
    ).toEqual({ matched: 1, modified: 1 });
    expect(await ctx.one('h1')).toMatchObject({ status: 'down', os: { family: 'debian', version: '13' } });
  });
  test('$unset', async () => {
    const h1 = await apply({ $unset: { load: '', 'os.version': '' } });
    expect(h1).not.toHaveProperty('load');
    expect(h1?.os).toEqual({ family: 'debian' });
  });
  test('$inc on an existing and a missing field', async () => {
    expect(await apply({ $inc: { cpu: 2, runs: 1 } })).toMatchObject({ cpu: 6, runs: 1 });
  });
  test('$mul', async () => {
    expect(await apply({ $mul: { cpu: 3 } })).toMatchObject({ cpu: 12 });
  });
  test('$push and $push with $each', async () => {
    expect((await apply({ $push: { tags: 'x' } }))?.tags).toEqual(['web', 'prod', 'x']);
    expect((await apply({ $push: { tags: { $each: ['y', 'z'] } } }))?.tags).toEqual([
      'web',
      'prod',
      'x',
      'y',
      'z',
    ]);
  });
  test('$pull with a value and with a condition', async () => {
    expect((await apply({ $pull: { tags: 'db' } }, 'h5'))?.tags).toEqual(['web', 'prod']);
    expect(
      (await apply({ $pull: { fingerprint_history: { added: { $gt: at(2) } } } }, 'h2'))?.fingerprint_history,
    ).toEqual([{ fp: 'bb', added: at(1) }]);
  });
  test('$addToSet adds once; a no-op is matched, not modified', async () => {
    expect((await apply({ $addToSet: { tags: 'new' } }))?.tags).toEqual(['web', 'prod', 'new']);
    expect(await ctx.store.update('hosts', { _id: 'h1' }, { $addToSet: { tags: 'web' } })).toEqual({
      matched: 1,
      modified: 0,
    });
  });
  test('$min and $max, on numbers and dates', async () => {
    expect(await apply({ $min: { cpu: 1 }, $max: { _created: at(9) } })).toMatchObject({
      cpu: 1,
      _created: at(9),
    });
    expect(await apply({ $min: { cpu: 5 }, $max: { _created: at(1) } })).toMatchObject({
      cpu: 1,
      _created: at(9),
    });
  });
  test('$rename', async () => {
    const h1 = await apply({ $rename: { cpu: 'cores' } });
    expect(h1).toMatchObject({ cores: 4 });
    expect(h1).not.toHaveProperty('cpu');
  });
  test('first match only unless multi', async () => {
    expect(await ctx.store.update('hosts', { status: 'up' }, { $set: { seen: true } })).toEqual({
      matched: 1,
      modified: 1,
    });
    expect(
      await ctx.store.update('hosts', { status: 'up' }, { $set: { seen: true } }, { multi: true }),
    ).toEqual({ matched: 3, modified: 2 });
    expect(await ctx.store.count('hosts', { seen: true })).toBe(3);
  });
  test('multi with a residual filter', async () => {
    expect(await ctx.store.update('hosts', { tags: 'prod' }, { $inc: { cpu: 1 } }, { multi: true })).toEqual({
      matched: 3,
      modified: 3,
    });
    expect(await ctx.ids('hosts', { cpu: { $in: [5, 17] } })).toEqual(['h1', 'h5', 'h6']);
  });
  test('no match, no upsert', async () => {
    expect(await ctx.store.update('hosts', { _id: 'nope' }, { $set: { a: 1 } })).toEqual({
      matched: 0,
      modified: 0,
    });
    expect(await ctx.store.count('hosts', {})).toBe(6);
  });
  test('a replacement document replaces everything but _id', async () => {
    expect(await ctx.store.update('hosts', { _id: 'h1' }, { name: 'alpha2', status: 'new' })).toEqual({
      matched: 1,
      modified: 1,
    });
    expect(await ctx.one('h1')).toEqual({ _id: 'h1', name: 'alpha2', status: 'new' });
  });
  test('changing _id is a BadRequest', async () => {
    await expect(ctx.store.update('hosts', { _id: 'h1' }, { _id: 'h9', name: 'x' })).rejects.toBeInstanceOf(
      BadRequest,
    );
    await expect(ctx.store.update('hosts', { _id: 'h1' }, { $set: { _id: 'h9' } })).rejects.toBeInstanceOf(
      BadRequest,
    );
    expect(await ctx.one('h1')).toEqual(hosts()[0]);
  });
  test('upsert inserts filter equalities + $set + $setOnInsert with a generated id', async () => {
    const result = await ctx.store.update(
      'hosts',
      { name: 'eta', status: 'new' },
      { $set: { cpu: 1 }, $setOnInsert: { _created: at(9) } },
      { upsert: true },
    );
    expect(result).toMatchObject({ matched: 0, modified: 0 });
    expect(result.upsertedId).toMatch(/^[0-9a-f]{24}$/);
    const [created] = await ctx.store.find('hosts', { name: 'eta' });
    expect(created).toEqual({ _id: result.upsertedId, name: 'eta', status: 'new', cpu: 1, _created: at(9) });
  });
  test('upsert keeps the filter _id; $setOnInsert is ignored on a match', async () => {
    expect(
      await ctx.store.update('hosts', { _id: 'h8' }, { $set: { name: 'theta' } }, { upsert: true }),
    ).toEqual({
      matched: 0,
      modified: 0,
      upsertedId: 'h8',
    });
    expect(
      await ctx.store.update(
        'hosts',
        { _id: 'h8' },
        { $set: { cpu: 2 }, $setOnInsert: { x: 1 } },
        { upsert: true },
      ),
    ).toEqual({ matched: 1, modified: 1 });
    expect(await ctx.one('h8')).toEqual({ _id: 'h8', name: 'theta', cpu: 2 });
  });
  test('a unique violation is a Conflict and changes nothing', async () => {
    await expect(
      ctx.store.update('hosts', { _id: 'h2' }, { $set: { name: 'alpha' } }),
    ).rejects.toBeInstanceOf(Conflict);
    await expect(ctx.store.update('hosts', { _id: 'h2' }, { $set: { name: 'alpha' } })).rejects.toMatchObject(
      { field: 'name' },
    );
    expect((await ctx.one('h2'))?.name).toBe('beta');
    // A multi update is not promised to be atomic (MongoDB's updateMany is not), only to reject.
    await expect(
      ctx.store.update('hosts', { cpu: 4 }, { $set: { name: 'same' } }, { multi: true }),
    ).rejects.toBeInstanceOf(Conflict);
  });
}
