/**
 * Reads the `.tar` profile archive the server builds with Python's `tarfile` in its default
 * format: PAX from Python 3.8 (a `x` header before every member, its `path` record holding a
 * name that is long or not ASCII while the ustar header keeps 100 characters with `?` for the
 * rest), GNU before (a `././@LongLink` member, type `L`, holding a long name). Plain ustar
 * (name and prefix) is read too. Regular files only, each with its name and text.
 */
import type { VpnProfileFile } from './types';

const BLOCK = 512;

/** A header field as text, up to its first NUL. */
function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

/** A numeric field: octal digits (NUL or space ended), or GNU base-256 (first byte 0x80). */
function numeric(header: Buffer, start: number, length: number): number {
  const raw = header.subarray(start, start + length);
  if (((raw[0] ?? 0) & 0x80) !== 0) {
    let n = (raw[0] ?? 0) & 0x7f;
    for (const byte of raw.subarray(1)) n = n * 256 + byte;
    return n;
  }
  const text = field(header, start, length).trim();
  if (!/^[0-7]*$/.test(text)) throw new Error('corrupt tar header');
  return text === '' ? 0 : Number.parseInt(text, 8);
}

/** Whether the header's checksum holds (the sum of its bytes, the checksum field as spaces). */
function checksumOk(header: Buffer): boolean {
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  const stored = numeric(header, 148, 8);
  return stored === unsigned || stored === signed;
}

/** The records of a PAX extended header: `"<length> <key>=<value>\n"`, the length counting itself. */
export function paxRecords(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let at = 0;
  while (at < data.length && data[at] !== 0) {
    const space = data.indexOf(0x20, at);
    const length = Number(data.subarray(at, space).toString('latin1'));
    if (space === -1 || !Number.isInteger(length) || length <= 0 || at + length > data.length)
      throw new Error('corrupt tar pax header');
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq <= 0) throw new Error('corrupt tar pax header');
    records.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return records;
}

/** One member's own name: ustar's prefix and name (the prefix only in POSIX ustar headers). */
function headerName(header: Buffer): string {
  const name = field(header, 0, 100);
  const posix = header.subarray(257, 263).toString('latin1') === 'ustar\0';
  const prefix = posix ? field(header, 345, 155) : '';
  return prefix === '' ? name : `${prefix}/${name}`;
}

/** Header types that describe the next member: PAX (`x`, global `g`), GNU long name and link. */
const EXTENSIONS = new Set(['x', 'g', 'L', 'K']);

/** What extended headers said about the next member. */
interface Pending {
  pax: Map<string, string>;
  longName?: string;
}

/** The regular files of a tar archive; throws on a truncated or corrupt one. */
export function readTar(archive: Buffer): VpnProfileFile[] {
  const files: VpnProfileFile[] = [];
  const global = new Map<string, string>();
  let next: Pending = { pax: new Map() };
  let offset = 0;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    if (!checksumOk(header)) throw new Error('corrupt tar header (checksum)');
    const type = String.fromCharCode(header[156] ?? 0);
    const extension = EXTENSIONS.has(type);
    const paxSize = extension ? undefined : (next.pax.get('size') ?? global.get('size'));
    const size = paxSize !== undefined && /^\d+$/.test(paxSize) ? Number(paxSize) : numeric(header, 124, 12);
    const start = offset + BLOCK;
    if (start + size > archive.length) throw new Error('truncated tar archive');
    const data = archive.subarray(start, start + size);
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') next = { ...next, pax: paxRecords(data) };
    else if (type === 'g') for (const [k, v] of paxRecords(data)) global.set(k, v);
    else if (type === 'L') next = { ...next, longName: data.toString('utf8').replace(/\0+$/, '') };
    else if (type === 'K') continue;
    else {
      const name = next.pax.get('path') ?? next.longName ?? global.get('path') ?? headerName(header);
      if (type === '0' || type === '\0' || type === '7') files.push({ name, content: data.toString('utf8') });
      next = { pax: new Map() };
    }
  }
  return files;
}
