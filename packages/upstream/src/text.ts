/** The words of messages about upstream servers: no secret, no credentials in a URL, a bounded length. */

/** The longest upstream message quoted in one of ours. */
export const MAX_MESSAGE = 300;

/** `text` with every secret (a password, a token, a cookie value) replaced by `***`. */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
  let out = text;
  for (const s of secrets) if (s !== undefined && s.length >= 3) out = out.split(s).join('***');
  return out;
}

/**
 * The URL for a message or a log line: scheme, host and path, without user info, query (either
 * may carry credentials) or trailing slash.
 */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '<invalid url>';
  }
}

/** An upstream message on one line, cut to {@link MAX_MESSAGE}; `HTTP <status>` when empty. */
export function cleanMessage(text: string, status: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return (clean === '' ? `HTTP ${status}` : clean).slice(0, MAX_MESSAGE);
}
