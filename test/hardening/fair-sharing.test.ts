/**
 * Fair sharing of the event loop, by the order of events and by counting, never by times: long
 * work goes in slices with one turn per iteration of the loop (engine/src/fair/turns.ts), so
 * whatever else is waiting runs between two slices; large reads are admitted by their cost per
 * token and per process (engine/src/fair/admission.ts), waiting in turn across tokens, and a
 * token past its share waiting is refused with 429 and `Retry-After`.
 */
import { HttpError } from '../../engine/src';
import { ReadAdmission, readCost, type Ticket } from '../../engine/src/fair/admission';
import { mapInSlices, nextTurn, setSliceMs } from '../../engine/src/fair/turns';

describe('turns of the loop', () => {
  test('one slice per iteration: a callback queued meanwhile runs after at most one slice', async () => {
    const events: string[] = [];
    const task = async (name: string) => {
      for (let i = 0; i < 3; i += 1) {
        events.push(`${name}${i}`);
        await nextTurn();
      }
    };
    const tasks = ['a', 'b', 'c'].map(task);
    setImmediate(() => events.push('other'));
    await Promise.all(tasks);
    // Three tasks waiting for a turn: `setImmediate` per task would run a1, b1, c1 before `other`.
    expect(events.slice(0, 5)).toEqual(['a0', 'b0', 'c0', 'a1', 'other']);
    // Every slice came, each task's in order, the tasks taking turns.
    expect(events.filter((e) => e !== 'other')).toEqual([
      'a0',
      'b0',
      'c0',
      'a1',
      'b1',
      'c1',
      'a2',
      'b2',
      'c2',
    ]);
  });

  test('a long map lets others run between its slices, and keeps every item in order', async () => {
    const before = setSliceMs(0);
    try {
      const events: string[] = [];
      const items = Array.from({ length: 64 }, (_, i) => i);
      const mapped = mapInSlices(items, (i) => {
        if (i % 16 === 0) events.push(`slice from ${i}`);
        return i * 2;
      });
      const others = Promise.all([0, 1, 2].map(() => nextTurn().then(() => events.push('other'))));
      expect(await mapped).toEqual(items.map((i) => i * 2));
      await others;
      // The others asked for their turns while the first slice ran: each comes before the map ends.
      expect(events.indexOf('other')).toBeGreaterThan(0);
      expect(events.lastIndexOf('other')).toBeLessThan(events.indexOf('slice from 48'));
    } finally {
      setSliceMs(before);
    }
  });
});

describe('admission of large reads', () => {
  const limits = { perToken: 10, queuePerToken: 20, total: 20 };

  test('the cost of a read is one unit per 100 items asked for', () => {
    expect([1, 25, 100, 101, 250, 1000].map(readCost)).toEqual([1, 1, 1, 2, 3, 10]);
  });

  test('a read of one unit is never held, whatever is in flight', async () => {
    const gate = new ReadAdmission(limits);
    const held = await Promise.all([gate.admit('a', 10), gate.admit('b', 10)]);
    for (let i = 0; i < 50; i += 1) (await gate.admit('a', 1)).release();
    expect(gate.load()).toEqual({ inFlight: 20, waiting: 0 });
    for (const t of held) t.release();
    expect(gate.load()).toEqual({ inFlight: 0, waiting: 0 });
  });

  test("a token's reads past its budget wait, then past its queue are refused with 429 and Retry-After", async () => {
    const gate = new ReadAdmission(limits);
    const first = await gate.admit('viewer', 10);
    const admitted: string[] = [];
    const second = gate.admit('viewer', 10).then((t) => (admitted.push('second'), t));
    const third = gate.admit('viewer', 10).then((t) => (admitted.push('third'), t));
    expect(gate.load()).toEqual({ inFlight: 10, waiting: 20 });
    const refused = await gate.admit('viewer', 10).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(HttpError);
    const http = refused as HttpError;
    expect(http.status).toBe(429);
    expect(http.headers?.['Retry-After']).toMatch(/^[1-9]\d*$/);
    expect(http.message).toMatch(/^max_results: too many large reads by token "viewer" at once/);
    expect(admitted).toEqual([]);
    first.release();
    (await second).release();
    (await third).release();
    expect(admitted).toEqual(['second', 'third']);
    expect(gate.load()).toEqual({ inFlight: 0, waiting: 0 });
  });

  test('waiting reads are admitted in turn across tokens: a busy token does not starve another', async () => {
    // One large read at a time in the process.
    const gate = new ReadAdmission({ ...limits, total: 10 });
    const order: string[] = [];
    const admit = (token: string, label: string): Promise<Ticket> =>
      gate.admit(token, 10).then((t) => (order.push(label), t));
    const a1 = await admit('a', 'a1');
    const a2 = admit('a', 'a2');
    const a3 = admit('a', 'a3');
    const b1 = admit('b', 'b1');
    await nextTurn();
    expect(order).toEqual(['a1']);
    a1.release();
    (await a2).release();
    // b's read comes before a's third, though that was queued first.
    (await b1).release();
    (await a3).release();
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3']);
    expect(gate.load()).toEqual({ inFlight: 0, waiting: 0 });
  });

  test("a token at its own budget waits while another token's read takes the free room", async () => {
    const gate = new ReadAdmission(limits);
    const order: string[] = [];
    const admit = (token: string, label: string): Promise<Ticket> =>
      gate.admit(token, 10).then((t) => (order.push(label), t));
    const a1 = await admit('a', 'a1');
    const b1 = await admit('b', 'b1');
    const a2 = admit('a', 'a2');
    const c1 = admit('c', 'c1');
    b1.release();
    // a still has a1 in flight (its budget is full): c takes the room b left.
    (await c1).release();
    expect(order).toEqual(['a1', 'b1', 'c1']);
    a1.release();
    (await a2).release();
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2']);
    expect(gate.load()).toEqual({ inFlight: 0, waiting: 0 });
  });

  test('a read larger than the budget runs alone, and a release twice counts once', async () => {
    const gate = new ReadAdmission(limits);
    const huge = await gate.admit('a', 50);
    expect(gate.load().inFlight).toBe(10);
    huge.release();
    huge.release();
    expect(gate.load()).toEqual({ inFlight: 0, waiting: 0 });
  });
});
