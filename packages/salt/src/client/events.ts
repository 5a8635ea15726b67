/**
 * GET /events as an async iterable (salt/netapi/rest_cherrypy/app.py): the token goes in
 * the X-Auth-Token header (works in every version; 3009 rejects the query form), the
 * wire format is `retry: N` once, then `tag: <tag>` + `data: {"data": ..., "tag": ...}`
 * blocks separated by a blank line, with no keep-alives. The stream ends when the server
 * drops it; reconnecting (re-login + reopen) is the caller's job. With no keep-alives a peer
 * that vanished without closing would leave the stream waiting forever: TCP keep-alive is
 * turned on for its socket (the kernel then probes an idle connection and fails it once the
 * peer no longer answers); the consumer's idle watchdog detects a silent stream much sooner.
 */
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { AxiosResponse } from 'axios';
import { BadGateway } from '@fleet/engine';
import { errorMessage, malformed, statusError, transportError } from './errors';
import { asObject } from './normalize';
import { contentType } from '@fleet/upstream';
import type { Transport } from './transport';
import type { SaltEvent, SaltEventStream, SaltLogger, StreamEnd } from './types';

/** Events waiting to be handled at which the socket stops being read, and below which it is read again. */
const QUEUE_HIGH = 2000;
const QUEUE_LOW = 500;

const CR = 13;
const SPACE = 32;

/** Idle time before the kernel's first keep-alive probe of the stream's socket. */
export const TCP_KEEPALIVE_DELAY_MS = 30_000;

/** Turns TCP keep-alive on for the socket an HTTP response arrives on; resolves whether it could. */
function keepAlive(body: Readable): boolean {
  const socket: unknown = 'socket' in body ? body.socket : undefined;
  if (!(socket instanceof Socket)) return false;
  socket.setKeepAlive(true, TCP_KEEPALIVE_DELAY_MS);
  return true;
}

class SseStream implements SaltEventStream {
  retryMs: number | undefined;
  readonly tcpKeepAlive: boolean;
  lastEventAt = Date.now();
  readonly ended: Promise<StreamEnd>;
  private resolveEnded: (reason: StreamEnd) => void = () => undefined;
  private readonly queue: SaltEvent[] = [];
  private readonly waiters: Array<(r: IteratorResult<SaltEvent>) => void> = [];
  private readonly decoder = new StringDecoder('utf8');
  private buffer = '';
  private tag: string | undefined;
  private data: string[] = [];
  private done = false;

  constructor(
    private readonly body: Readable,
    private readonly controller: AbortController,
    private readonly logger: SaltLogger,
  ) {
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
    this.tcpKeepAlive = keepAlive(body);
    body.on('data', (chunk: Buffer) => this.feed(this.decoder.write(chunk)));
    body.on('end', () => this.finish('closed_by_server'));
    body.on('close', () => this.finish('closed_by_server'));
    body.on('error', (err: Error) => {
      // A server that cuts the socket shows up as an "aborted"/ECONNRESET error.
      const reset = err.message === 'aborted' || ('code' in err && err.code === 'ECONNRESET');
      this.finish(reset ? 'closed_by_server' : 'error');
    });
  }

  /** Takes the complete lines (`\n` or `\r\n` ended) of what arrived; keeps the rest for the next chunk. */
  private feed(text: string): void {
    const buffer = this.buffer + text;
    let start = 0;
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n', start)) {
      const cut = end > start && buffer.charCodeAt(end - 1) === CR ? end - 1 : end;
      this.line(buffer.slice(start, cut));
      start = end + 1;
    }
    this.buffer = buffer.slice(start);
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    // One space after the colon is part of the syntax, not of the value.
    const value =
      colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    else if (field === 'tag') this.tag = value;
    else if (field === 'data') this.data.push(value);
  }

  private dispatch(): void {
    const raw = this.data.join('\n');
    const tag = this.tag;
    this.data = [];
    this.tag = undefined;
    if (raw === '') return;
    try {
      const parsed: unknown = JSON.parse(raw);
      const obj = asObject(parsed) ?? {};
      const data = obj['data'];
      const event: SaltEvent = {
        tag: typeof obj['tag'] === 'string' ? obj['tag'] : (tag ?? ''),
        data: asObject(data) ?? { value: data },
      };
      this.lastEventAt = Date.now();
      const waiter = this.waiters.shift();
      if (waiter) waiter({ value: event, done: false });
      else this.queue.push(event);
      // A reader that falls behind (a burst of thousands of returns) stops reading the socket:
      // the events wait in the kernel's buffers and salt-api's, not as objects in this heap.
      if (this.queue.length >= QUEUE_HIGH && !this.body.isPaused()) this.body.pause();
    } catch {
      this.logger.warn({ tag }, 'salt-api event with unparseable data skipped');
    }
  }

  private finish(reason: StreamEnd): void {
    if (this.done) return;
    this.done = true;
    this.resolveEnded(reason);
    for (const w of this.waiters.splice(0)) w({ value: undefined, done: true });
  }

  takeReady(max: number): SaltEvent[] {
    return this.taken(this.queue.splice(0, Math.max(0, max)));
  }

  /** Events leave the queue: reading resumes once it is short again (the watchdog sees a busy stream). */
  private taken<T>(value: T): T {
    if (this.queue.length < QUEUE_LOW && this.body.isPaused() && !this.done) {
      this.lastEventAt = Date.now();
      this.body.resume();
    }
    return value;
  }

  close(): void {
    this.finish('closed_by_client');
    this.controller.abort();
    this.body.destroy();
  }

  [Symbol.asyncIterator](): AsyncIterator<SaltEvent> {
    return {
      next: () => {
        const queued = this.taken(this.queue.shift());
        if (queued) return Promise.resolve({ value: queued, done: false });
        if (this.done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.waiters.push(resolve));
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

async function drain(body: Readable, limit = 8192): Promise<string> {
  let text = '';
  for await (const chunk of body) {
    text += Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    if (text.length > limit) break;
  }
  body.destroy();
  return text;
}

async function open(
  t: Transport,
  token: string,
): Promise<{ res: AxiosResponse<Readable>; controller: AbortController }> {
  const controller = new AbortController();
  // The read timeout covers getting the headers; afterwards a quiet bus is normal (no keep-alives).
  const timer = setTimeout(() => controller.abort(), t.timeouts.read);
  try {
    const res = await t.http.get<Readable>('/events', {
      responseType: 'stream',
      signal: controller.signal,
      timeout: 0,
      headers: { 'X-Auth-Token': token, Accept: 'text/event-stream' },
    });
    return { res, controller };
  } catch (err) {
    throw transportError(err, t.http.defaults.baseURL ?? '', 'GET /events', t.timeouts.read);
  } finally {
    clearTimeout(timer);
  }
}

/** Opens GET /events once the server has answered 200 (subscribe before publishing). */
export async function openEventStream(t: Transport): Promise<SaltEventStream> {
  const token = await t.token();
  let { res, controller } = await open(t, token);
  if (res.status === 401) {
    await drain(res.data);
    t.invalidate(token);
    ({ res, controller } = await open(t, await t.token()));
    if (res.status === 401) {
      const msg = t.redact(errorMessage(await drain(res.data), contentType(res), 401));
      throw new BadGateway(`salt-api refused the event stream after a fresh login: ${msg}`);
    }
  }
  if (res.status !== 200) {
    throw statusError(
      res.status,
      t.redact(errorMessage(await drain(res.data), contentType(res), res.status)),
      'GET /events',
    );
  }
  if (!contentType(res).includes('text/event-stream')) {
    res.data.destroy();
    throw malformed('GET /events', `content type ${contentType(res) || 'none'}`);
  }
  t.logger.debug({}, 'salt-api event stream open');
  return new SseStream(res.data, controller, t.logger);
}
