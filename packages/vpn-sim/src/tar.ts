/**
 * The profile archive as the server writes it: user/user.py `build_key_tar_archive` opens
 * `tarfile.open(path, 'w')` and `add()`s one `.ovpn` per server, each written to a temporary
 * file first (`chmod 0600`, owned by root). Python's `tarfile` then writes, in its default
 * format (Lib/tarfile.py `TarInfo.create_pax_header` / `create_gnu_header`, `TarFile.close`):
 *
 * - `pax` (Python >= 3.8): before every member a `././@PaxHeader` (type `x`) whose records hold
 *   `path` when the name is not ASCII or longer than 100 characters, and always `mtime` (the
 *   file's float `st_mtime`); then a ustar header whose name is the name encoded as ASCII with
 *   `?` for the rest, cut to 100 bytes, and whose mtime is the rounded one.
 * - `gnu` (Python 3.6, 3.7): a `././@LongLink` (type `L`) member holding the UTF-8 name and a
 *   NUL before a member whose UTF-8 name exceeds 100 bytes; the header's name is the UTF-8
 *   bytes cut to 100, its mtime the integer part.
 *
 * Two zero blocks end the archive, then zeros up to a multiple of 10240 bytes (RECORDSIZE).
 */
import type { TarFormat } from './context';

const BLOCK = 512;
const RECORD = 20 * BLOCK;
const POSIX_MAGIC = Buffer.from('ustar\x0000', 'latin1');
const GNU_MAGIC = Buffer.from('ustar  \0', 'latin1');

/** One member to write. */
export interface TarMember {
  readonly name: string;
  readonly data: Buffer;
}

interface Header {
  name: Buffer;
  mode: number;
  size: number;
  mtime: number;
  type: string;
  magic: Buffer;
  owner: string;
}

/**
 * The device fields of a regular file: `itn(0)` in Python 3.6 (the GNU writer here), empty
 * (NULs) in the Pythons that test `has_device_fields` (the PAX writer here).
 */
const deviceFields = (magic: Buffer): Buffer =>
  magic === GNU_MAGIC ? Buffer.concat([itn(0, 8), itn(0, 8)]) : Buffer.alloc(16);

/** `stn`: the bytes cut to `length`, NUL-padded. */
function stn(bytes: Buffer, length: number): Buffer {
  const out = Buffer.alloc(length);
  bytes.copy(out, 0, 0, Math.min(length, bytes.length));
  return out;
}

/** `itn` in POSIX form: octal digits, then NUL. */
function itn(n: number, digits: number): Buffer {
  return Buffer.from(`${n.toString(8).padStart(digits - 1, '0')}\0`, 'latin1');
}

/** `_create_header`: one 512-byte header with its checksum (`%06o\0` and the last space kept). */
function header(h: Header): Buffer {
  const owner = Buffer.from(h.owner, 'latin1');
  const block = Buffer.concat([
    stn(h.name, 100),
    itn(h.mode, 8),
    itn(0, 8),
    itn(0, 8),
    itn(h.size, 12),
    itn(h.mtime, 12),
    Buffer.from('        ', 'latin1'),
    Buffer.from(h.type, 'latin1'),
    Buffer.alloc(100),
    h.magic,
    stn(owner, 32),
    stn(owner, 32),
    deviceFields(h.magic),
    Buffer.alloc(155),
  ]);
  const buf = Buffer.alloc(BLOCK);
  block.copy(buf);
  let sum = 0;
  for (const byte of buf) sum += byte;
  buf.write(`${sum.toString(8).padStart(6, '0')}\0`, 148, 'latin1');
  return buf;
}

/** The data padded to whole blocks (`_create_payload`). */
function payload(data: Buffer): Buffer {
  return Buffer.concat([data, Buffer.alloc((BLOCK - (data.length % BLOCK)) % BLOCK)]);
}

/** Python's `str(float)`: the shortest repr, with `.0` for a whole number. */
function pyFloat(n: number): string {
  return Number.isInteger(n) ? `${n}.0` : String(n);
}

/** One PAX record, `"<length> <key>=<value>\n"`, the length counting itself. */
function paxRecord(key: string, value: string): Buffer {
  const body = Buffer.from(` ${key}=${value}\n`, 'utf8');
  let length = body.length;
  while (String(length).length + body.length !== length) length = String(length).length + body.length;
  return Buffer.concat([Buffer.from(String(length), 'latin1'), body]);
}

function paxMember(m: TarMember, mtime: number): Buffer {
  // eslint-disable-next-line no-control-regex
  const ascii = /^[\x00-\x7f]*$/.test(m.name);
  const records = Buffer.concat([
    ...(!ascii || [...m.name].length > 100 ? [paxRecord('path', m.name)] : []),
    paxRecord('mtime', pyFloat(mtime)),
  ]);
  const extended = header({
    name: Buffer.from('././@PaxHeader', 'latin1'),
    mode: 0,
    size: records.length,
    mtime: 0,
    type: 'x',
    magic: POSIX_MAGIC,
    owner: '',
  });
  const name = Buffer.from(
    [...m.name].map((c) => (c.charCodeAt(0) < 0x80 && c.length === 1 ? c : '?')).join(''),
    'latin1',
  );
  const own = {
    name,
    mode: 0o600,
    size: m.data.length,
    mtime: Math.round(mtime),
    type: '0',
    magic: POSIX_MAGIC,
    owner: 'root',
  };
  return Buffer.concat([extended, payload(records), header(own), payload(m.data)]);
}

function gnuMember(m: TarMember, mtime: number): Buffer {
  const name = Buffer.from(m.name, 'utf8');
  const longName = Buffer.concat([name, Buffer.alloc(1)]);
  const long =
    name.length > 100
      ? [
          header({
            name: Buffer.from('././@LongLink', 'latin1'),
            mode: 0,
            size: longName.length,
            mtime: 0,
            type: 'L',
            magic: GNU_MAGIC,
            owner: '',
          }),
          payload(longName),
        ]
      : [];
  const own = {
    name,
    mode: 0o600,
    size: m.data.length,
    mtime: Math.floor(mtime),
    type: '0',
    magic: GNU_MAGIC,
    owner: 'root',
  };
  return Buffer.concat([...long, header(own), payload(m.data)]);
}

/** The archive `tarfile` writes for these members, each file's mtime `mtimeMs`. */
export function buildTar(members: readonly TarMember[], mtimeMs: number, format: TarFormat = 'pax'): Buffer {
  const mtime = mtimeMs / 1000;
  const body = Buffer.concat([
    ...members.map((m) => (format === 'pax' ? paxMember(m, mtime) : gnuMember(m, mtime))),
    Buffer.alloc(2 * BLOCK),
  ]);
  return Buffer.concat([body, Buffer.alloc((RECORD - (body.length % RECORD)) % RECORD)]);
}
