/**
 * The Salt release the simulated master runs, and its clock. The simulator defaults to
 * 2018.3.2 (the version the service was first deployed with, and the strictest 2018.3 point
 * release for a client: authentication failures of `local` are a JSON 500 there); behaviours
 * that changed later are switched on the version, each citing the Salt source it follows.
 */

/** The default `masterVersion`. */
export const DEFAULT_MASTER_VERSION = '2018.3.2';

function parts(version: string): number[] {
  return version
    .split(/[.-]/)
    .map((p) => Number.parseInt(p, 10))
    .map((n) => (Number.isFinite(n) ? n : 0));
}

/** Whether `version` is `floor` or later (`2018.3.3`, `3006`, `3006.9`...). */
export function atLeast(version: string, floor: string): boolean {
  const a = parts(version);
  const b = parts(floor);
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

/** Throws unless `tz` is an IANA zone Intl knows. */
export function assertTimeZone(tz: string): void {
  new Intl.DateTimeFormat('en-US', { timeZone: tz });
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock digits `%Y%m%d%H%M%S` of an instant in a zone, plus the milliseconds. */
export function wallClock(ms: number, tz: string): { digits: string; millis: number } {
  let fmt = formats.get(tz);
  if (fmt === undefined) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(tz, fmt);
  }
  const partsOf = fmt.formatToParts(new Date(ms));
  const get = (type: string): string => partsOf.find((p) => p.type === type)?.value ?? '00';
  const millis = ((ms % 1000) + 1000) % 1000;
  return {
    digits: `${get('year')}${get('month')}${get('day')}${get('hour')}${get('minute')}${get('second')}`,
    millis,
  };
}
