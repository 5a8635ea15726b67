/**
 * The line of one item's writes in a process (engine/src/ops/item-lines.ts): the writes take
 * turns in the order asked, a write already in the item's turn (a hook writing its own item) goes
 * straight on, a failed write passes its turn on, the line is bounded in length and in wait, and
 * no line outlives its writes.
 */
import { ServiceUnavailable } from '../../engine/src/errors';
import { ItemLines } from '../../engine/src/ops/item-lines';

/** A promise and its resolver, to hold a write in its turn until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

test('the writes of one item take turns in the order asked; other items do not wait', async () => {
  const lines = new ItemLines();
  const order: string[] = [];
  const first = gate();
  const a = lines.run('k', async () => {
    order.push('a starts');
    await first.promise;
    order.push('a ends');
  });
  const b = lines.run('k', async () => void order.push('b'));
  await lines.run('other', async () => void order.push('other item'));
  expect(order).toEqual(['a starts', 'other item']);
  first.open();
  await Promise.all([a, b]);
  expect(order).toEqual(['a starts', 'other item', 'a ends', 'b']);
  expect(lines.size).toBe(0);
});

test('a write in the turn of its item (a hook writing the item it prepares) goes straight on', async () => {
  const lines = new ItemLines();
  const nested = await lines.run('k', () => lines.run('k', async () => 'nested done'));
  expect(nested).toBe('nested done');
  expect(lines.size).toBe(0);
});

test('a write that fails passes its turn on', async () => {
  const lines = new ItemLines();
  const failing = lines.run('k', () => Promise.reject(new Error('refused')));
  const next = lines.run('k', async () => 'next ran');
  await expect(failing).rejects.toThrow('refused');
  await expect(next).resolves.toBe('next ran');
  expect(lines.size).toBe(0);
});

test('a full line refuses one more write at once with a 503; the others still run', async () => {
  const lines = new ItemLines({ maxLine: 2, waitMs: 60_000 });
  const first = gate();
  const a = lines.run('k', () => first.promise);
  const b = lines.run('k', async () => 'b');
  await expect(lines.run('k', async () => 'c')).rejects.toBeInstanceOf(ServiceUnavailable);
  first.open();
  await expect(Promise.all([a, b])).resolves.toEqual([undefined, 'b']);
  expect(lines.size).toBe(0);
});

test('a write that waits too long for its turn is a 503 and leaves its place to the next', async () => {
  const lines = new ItemLines({ maxLine: 10, waitMs: 1 });
  const first = gate();
  const a = lines.run('k', () => first.promise);
  const gaveUp = lines.run('k', async () => 'never');
  await expect(gaveUp).rejects.toThrow(/waited 0.001 s for the writes of the same item/);
  first.open();
  await a;
  // The place given up passes on at once: the next write runs after the first, and the line ends.
  await expect(lines.run('k', async () => 'after')).resolves.toBe('after');
  expect(lines.size).toBe(0);
});
