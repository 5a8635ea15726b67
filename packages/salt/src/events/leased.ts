/**
 * The event stream's one reader in a deployment: every instance asks for the `salt-events` lease
 * (@fleet/duties) and only its holder reads `GET /events` (index.ts), so each event is handled
 * once however many instances run. When the holder dies, another instance takes the lease within
 * the lease's time and opens the stream; since events may have passed while nobody read them, a
 * reader that takes over from an earlier one (any reader recorded on this store: another
 * instance's, or this one's before a restart) asks for a repair sync once its stream is open, as
 * after every reconnect. A holder that loses the lease drops the events still arriving (the new
 * reader handles them) and closes its stream.
 */
import { DUTIES, dutyRecord, LeaseKeeper, noteDuty, type DutyContext } from '@fleet/duties';
import { stampNow } from '@fleet/engine';
import { startEventConsumer, type EventConsumerOptions } from './index';

/** Name of the store lease that elects the reading instance. */
export const EVENTS_LEASE = DUTIES.events.lease;

/** What the reader needs: the consumer's options and the process's duties. */
export type EventReaderOptions = Omit<
  EventConsumerOptions,
  'runtime' | 'log' | 'onReconnect' | 'resumes' | 'isReader'
> & {
  readonly duty: DutyContext;
  /** Asks for a repair sync: after each reconnect, and once the stream is open after a takeover. */
  readonly repair: () => void;
};

/** The running reader. */
export interface EventReader {
  /** Whether this instance holds the lease (it is the deployment's reader). */
  reading(): boolean;
  /** Whether this instance's stream is open now. */
  connected(): boolean;
  stop(): Promise<void>;
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Starts asking for the lease; reads the stream while it holds it. */
export function startEventReader(o: EventReaderOptions): EventReader {
  const { duty, repair, ...consumerOptions } = o;
  let consumer: ReturnType<typeof startEventConsumer> | undefined;
  let starting: Promise<void> = Promise.resolve();
  let ending: Promise<void> = Promise.resolve();
  let stopped = false;
  const end = (): void => {
    const current = consumer;
    consumer = undefined;
    if (current !== undefined) ending = ending.then(() => current.stop());
  };
  const begin = async (): Promise<void> => {
    await ending;
    // A reader recorded before this one: events may have passed unread since it stopped.
    const resumes = (await dutyRecord(duty.runtime, EVENTS_LEASE))?.holder != null;
    await noteDuty(duty, EVENTS_LEASE, { holder: duty.holder, since: stampNow() });
    if (stopped || !keeper.held) return;
    consumer = startEventConsumer({
      ...consumerOptions,
      runtime: duty.runtime,
      log: duty.log,
      onReconnect: repair,
      resumes,
      isReader: () => keeper.held,
    });
  };
  const takeOver = (): void => {
    starting = begin().catch((err: unknown) => {
      duty.log.error({ err: errText(err) }, 'salt event stream could not be taken over; trying again');
      setTimeout(() => {
        if (!stopped && keeper.held && consumer === undefined) takeOver();
      }, duty.times.renewMs).unref();
    });
  };
  const keeper: LeaseKeeper = new LeaseKeeper({
    leases: duty.runtime.leases,
    name: EVENTS_LEASE,
    holder: duty.holder,
    times: duty.times,
    log: duty.log,
    onGained: () => takeOver(),
    onLost: end,
  });
  keeper.start();
  return {
    reading: () => keeper.held,
    connected: () => consumer?.connected() ?? false,
    async stop() {
      stopped = true;
      await starting;
      end();
      await ending;
      await keeper.stop();
    },
  };
}
