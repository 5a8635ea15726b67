/**
 * Large reads are admitted by their cost, per token and per process. A read costs one unit per
 * 100 items it asks for (`max_results`); a read of one unit (a page of up to 100 items, the
 * default 25) is never held, only started on a turn of the loop. Larger ones run while their token has at most
 * {@link AdmissionLimits.perToken} units in flight and the process at most
 * {@link AdmissionLimits.total}; past that they wait, and past {@link AdmissionLimits.queuePerToken}
 * units waiting for one token the read is refused with 429 and `Retry-After`. Waiting reads are
 * admitted in turn across tokens, so one token's queue never starves another's read, and each
 * starts on a turn of its own (turns.ts), never stacked with another start in one stretch of the
 * loop. The budget bounds how many large answers are built at once: the loop's share of each, and
 * the memory they hold.
 */
import { TooManyRequests } from '../errors';
import { nextTurn } from './turns';

/** Items per unit of cost. */
export const ITEMS_PER_UNIT = 100;

/** The budgets, in units. */
export interface AdmissionLimits {
  /** Units one token may have in flight. */
  readonly perToken: number;
  /** Units one token may have waiting; a read past them is a 429. */
  readonly queuePerToken: number;
  /** Units of large reads in flight in this process, every token together. */
  readonly total: number;
}

/** One 1,000-item page in flight per token and one more waiting; two such pages in the process at once. */
export const DEFAULT_ADMISSION: AdmissionLimits = { perToken: 10, queuePerToken: 20, total: 20 };

/** An admitted read: `release()` once its answer is sent (or abandoned); a second call does nothing. */
export interface Ticket {
  release(): void;
}

interface Waiter {
  readonly cost: number;
  readonly admit: () => void;
}

interface TokenState {
  inFlight: number;
  queuedCost: number;
  readonly queue: Waiter[];
}

/** The cost of a read of `maxResults` items, in units (1 for up to 100). */
export function readCost(maxResults: number): number {
  return Math.max(1, Math.ceil(maxResults / ITEMS_PER_UNIT));
}

const FREE: Ticket = { release: () => undefined };

/** The gate of one process. */
export class ReadAdmission {
  private inFlight = 0;
  private readonly tokens = new Map<string, TokenState>();
  /** Tokens with waiting reads, in the order they are served. */
  private readonly rotation: string[] = [];
  /** Recent time a unit of admitted read took, in ms (for Retry-After). */
  private msPerUnit = 50;

  constructor(readonly limits: AdmissionLimits = DEFAULT_ADMISSION) {}

  /**
   * Admits a read of `cost` units by `token`: on the next turn of the loop when the budgets allow
   * (a read of one unit always), after the reads ahead of it otherwise; throws 429 when the token
   * already has its share waiting. Every read starts on a turn of its own: the first stretch of
   * its work (the store's, unsliced) never runs beside another read's in one iteration of the loop.
   */
  async admit(token: string, cost: number): Promise<Ticket> {
    if (cost <= 1) {
      await nextTurn();
      return FREE;
    }
    const c = Math.min(cost, this.limits.perToken, this.limits.total);
    const state = this.stateOf(token);
    if (state.queue.length === 0 && this.fits(state, c)) this.take(state, c);
    else await this.wait(token, state, c);
    await nextTurn();
    return this.ticket(token, state, c);
  }

  /** Units in flight and waiting (tests, the bench). */
  load(): { inFlight: number; waiting: number } {
    let waiting = 0;
    for (const state of this.tokens.values()) waiting += state.queuedCost;
    return { inFlight: this.inFlight, waiting };
  }

  private stateOf(token: string): TokenState {
    let state = this.tokens.get(token);
    if (state === undefined) {
      state = { inFlight: 0, queuedCost: 0, queue: [] };
      this.tokens.set(token, state);
    }
    return state;
  }

  private fits(state: TokenState, cost: number): boolean {
    return state.inFlight + cost <= this.limits.perToken && this.inFlight + cost <= this.limits.total;
  }

  private take(state: TokenState, cost: number): void {
    state.inFlight += cost;
    this.inFlight += cost;
  }

  private wait(token: string, state: TokenState, cost: number): Promise<void> {
    if (state.queuedCost + cost > this.limits.queuePerToken) {
      const seconds = Math.max(1, Math.ceil(((state.inFlight + state.queuedCost) * this.msPerUnit) / 1000));
      throw new TooManyRequests(
        `max_results: too many large reads by token "${token}" at once (${this.limits.perToken} units in flight and ${this.limits.queuePerToken} waiting, a unit being ${ITEMS_PER_UNIT} items); wait for the answers in flight or ask for smaller pages; retry in ${seconds} s`,
        seconds,
      );
    }
    state.queuedCost += cost;
    if (state.queue.length === 0) this.rotation.push(token);
    return new Promise((admit) => state.queue.push({ cost, admit }));
  }

  private ticket(token: string, state: TokenState, cost: number): Ticket {
    const started = performance.now();
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        state.inFlight -= cost;
        this.inFlight -= cost;
        this.msPerUnit = 0.8 * this.msPerUnit + (0.2 * (performance.now() - started)) / cost;
        if (state.inFlight === 0 && state.queue.length === 0) this.tokens.delete(token);
        this.admitWaiting();
      },
    };
  }

  /** Admits waiting reads that fit now, one token after the other. */
  private admitWaiting(): void {
    for (let tried = 0; tried < this.rotation.length;) {
      const token = this.rotation.shift() as string;
      const state = this.stateOf(token);
      const head = state.queue[0];
      if (head !== undefined && this.fits(state, head.cost)) {
        state.queue.shift();
        state.queuedCost -= head.cost;
        this.take(state, head.cost);
        head.admit();
        tried = 0;
      } else tried += 1;
      if (state.queue.length > 0) this.rotation.push(token);
    }
  }
}
