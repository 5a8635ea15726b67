/**
 * Salt job ids and time. `salt.utils.jid.gen_jid` formats `%Y%m%d%H%M%S%f` of the master's
 * clock: `datetime.datetime.now()` — the master's LOCAL time — in 2018.3 and 2019.2, and
 * `_utc_now()` from 3000 on. So a jid is wall-clock digits in the master's zone
 * (`SALT_MASTER_TZ`, default UTC): reading it as UTC is off by the zone's offset, and when
 * daylight saving time ends the digits go back (by an hour nearly everywhere) while jobs go on.
 * Time zones come from Intl (Node's ICU data); no dependency.
 */
import { randomInt } from 'node:crypto';

const formats = new Map<string, Intl.DateTimeFormat>();

function format(tz: string): Intl.DateTimeFormat {
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
  return fmt;
}

/** Whether `tz` is an IANA time zone Intl knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(tz: string): boolean {
  try {
    format(tz);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of an instant in a zone, as the epoch ms of the same digits read as UTC. */
function wallAsUtc(ms: number, tz: string): number {
  const parts = format(tz).formatToParts(new Date(ms));
  const n = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(
    n('year'),
    n('month') - 1,
    n('day'),
    n('hour'),
    n('minute'),
    n('second'),
    ((ms % 1000) + 1000) % 1000,
  );
}

const JID = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{6})/;

/** The jid's digits read as a UTC instant (the wall clock as a number), or NaN. */
function jidWall(jid: string): number {
  const m = JID.exec(jid);
  if (!m) return Number.NaN;
  return Date.UTC(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
    Math.floor(Number(m[7]) / 1000),
  );
}

/**
 * The instant a jid was issued, its digits read in the master's zone; NaN for a non-jid. In the
 * hour a DST change repeats, the digits name two instants: one of them is returned.
 */
export function jidInstant(jid: string, tz = 'UTC'): number {
  const wall = jidWall(jid);
  if (Number.isNaN(wall) || tz === 'UTC') return wall;
  // Two rounds find the offset in force at that wall time (the second corrects the guess).
  const first = wall - (wallAsUtc(wall, tz) - wall);
  return wall - (wallAsUtc(first, tz) - first);
}

function digits(wall: number, micro: number): string {
  const d = new Date(wall);
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}${p(micro, 6)}`;
}

/** A jid in the master's format and zone for an instant (microseconds filled at random). */
export function jidAt(instant: Date, tz = 'UTC'): string {
  const ms = instant.getTime();
  const wall = tz === 'UTC' ? ms : wallAsUtc(ms, tz);
  return digits(wall, (((ms % 1000) + 1000) % 1000) * 1000 + randomInt(0, 1000));
}

/**
 * The 20-digit jid whose wall clock is `deltaMs` after `jid`'s (digits arithmetic, no zone):
 * how far back a watermark must look to see the jids of a clock that went back. '' stays ''.
 */
export function shiftJid(jid: string, deltaMs: number): string {
  const wall = jidWall(jid);
  if (Number.isNaN(wall)) return jid;
  return digits(wall + deltaMs, 0).slice(0, 14) + jid.slice(14, 20);
}
