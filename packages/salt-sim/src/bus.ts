/**
 * The master event bus as `GET /events` streams it (salt/netapi/rest_cherrypy/app.py,
 * §10): every event carries `_stamp` (UTC `YYYY-MM-DDTHH:MM:SS.ffffff`, no zone) and is
 * written as `tag: <tag>\n` + `data: {"data": ..., "tag": ...}\n\n`, after a single
 * `retry: 400\n` line at stream start with no blank line after it.
 */
import { EventEmitter } from 'node:events';
import type { Response } from 'express';

/** One bus event: the tag and its data dict (with `_stamp`). */
export interface BusEvent {
  tag: string;
  data: Record<string, unknown>;
}

/** Salt's `_stamp`: microsecond ISO time in UTC without a zone designator. */
export function saltStamp(ms = Date.now()): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000`;
}

/** Fan-out of master events to the open SSE streams. */
export class EventBus {
  private readonly emitter = new EventEmitter();
  /** Open SSE responses and how to stop feeding each. */
  private readonly streams = new Map<Response, () => void>();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  /** Fires an event; `_stamp` is added unless present. */
  fire(tag: string, data: Record<string, unknown>): void {
    const event: BusEvent = { tag, data: { ...data, _stamp: data['_stamp'] ?? saltStamp() } };
    this.emitter.emit('event', event);
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  subscribe(listener: (event: BusEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  /**
   * Streams the bus to an HTTP response. `isValid` is rechecked before each event: once
   * the session has expired the response ends when the next event arrives (issue #53742).
   */
  attach(res: Response, isValid: () => boolean): void {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream;charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Connection', 'keep-alive');
    res.flushHeaders();
    res.write('retry: 400\n');
    const unsubscribe = this.subscribe((event) => {
      if (!isValid()) {
        res.end();
        return;
      }
      res.write(`tag: ${event.tag}\ndata: ${JSON.stringify({ data: event.data, tag: event.tag })}\n\n`);
    });
    this.streams.set(res, unsubscribe);
    res.on('close', () => {
      unsubscribe();
      this.streams.delete(res);
    });
  }

  /**
   * Stops writing to every open stream without closing it: what a client sees when a NAT or
   * proxy silently dropped the connection (salt-api sends no keep-alives, so nothing more ever
   * arrives and nothing fails).
   */
  stallStreams(): void {
    for (const unsubscribe of this.streams.values()) unsubscribe();
  }

  /** Number of open SSE streams. */
  get openStreams(): number {
    return this.streams.size;
  }

  /** Drops every open stream abruptly (the master restarted, a proxy cut it...). */
  dropStreams(): void {
    for (const res of this.streams.keys()) res.destroy();
    this.streams.clear();
  }
}
