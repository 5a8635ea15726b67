/**
 * Dates on the wire: rendered RFC 1123 (`Wed, 25 Nov 2026 21:08:02 GMT`, Eve's DATE_FORMAT),
 * accepted as RFC 1123 or ISO 8601. An ISO value without a zone is UTC, never local time.
 */

const RFC1123 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Renderings already made, by time value: `toUTCString` costs ~0.8 us, and a page of 25 hosts
 * renders ~175 dates, most of them the same on every read of that page (the profile in
 * docs/performance.md). Cleared whole when full, so it stays a few MB.
 */
const rendered = new Map<number, string>();
const RENDERED_MAX = 50_000;

/** Renders a date as RFC 1123 in GMT. */
export function formatHttpDate(date: Date): string {
  const time = date.getTime();
  let text = rendered.get(time);
  if (text === undefined) {
    text = date.toUTCString();
    if (rendered.size >= RENDERED_MAX) rendered.clear();
    rendered.set(time, text);
  }
  return text;
}

/** An HTTP date header (`If-Modified-Since`): RFC 1123 only, as Eve reads it; null when absent or anything else. */
export function parseHttpDate(text: string | undefined): Date | null {
  return text !== undefined && RFC1123.test(text.trim()) ? validDate(Date.parse(text)) : null;
}

/** Parses RFC 1123 or ISO 8601 (`YYYY-MM-DD[ T]HH:MM[:SS[.fff]][zone]`); `null` when neither. */
export function parseDate(text: string): Date | null {
  if (RFC1123.test(text)) return validDate(Date.parse(text));
  const m = ISO.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const normalizedZone =
    zone === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = frac === '' ? '' : frac.slice(0, 4).padEnd(4, '0');
  const date = validDate(Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${ms}${normalizedZone}`));
  // Date.parse rolls 31 Feb over to March: refuse values that do not round-trip their day.
  if (date && zone === 'Z' && date.getUTCDate() !== Number(d)) return null;
  return date;
}

function validDate(ms: number): Date | null {
  return Number.isNaN(ms) ? null : new Date(ms);
}

/** Replaces every Date in a JSON-able value by its RFC 1123 rendering (copying, not mutating). */
export function renderDates(value: unknown): unknown {
  if (value instanceof Date) return formatHttpDate(value);
  if (Array.isArray(value)) return value.map(renderDates);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = renderDates(v);
    return out;
  }
  return value;
}
