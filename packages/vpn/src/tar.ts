/**
 * Reads the `.tar` profile archive the server builds with Python's `tarfile` (ustar/GNU
 * headers, 512-byte blocks): regular files only, each returned with its name and text.
 */
import type { VpnProfileFile } from './types';

const BLOCK = 512;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

/** The regular files of a tar archive; throws on a truncated or corrupt one. */
export function readTar(archive: Buffer): VpnProfileFile[] {
  const files: VpnProfileFile[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) throw new Error('corrupt tar header');
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    const start = offset + BLOCK;
    if (start + size > archive.length) throw new Error('truncated tar archive');
    const data = archive.subarray(start, start + size);
    longName = undefined;
    // 'L' is a GNU long name for the next entry; '0' and NUL are regular files.
    if (type === 'L') longName = data.toString('utf8').replace(/\0+$/, '');
    else if (type === '0' || type === '\0') files.push({ name, content: data.toString('utf8') });
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
