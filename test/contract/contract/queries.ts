/** Store contract: query operators, nested and array fields, and count. */
import { at, type Case, type Context } from './fixtures';

/** Top-level operators on the fixture hosts. */
export const OPERATOR_CASES: readonly Case[] = [
  ['implicit equality', { status: 'up' }, ['h1', 'h3', 'h4']],
  ['$eq', { cpu: { $eq: 4 } }, ['h1', 'h4', 'h6']],
  ['$ne matches null and missing', { load: { $ne: 0.5 } }, ['h2', 'h3', 'h4', 'h5']],
  ['$gt', { cpu: { $gt: 4 } }, ['h2', 'h5']],
  ['$gte', { cpu: { $gte: 4 } }, ['h1', 'h2', 'h4', 'h5', 'h6']],
  ['$lt skips null', { load: { $lt: 1 } }, ['h1', 'h6']],
  ['$lte', { cpu: { $lte: 2 } }, ['h3']],
  ['two operators on one field', { cpu: { $gte: 4, $lt: 16 } }, ['h1', 'h2', 'h4', 'h6']],
  ['$in', { status: { $in: ['down', 'unknown'] } }, ['h2', 'h5', 'h6']],
  ['$in with null matches missing', { load: { $in: [null, 3] } }, ['h3', 'h4', 'h5']],
  ['$in empty', { status: { $in: [] } }, []],
  ['$nin matches null and missing', { load: { $nin: [0.5, 1.5] } }, ['h3', 'h4', 'h5']],
  ['$nin with null', { load: { $nin: [null, 0.5] } }, ['h2', 'h5']],
  ['null matches null and missing', { load: null }, ['h3', 'h4']],
  ['$ne null', { load: { $ne: null } }, ['h1', 'h2', 'h5', 'h6']],
  ['$exists true (null exists)', { load: { $exists: true } }, ['h1', 'h2', 'h3', 'h5', 'h6']],
  ['$exists false', { os: { $exists: false } }, ['h4', 'h6']],
  ['$regex with $options', { name: { $regex: '^eps', $options: 'i' } }, ['h5']],
  ['RegExp value', { name: /^[a-d]/ }, ['h1', 'h2', 'h4']],
  ['$not', { cpu: { $not: { $gt: 4 } } }, ['h1', 'h3', 'h4', 'h6']],
  ['$and', { $and: [{ status: 'up' }, { cpu: 4 }] }, ['h1', 'h4']],
  ['$or', { $or: [{ status: 'unknown' }, { cpu: 2 }] }, ['h3', 'h5']],
  ['$or with a regex branch', { $or: [{ name: /^z/ }, { cpu: 2 }] }, ['h3', 'h6']],
  ['$nor', { $nor: [{ status: 'up' }, { cpu: 16 }] }, ['h2', 'h6']],
  ['$all', { tags: { $all: ['web', 'prod'] } }, ['h1', 'h5']],
  ['$elemMatch', { fingerprint_history: { $elemMatch: { fp: 'bc', added: { $gt: at(2) } } } }, ['h2']],
  ['$size', { tags: { $size: 1 } }, ['h2', 'h4']],
  ['$size 0', { tags: { $size: 0 } }, ['h3']],
  ['$type null', { load: { $type: 'null' } }, ['h3']],
  ['$type number', { load: { $type: 'number' } }, ['h1', 'h2', 'h5', 'h6']],
  ['boolean', { active: false }, ['h2', 'h5']],
  ['boolean $ne matches missing', { active: { $ne: true } }, ['h2', 'h4', 'h5']],
  ['_id range', { _id: { $gt: 'h2', $lte: 'h4' } }, ['h3', 'h4']],
  ['_id $in', { _id: { $in: ['h6', 'h1', 'nope'] } }, ['h1', 'h6']],
  ['a value of another type matches nothing', { cpu: '4' }, []],
];

/** Dotted paths and array fields. */
export const NESTED_CASES: readonly Case[] = [
  ['dotted path', { 'os.family': 'debian' }, ['h1', 'h2']],
  ['dotted path $in', { 'os.version': { $in: ['11', '12'] } }, ['h1', 'h2']],
  ['dotted path missing parent', { 'os.family': null }, ['h4', 'h6']],
  ['equality on an array element', { tags: 'web' }, ['h1', 'h4', 'h5']],
  ['exact array', { tags: ['db'] }, ['h2']],
  ['array position', { 'tags.0': 'web' }, ['h1', 'h4', 'h5']],
  ['field of array elements', { 'fingerprint_history.fp': 'bb' }, ['h2']],
  ['datetime inside an array', { 'events.at': { $gte: at(6) } }, ['h6']],
];

/** Each operator case finds exactly its ids. */
export function queryOperatorsTests(ctx: Context): void {
  test.each(OPERATOR_CASES)('%s', async (_label, filter, expected) => {
    expect(await ctx.ids('hosts', filter)).toEqual(expected);
  });
}

/** Each nested case finds exactly its ids. */
export function nestedAndArrayFieldsTests(ctx: Context): void {
  test.each(NESTED_CASES)('%s', async (_label, filter, expected) => {
    expect(await ctx.ids('hosts', filter)).toEqual(expected);
  });
}

/** `count` with pushable, residual and mixed filters. */
export function countTests(ctx: Context): void {
  test.each([
    ['everything', {}, 6],
    ['a pushable filter', { status: 'up' }, 3],
    ['a range', { _created: { $gte: at(3) } }, 3],
    ['a regex', { name: /a/ }, 5],
    ['nothing', { status: 'gone' }, 0],
    ['a mixed $or', { $or: [{ tags: 'db' }, { cpu: 2 }] }, 3],
  ] as const)('%s', async (_label, filter, expected) => {
    expect(await ctx.store.count('hosts', filter)).toBe(expected);
  });
}
