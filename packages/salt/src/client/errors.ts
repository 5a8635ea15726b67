/**
 * Translation of transport failures and salt-api error answers into the engine's typed
 * HTTP errors, at the client's edge. Messages are built here from safe parts only (code,
 * status, the master's own message text): axios errors carry the request config, body
 * included, so they are never rethrown or logged raw, and every message is passed
 * through `redact` to keep the password and the session token out.
 */
import { BadGateway, GatewayTimeout, HttpError, ServiceUnavailable } from '@fleet/engine';
import { cleanMessage, failureOf, MAX_MESSAGE, safeUrl } from '@fleet/upstream';

/** Errors worth another attempt for an idempotent read (unreachable, timeout, 5xx). */
const retriable = new WeakSet<Error>();

/** Whether a read may be retried after this error. */
export function isRetriable(err: unknown): boolean {
  return err instanceof Error && retriable.has(err);
}

function mark<E extends Error>(err: E): E {
  retriable.add(err);
  return err;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/**
 * The master's message from an error body, by content type: CherryPy's HTML page has it
 * in the first `<p>` (salt/netapi/rest_cherrypy/app.py); the hypermedia catch-all is JSON `{"status", "return"}`.
 */
export function errorMessage(body: string, contentType: string | undefined, status: number): string {
  let text = '';
  if ((contentType ?? '').includes('html') || /^\s*<(!DOCTYPE|html)/i.test(body)) {
    const p = /<p>([\s\S]*?)<\/p>/i.exec(body)?.[1] ?? /<title>([\s\S]*?)<\/title>/i.exec(body)?.[1] ?? '';
    text = decodeEntities(p.replace(/<[^>]*>/g, ''));
  } else if ((contentType ?? '').includes('json')) {
    try {
      const parsed: unknown = JSON.parse(body);
      const ret =
        parsed !== null && typeof parsed === 'object' && 'return' in parsed ? parsed.return : parsed;
      text = typeof ret === 'string' ? ret : JSON.stringify(ret);
    } catch {
      text = body;
    }
  } else text = body;
  return cleanMessage(text, status);
}

/** Maps a non-2xx answer (other than a handled 401) to a typed error. */
export function statusError(status: number, message: string, what: string): HttpError {
  // 503 is salt-api saying the master daemon is not running; 504 a runner wait exceeded (salt/netapi/rest_cherrypy/app.py).
  if (status === 503) return mark(new ServiceUnavailable(`salt master unavailable (${what}): ${message}`));
  if (status === 504) return mark(new GatewayTimeout(`salt master timed out (${what}): ${message}`));
  const err = new BadGateway(`salt-api answered ${status} (${what}): ${message}`);
  return status >= 500 ? mark(err) : err;
}

/** Maps an axios/network failure to ServiceUnavailable or GatewayTimeout. */
export function transportError(err: unknown, url: string, what: string, timeoutMs: number): HttpError {
  if (err instanceof HttpError) return err;
  const failure = failureOf(err);
  if (failure.kind === 'timeout')
    return mark(
      new GatewayTimeout(`salt master at ${safeUrl(url)} did not answer within ${timeoutMs} ms (${what})`),
    );
  return mark(
    new ServiceUnavailable(`salt master unreachable at ${safeUrl(url)}: ${failure.reason} (${what})`),
  );
}

/** A 2xx answer whose body is not the JSON salt-api promises. */
export function malformed(what: string, detail: string): BadGateway {
  return new BadGateway(`salt-api sent an unexpected answer (${what}): ${detail}`.slice(0, MAX_MESSAGE + 80));
}

/**
 * A runner or wheel function that raised on the master: salt-api answered 200 with the exception
 * text (`SyncClientMixin._low`, "Exception occurred in runner <fun>: ..."). The master is up
 * and answering; what failed is the function. Shown to API clients as a 502 like any unusable
 * answer, but told apart from an unreachable master by the sync (a different alert).
 */
export class SaltFunctionFailed extends BadGateway {
  constructor(
    readonly kind: 'runner' | 'wheel',
    readonly fun: string,
    /** The first and last line of the traceback (the exception class and message). */
    readonly summary: string,
    /** The whole exception text. */
    readonly text: string,
  ) {
    super(`salt ${kind} ${fun} failed: ${summary}`);
  }
}
