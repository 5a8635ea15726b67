/** The simulator's live settings: what tests adjust at run time. */

/** Settings tests may change at run time. */
export interface SimSettings {
  /** Delay before a minion's return arrives. */
  returnDelayMs: number;
  /**
   * Time between two minions' returns of one job (ms; fractions allowed, 0: all at once): the
   * minions finish one after another, and the master fires each `salt/job/<jid>/ret/<id>` as its
   * return arrives (salt/master.py `AESFuncs._return` -> salt/utils/job.py `store_job`), with no
   * pacing of its own. Default 2.
   */
  returnSpacingMs: number;
  /** How long a sync `local` call waits for minions that will never answer (timeout + gather_job_timeout). */
  noReturnWaitMs: number;
  /** Session idle timeout (CherryPy `tools.sessions.timeout`). */
  sessionTtlMs: number;
  /** Salt `token_expire`, seconds. */
  tokenExpireS: number;
  /** `netapi_enable_clients` (checked from 3006 on: the option does not exist before). */
  enabledClients: string[];
  /** False: salt-api is up but the master daemon is not (503 "Salt Master is not available."). */
  masterRunning: boolean;
  /** The Salt release of the master and salt-api (version.ts); default 2018.3.2. */
  masterVersion: string;
  /** The master's time zone (IANA): 2018.3 writes jids in its local time. Default UTC. */
  masterTz: string;
  /** Added to the host clock to give the master's clock (tests move it across a DST change). */
  clockOffsetMs: number;
  /**
   * Runner and wheel functions that raise when called (`controls.raiseIn`), by name: what a
   * broken master module or configuration makes them do. `_low` answers the exception text.
   */
  raising: Record<string, { pyClass: string; message: string }>;
}
