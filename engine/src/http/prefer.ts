/**
 * The `Prefer` request header (RFC 7240): the client's preferences, by lower-cased name, each with
 * its value (`""` when it has none): `Prefer: respond-async, wait=10` -> respond-async: "",
 * wait: "10". Parameters after `;` are not kept (none of the preferences read here has any), and a
 * malformed entry is ignored, as §2 lets a server do with a preference it does not understand.
 */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The preferences of a `Prefer` header (or of several, joined by commas); empty when absent. */
export function parsePrefer(header: string | undefined): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  if (header === undefined) return out;
  for (const entry of header.split(',')) {
    const [pair = ''] = entry.split(';');
    const eq = pair.indexOf('=');
    const name = (eq < 0 ? pair : pair.slice(0, eq)).trim().toLowerCase();
    const value =
      eq < 0
        ? ''
        : pair
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    // §2: the first occurrence of a preference counts.
    if (TOKEN.test(name) && !out.has(name)) out.set(name, value);
  }
  return out;
}
