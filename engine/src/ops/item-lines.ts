/**
 * One line per item: the read-modify-writes of one item in one process (a PATCH, a PUT, a DELETE)
 * take turns, in the order they were asked. A process never races itself: each write reads the
 * version the write before it committed, so it does not lose its precondition to its own
 * neighbours and redo its work on the next turn of the store's group commit (N writes of one hot
 * item would be O(N) lost races each). Only writers of other processes, and a hook writing the
 * item it prepares, can still change the item under a write, which then redoes it at once, still
 * in its turn (`lastWriteWins`), before the writes asked after it.
 *
 * A write whose code is already in the item's turn (a `prepare` hook patching its own item) goes
 * straight on: waiting for the turn it holds would never end. The lines are bounded: a write that
 * finds {@link MAX_LINE} ahead of it, or waits {@link TURN_WAIT_MS} for its turn, is a 503 to retry;
 * one that gives up leaves its place, which passes on as soon as its turn comes. A line with
 * nobody in it is forgotten.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ServiceUnavailable } from '../errors';
import type { OpsScope } from './context';

/** Writes of one item that may wait in its line; one more is refused at once. */
export const MAX_LINE = 1000;
/** How long a write may wait for its turn (ms): a line of hundreds, each a few ms, on a busy machine. */
export const TURN_WAIT_MS = 15_000;

interface Line {
  /** Settles when the last write in the line is done. */
  tail: Promise<void>;
  /** Places in the line, the running write's included (and those given up, until their turn). */
  length: number;
}

/** The items whose turn the running code holds. */
const inTurn = new AsyncLocalStorage<ReadonlySet<string>>();

/** Resolves true when `turn` settles, false after `ms` (its timer cleared either way). */
function turnWithin(turn: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void turn.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** The lines of one store's items (a process may open several stores: tests, imports). */
export class ItemLines {
  private readonly lines = new Map<string, Line>();

  constructor(
    private readonly limits: { maxLine: number; waitMs: number } = {
      maxLine: MAX_LINE,
      waitMs: TURN_WAIT_MS,
    },
  ) {}

  /** Items with someone in line (tests: no line outlives its writes). */
  get size(): number {
    return this.lines.size;
  }

  /** Runs `work` in the turn of item `key`, after the writes of it asked before. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const held = inTurn.getStore();
    if (held?.has(key)) return work();
    const line = this.lines.get(key) ?? { tail: Promise.resolve(), length: 0 };
    if (line.length >= this.limits.maxLine)
      throw new ServiceUnavailable(`${line.length} writes of this item are waiting already; try again`, 1);
    this.lines.set(key, line);
    const before = line.tail;
    let release = (): void => undefined;
    const done = new Promise<void>((resolve) => (release = resolve));
    line.tail = before.then(() => done);
    line.length += 1;
    const leave = (): void => {
      release();
      line.length -= 1;
      if (line.length === 0 && this.lines.get(key) === line) this.lines.delete(key);
    };
    if (!(await turnWithin(before, this.limits.waitMs))) {
      void before.then(leave);
      throw new ServiceUnavailable(
        `this write waited ${this.limits.waitMs / 1000} s for the writes of the same item asked before it; try again`,
        1,
      );
    }
    try {
      return await inTurn.run(new Set([...(held ?? []), key]), work);
    } finally {
      leave();
    }
  }
}

const byStore = new WeakMap<object, ItemLines>();

/** The item lines of `store` (one set per store object). */
export function itemLinesOf(store: object): ItemLines {
  let lines = byStore.get(store);
  if (!lines) byStore.set(store, (lines = new ItemLines()));
  return lines;
}

/** Runs `work` (a read-modify-write of item `id` of `s`'s collection) in that item's turn. */
export function inItemTurn<T>(s: OpsScope, id: string, work: () => Promise<T>): Promise<T> {
  return itemLinesOf(s.store).run(`${s.res.name}\u0000${id}`, work);
}
