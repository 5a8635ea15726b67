/** Store contract: media files stream in and out byte for byte, with their metadata. */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Context } from './fixtures';

/** Media put, open and delete. */
export function mediaTests(ctx: Context): void {
  const readAll = async (stream: Readable): Promise<Buffer> => {
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
    return Buffer.concat(parts);
  };
  test('binary bytes round-trip with their metadata', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const info = await ctx.store.media.put(Readable.from([bytes]), {
      filename: 'all.bin',
      contentType: 'application/octet-stream',
    });
    expect(info).toMatchObject({ filename: 'all.bin', contentType: 'application/octet-stream', length: 256 });
    expect(info.uploadedAt).toBeInstanceOf(Date);
    const opened = await ctx.store.media.open(info.id);
    expect(opened?.info).toEqual(info);
    expect(await readAll(opened?.stream ?? Readable.from([]))).toEqual(bytes);
  });
  test('a multi-chunk file (> 1 MiB) written in small pieces', async () => {
    const bytes = randomBytes(1_300_000);
    const pieces = Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) =>
      bytes.subarray(i * 65_536, (i + 1) * 65_536),
    );
    const info = await ctx.store.media.put(Readable.from(pieces), {
      filename: 'big.tar',
      contentType: 'application/x-tar',
    });
    expect(info.length).toBe(bytes.length);
    const opened = await ctx.store.media.open(info.id);
    expect((await readAll(opened?.stream ?? Readable.from([]))).equals(bytes)).toBe(true);
  });
  test('an empty file', async () => {
    const info = await ctx.store.media.put(Readable.from([]), {
      filename: 'empty',
      contentType: 'text/plain',
    });
    const opened = await ctx.store.media.open(info.id);
    expect(opened?.info.length).toBe(0);
    expect(await readAll(opened?.stream ?? Readable.from([Buffer.from('x')]))).toEqual(Buffer.alloc(0));
  });
  test('delete, then the id is unknown', async () => {
    const info = await ctx.store.media.put(Readable.from([Buffer.from('hello')]), {
      filename: 'h.txt',
      contentType: 'text/plain',
    });
    expect(await ctx.store.media.delete(info.id)).toBe(true);
    expect(await ctx.store.media.open(info.id)).toBeNull();
    expect(await ctx.store.media.delete(info.id)).toBe(false);
  });
  test('an unknown id is null', async () => {
    expect(await ctx.store.media.open('0123456789abcdef01234567')).toBeNull();
  });
}
