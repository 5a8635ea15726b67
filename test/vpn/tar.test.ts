/**
 * Profile archives as Python's `tarfile` writes them, and the client's reader. The two fixtures
 * were written by Python's own `tarfile` (`tarfile.open(f, 'w')`, then for each member a
 * `TarInfo` with the name, size, mode 0o100600, uid/gid 0, uname/gname `root` and mtime
 * 1700000000.123 that `add()` takes from the file Pritunl writes, and `addfile`), with
 * Python 3.9 (PAX, its default format since 3.8) and Python 3.6 (GNU): one member with a
 * 123-character name starting with `Örg`, one `ops_web01_gw2.ovpn` of 600 bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTar } from '@fleet/vpn';
import { buildTar } from '@fleet/vpn-sim';

const LONG = `Örg_${'h'.repeat(110)}_gw1.ovpn`;
const MEMBERS = [
  { name: LONG, data: Buffer.from('client\nremote a 1194 udp\n') },
  { name: 'ops_web01_gw2.ovpn', data: Buffer.from('x'.repeat(600)) },
];
const MTIME_MS = 1_700_000_000_123;
const fixture = (python: string): Buffer =>
  readFileSync(join(__dirname, 'fixtures', `profile-python${python}.tar`));

describe.each([
  ['3.9', 'pax'],
  ['3.6', 'gnu'],
] as const)('Python %s (%s)', (python, format) => {
  test('the simulator writes the archive byte for byte as tarfile does', () => {
    expect(buildTar(MEMBERS, MTIME_MS, format).equals(fixture(python))).toBe(true);
  });

  test('the reader gives every name whole (not the 100 characters of the header, not `?rg`) and every text', () => {
    expect(readTar(fixture(python))).toEqual([
      { name: LONG, content: 'client\nremote a 1194 udp\n' },
      { name: 'ops_web01_gw2.ovpn', content: 'x'.repeat(600) },
    ]);
  });
});

test('PAX: every member has an extended header (its float mtime), the path record only for long or non-ASCII names', () => {
  const archive = fixture('3.9');
  expect(archive.subarray(0, 14).toString('latin1')).toBe('././@PaxHeader');
  const records = `134 path=${LONG}\n24 mtime=1700000000.123\n`;
  expect(archive.subarray(512, 512 + Buffer.byteLength(records)).toString('utf8')).toBe(records);
  expect(archive.subarray(512 + Buffer.byteLength(records), 1024).every((b) => b === 0)).toBe(true);
  expect(archive.subarray(1024, 1028).toString('latin1')).toBe('?rg_');
  expect(archive.length % 10_240).toBe(0);
});

test('an empty archive is one record of zeros', () => {
  expect(buildTar([], MTIME_MS).equals(Buffer.alloc(10_240))).toBe(true);
  expect(readTar(Buffer.alloc(10_240))).toEqual([]);
});

test('a plain ustar member with a prefix after a global PAX header is read', () => {
  const global = Buffer.from(fixture('3.9').subarray(0, 512));
  global.write('g', 156, 'latin1');
  global.write('00000000021\0', 124, 'latin1');
  reChecksum(global);
  const records = Buffer.concat([Buffer.from('17 comment=hello\n'), Buffer.alloc(512 - 17)]);
  const ustar = Buffer.from(fixture('3.9').subarray(1024, 1536));
  ustar.write('dir\0', 345, 'latin1');
  ustar.write('short.ovpn\0'.padEnd(100, '\0'), 0, 'latin1');
  reChecksum(ustar);
  const text = Buffer.from('client\nremote a 1194 udp\n');
  const data = Buffer.concat([
    global,
    records,
    ustar,
    text,
    Buffer.alloc(512 - text.length),
    Buffer.alloc(1024),
  ]);
  expect(readTar(data)).toEqual([{ name: 'dir/short.ovpn', content: text.toString() }]);
});

test('a corrupt header (checksum) or a truncated archive throws', () => {
  const corrupt = Buffer.from(fixture('3.6'));
  corrupt[5] = 0x41;
  expect(() => readTar(corrupt)).toThrow(/checksum/);
  expect(() => readTar(fixture('3.6').subarray(0, 1540))).toThrow(/truncated/);
});

/** Writes a header's checksum again after an edit. */
function reChecksum(header: Buffer): void {
  header.write('        ', 148, 'latin1');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0`, 148, 'latin1');
}
