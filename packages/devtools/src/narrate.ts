/**
 * The demo's log: one readable line per sync and per salt event the service handles (and every
 * warning), instead of the service's JSON. It reads the service's own log lines (the logger at
 * debug level, where handled events are told), so it shows what the service did, not a guess.
 */
/** Where a logger writes its lines (a pino destination). */
export interface LineSink {
  write(line: string): void;
}

/** A number of a log line, or `?`. */
function n(value: unknown): string {
  return typeof value === 'number' ? String(value) : '?';
}

function clock(time: unknown): string {
  return new Date(typeof time === 'number' ? time : Date.now()).toISOString().slice(11, 19);
}

/** The readable line of a sync's report. */
function syncLine(l: Record<string, unknown>): string {
  return (
    `sync    ${n(l.hostsSeen)} hosts seen, ${n(l.hostsChanged)} changed, ${n(l.hostsNew)} new, ` +
    `${n(l.actionsRecorded)} actions recorded, ${n(l.alertsRaised)} alerts raised (${n(l.ms)} ms)`
  );
}

/** What a service log line says to a person watching the demo; undefined: nothing. */
export function narration(l: Record<string, unknown>): string | undefined {
  const msg = typeof l.msg === 'string' ? l.msg : '';
  let text: string | undefined;
  if (msg === 'fleet sync done') text = syncLine(l);
  else if (msg.startsWith('salt event: '))
    text = `event   ${String(l.tag)}: ${msg.slice('salt event: '.length)}`;
  else if (/^salt event stream (re)?connected$/.test(msg))
    text = `events  ${msg.slice('salt event '.length)}`;
  else if (typeof l.level === 'number' && l.level >= 40) {
    const cause = l.err ?? l.error ?? l.reason;
    const why = typeof cause === 'string' ? cause : cause === undefined ? undefined : JSON.stringify(cause);
    const repeated = typeof l.repeated === 'number' ? ` (${l.repeated} more times)` : '';
    text = `warn    ${msg}${why === undefined ? '' : `: ${why}`}${repeated}`;
  }
  return text === undefined ? undefined : `${clock(l.time)} ${text}\n`;
}

/** A pino destination writing the narration of each line to `out`. */
export function narrator(out: (text: string) => void): LineSink {
  return {
    write(line: string) {
      try {
        const parsed: unknown = JSON.parse(line);
        if (parsed === null || typeof parsed !== 'object') return;
        const text = narration(parsed as Record<string, unknown>);
        if (text !== undefined) out(text);
      } catch {
        // Not a JSON line: nothing to narrate.
      }
    },
  };
}
