/**
 * Translation of transport failures and the VPN server's error answers into the engine's
 * typed errors, at the client's edge. Messages name the manager and are built from safe
 * parts only (status, the server's own message, the call): axios errors carry the request
 * config (the login body holds the password, the headers the cookies), so they are never
 * rethrown, logged or kept as a cause; every message goes through `redact`.
 */
import { BadGateway, GatewayTimeout, HttpError, ServiceUnavailable } from '@fleet/engine';
import { cleanMessage, failureOf, MAX_MESSAGE, safeUrl } from '@fleet/upstream';

/**
 * The server's message from an error body (pritunl/handlers/, pritunl/utils/): `{"error", "error_msg"}` JSON from
 * Flask handlers, `"500: Internal Server Error"` text from Flask's aborts, `"401 Missing
 * token"` or `"404 page not found"` text from pritunl-web, or nothing (400 bind errors).
 */
export function errorMessage(body: string, contentType: string, status: number): string {
  let text = body;
  if (contentType.includes('json')) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed !== null && typeof parsed === 'object') {
        const p = parsed as Record<string, unknown>;
        const code = typeof p.error === 'string' ? p.error : undefined;
        const msg = typeof p.error_msg === 'string' ? p.error_msg : undefined;
        text = msg !== undefined && code !== undefined ? `${msg} (${code})` : (msg ?? code ?? body);
      }
    } catch {
      text = body;
    }
  } else if (/^\s*<(!doctype|html)/i.test(body)) {
    text = body.replace(/<[^>]*>/g, ' ');
  }
  return cleanMessage(text, status);
}

/** The `error` code of a JSON error body, if any. */
export function errorCode(body: string, contentType: string): string | undefined {
  if (!contentType.includes('json')) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (
      parsed !== null &&
      typeof parsed === 'object' &&
      'error' in parsed &&
      typeof parsed.error === 'string'
    )
      return parsed.error;
  } catch {
    return undefined;
  }
  return undefined;
}

/** A non-2xx answer: the server answered with an error (502). */
export function statusError(a: {
  manager: string;
  what: string;
  status: number;
  message: string;
}): BadGateway {
  return new BadGateway(`VPN manager "${a.manager}": ${a.what} answered ${a.status}: ${a.message}`);
}

/** A 2xx answer whose body is not what the API promises. */
export function malformed(manager: string, what: string, detail: string): BadGateway {
  return new BadGateway(
    `VPN manager "${manager}": ${what} sent an unexpected answer: ${detail}`.slice(0, MAX_MESSAGE + 80),
  );
}

export interface TransportContext {
  manager: string;
  url: string;
  what: string;
  timeoutMs: number;
}

/** Maps an axios or network failure to 503 (unreachable) or 504 (no answer in time). */
export function transportError(err: unknown, c: TransportContext): HttpError {
  if (err instanceof HttpError) return err;
  const failure = failureOf(err);
  if (failure.kind === 'timeout')
    return new GatewayTimeout(
      `VPN manager "${c.manager}" at ${safeUrl(c.url)} did not answer within ${c.timeoutMs} ms (${c.what})`,
    );
  return new ServiceUnavailable(
    `VPN manager "${c.manager}" unreachable at ${safeUrl(c.url)}: ${failure.reason} (${c.what})`,
  );
}
