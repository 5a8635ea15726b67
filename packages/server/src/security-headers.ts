/**
 * Security headers of every response, written by hand: an API of JSON and downloads
 * needs a handful, not a framework. The set follows OWASP's REST Security Cheat Sheet ("Security
 * headers": nosniff, `frame-ancestors 'none'`, `X-Frame-Options: DENY`) and helmet's defaults for
 * the rest. Nothing here may load or frame anything: a JSON body is never a page.
 *
 * Left out on purpose: `Strict-Transport-Security` (the server speaks plain HTTP; TLS and HSTS
 * belong to the proxy in front of it) and `Cache-Control` (items and lists carry their own
 * validators, ETag and Last-Modified; media opened through a signed link say how long they may be
 * kept, engine http/api.ts).
 */
import type { RequestHandler } from 'express';

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // Browsers must take the Content-Type as given: a JSON body or an upload is never sniffed into HTML.
  'X-Content-Type-Options': 'nosniff',
  // Nothing to load, no framing; media responses narrow this further (`sandbox`, http/api.ts).
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Permitted-Cross-Domain-Policies': 'none',
};

/** Sets the security headers before anything else answers; a handler may still narrow one. */
export function securityHeaders(): RequestHandler {
  const headers = Object.entries(SECURITY_HEADERS);
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
