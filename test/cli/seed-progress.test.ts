/**
 * The seed's progress on stderr: a bar with the items, the rate and the time left on a terminal;
 * a line every few seconds otherwise (a log, a CI job), never one per batch.
 */
import { openSqliteStore } from '../../engine/src/store/sqlite';
import { createLogger } from '../../packages/server/src/logger';
import { seedFleet, seedTotal } from '../../packages/server/src/seed/fleet';
import { seedProgress, type ProgressStream } from '../../packages/server/src/seed/progress';
import { runtimeOver } from '../helpers';

/** A stream that keeps what is written; a terminal or not. */
function capture(isTTY: boolean): ProgressStream & { text(): string } {
  const chunks: string[] = [];
  // The bar moves the cursor through readline, which calls these on a terminal stream.
  const terminal = { columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true };
  return {
    isTTY,
    ...(isTTY ? terminal : {}),
    write(text: string) {
      chunks.push(text);
      return true;
    },
    text: () => chunks.join(''),
  };
}

describe('seed progress', () => {
  it('off a terminal: one line every 5 s with the count, the share, the rate and the time left', () => {
    const stream = capture(false);
    let now = 1_000_000;
    const progress = seedProgress({ total: 100_000, stream, now: () => now });
    for (let i = 0; i < 9; i++) {
      now += 1000;
      progress.add(5000); // 5,000 items a second
    }
    progress.done();
    expect(stream.text().split('\n').filter(Boolean)).toEqual([
      'seed: 25,000 of 100,000 items (25%), 5,000 items/s, about 15 s left',
    ]);
  });

  it('off a terminal: a longer seed says minutes', () => {
    const stream = capture(false);
    let now = 0;
    const progress = seedProgress({ total: 1_000_000, stream, everyMs: 2000, now: () => now });
    now = 2000;
    progress.add(10_000);
    expect(stream.text()).toBe(
      'seed: 10,000 of 1,000,000 items (1%), 5,000 items/s, about 3 min 18 s left\n',
    );
  });

  it('on a terminal: a bar with the items, the rate and the time left', async () => {
    const stream = capture(true);
    let now = 0;
    const progress = seedProgress({ total: 1000, stream, now: () => now });
    now = 2000;
    progress.add(400);
    progress.done();
    const text = stream.text();
    expect(text).toMatch(/seed \[=+-+\] 40% \| 400\/1000 items \| 200 items\/s \| \S+ left/);
    expect(text).not.toMatch(/^seed: /m);
  });

  it('counts every item the seed writes, up to the total it announced', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    try {
      const runtime = await runtimeOver(store, createLogger('silent'));
      let written = 0;
      const options = { hosts: 40, actions: 300, snapshots: 3, batchSize: 25 };
      const result = await seedFleet(runtime, { ...options, onWritten: (n) => (written += n) });
      const counted = Object.values(result.counts).reduce((a, b) => a + b, 0);
      expect(written).toBe(counted);
      expect(seedTotal(options)).toBe(counted);
    } finally {
      await store.close();
    }
  });
});
