/**
 * What a failed call to an upstream server means, read from the error axios or the socket threw:
 * no answer in time, or no connection. The clients word it for their peer (and never pass the
 * error itself on: axios errors carry the request, credentials included).
 */
import { isAxiosError } from 'axios';

/** Codes of a server that cannot be reached (refused, unknown name, reset, no route). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_SOCKET_CLOSED',
  'ECONNABORTED_RESET',
]);
/** Codes of a call that got no answer in time (axios' own timeout, a socket timeout, an abort signal). */
const TIMEOUT = new Set(['ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT', 'ERR_CANCELED']);

/** `timeout`: no answer in time; `unreachable`: no connection, and why in a word. */
export type Failure =
  { readonly kind: 'timeout' } | { readonly kind: 'unreachable'; readonly reason: string };

/** The failure behind `err`, thrown by axios or the socket. */
export function failureOf(err: unknown): Failure {
  const code = isAxiosError(err)
    ? err.code
    : err instanceof Error && 'code' in err
      ? String(err.code)
      : undefined;
  const message = err instanceof Error ? err.message : '';
  const name = err instanceof Error ? err.name : '';
  if (
    (code !== undefined && TIMEOUT.has(code)) ||
    name === 'CanceledError' ||
    name === 'TimeoutError' ||
    /timeout/i.test(message)
  )
    return { kind: 'timeout' };
  // The service's own refusal of the address a name resolved to: the message says which and why.
  if (code === 'EREFUSEDADDRESS') return { kind: 'unreachable', reason: message };
  if (code !== undefined && UNREACHABLE.has(code)) return { kind: 'unreachable', reason: code };
  if (/hang up/i.test(message)) return { kind: 'unreachable', reason: 'connection closed (socket hang up)' };
  return { kind: 'unreachable', reason: code ?? 'network error' };
}
