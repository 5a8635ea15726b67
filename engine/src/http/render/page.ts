/**
 * A page's JSON text, rendered in slices (fair/turns.ts) and streamed: a page that renders within
 * one slice (a page of 25 items, most of 100) is sent whole, with its `Content-Length`; a larger
 * one is written as it is rendered (chunked), its items in slices of about 8 ms with other
 * requests served between two slices, and no more of it in memory than the socket holds.
 */
import type { Response } from 'express';
import type { CompiledResource } from '../../compile/compile';
import { Slices } from '../../fair/turns';
import type { Doc } from '../../store/port';
import { renderText, type RenderOptions } from './item';

/** What a page is sent as, around its items: `{"_items":[` and `],"_links":...}`. */
export interface PageFrame {
  readonly head: string;
  readonly tail: string;
}

/** Sends a whole JSON text; how (length, HEAD, the app's JSON layout) is the caller's. */
export type SendWhole = (text: string) => void;

/** Items rendered between two looks at the clock. */
const CHECK_EVERY = 8;

/** Writes the chunks of a streamed answer, waiting when the socket's buffer is full. */
class Stream {
  private first = true;

  constructor(private readonly resp: Response) {}

  /** Writes `items` (a run of item texts); false once the client has gone. */
  async write(items: string): Promise<boolean> {
    if (this.resp.destroyed) return false;
    const text = this.first ? items : `,${items}`;
    this.first = false;
    if (text !== '' && !this.resp.write(text, 'utf8')) await drained(this.resp);
    return !this.resp.destroyed;
  }
}

/** Resolves once the socket takes more (`drain`) or is gone (`close`). */
function drained(resp: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      resp.off('drain', done);
      resp.off('close', done);
      resolve();
    };
    resp.on('drain', done);
    resp.on('close', done);
  });
}

/** Starts a streamed 200 answer with the page's head (headers set by the caller stay). */
function start(resp: Response, head: string): Stream {
  resp.statusCode = 200;
  resp.setHeader('Content-Type', 'application/json; charset=utf-8');
  resp.write(head, 'utf8');
  return new Stream(resp);
}

/**
 * Renders `docs` as the items of a page and sends it: whole through `whole` when it fits one slice
 * (or `stream` is false: a HEAD, an app asking for another JSON layout), else streamed.
 */
export async function sendPage(
  resp: Response,
  items: { res: CompiledResource; docs: readonly Doc[]; options: RenderOptions },
  frame: PageFrame,
  o: { stream: boolean; whole: SendWhole },
): Promise<void> {
  const { res, docs, options } = items;
  const slices = new Slices();
  let run: string[] = [];
  let stream: Stream | undefined;
  for (let i = 0; i < docs.length; i += 1) {
    run.push(renderText(res, docs[i] as Doc, options));
    if (i % CHECK_EVERY !== CHECK_EVERY - 1 || i === docs.length - 1 || !slices.due()) continue;
    if (o.stream) {
      stream ??= start(resp, frame.head);
      if (!(await stream.write(run.join(',')))) return;
      run = [];
    }
    await slices.pause();
  }
  if (stream === undefined) {
    o.whole(`${frame.head}${run.join(',')}${frame.tail}`);
    return;
  }
  if (await stream.write(run.join(','))) resp.end(frame.tail, 'utf8');
}
