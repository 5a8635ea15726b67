/**
 * What the server does to names and ids before using them, so the client can predict the
 * stored name and refuse ids the server would misread.
 */
import { Unprocessable } from '@fleet/engine';
import { NARROW_NAME_FILTER } from './versions';

/** `NAME_SAFE_CHARS` of pritunl/constants.py since 1.32.4278.45. */
const NAME_SAFE = new Set([...'-=_@.:/!#$&*+?^|~']);
/** ... and before it, with `%`, backtick, `{` and `}`. */
const NAME_SAFE_BEFORE = new Set([...NAME_SAFE, ...'%`{}']);
const ALNUM = /^[\p{L}\p{N}]$/u;

/**
 * Pritunl's `utils.filter_str` of the server's release (`GET /state`'s `version`; without one,
 * the current rule), applied to organization, user and group names and emails: characters that
 * are not Unicode letters or digits or in NAME_SAFE_CHARS are removed ("My Org" is stored as
 * "MyOrg"; "web{1}" as "web1" from 1.32.4278.45). Names are not unique on the server.
 */
export function filterName(name: string, release?: number): string {
  const safe = release !== undefined && release < NARROW_NAME_FILTER ? NAME_SAFE_BEFORE : NAME_SAFE;
  let out = '';
  for (const ch of name) if (ALNUM.test(ch) || safe.has(ch)) out += ch;
  return out;
}

const OBJECT_ID = /^[0-9a-f]{24}$/;

/**
 * Refuses an id that is not 24 lowercase hex characters before it is sent: Flask reads a
 * malformed id as "none", so `GET` answers a list, `DELETE` does nothing and `PUT` creates a
 * junk record (notes "Checked against the source a second time").
 */
export function checkId(manager: string, kind: string, id: string): void {
  if (!OBJECT_ID.test(id)) {
    throw new Unprocessable(
      `VPN manager "${manager}": invalid ${kind} id "${id.slice(0, 40)}" (24 lowercase hex characters expected)`,
      {
        [kind]: 'not a VPN server id',
      },
    );
  }
}

/** The `search` words the server parses as filters (organization.py `iter_users`). */
const SEARCH_PREFIXES = ['id:', 'type:', 'group:', 'email:', 'status:'];

/** Whether a name can be looked up with `?search=` (it holds none of the filter prefixes). */
export function searchable(name: string): boolean {
  return name !== '' && !SEARCH_PREFIXES.some((p) => name.includes(p));
}
