/**
 * Pritunl releases as the client compares them: `GET /state` answers `version` as
 * `utils.get_int_ver` builds it (each of the four numbers on 4 digits, the last raised by 4000
 * for a release), so '1.32.4278.45' is 1003242784045 and releases compare as numbers.
 */

/** The `version` a release's `GET /state` answers. */
export function releaseNumber(release: string): number {
  const [major = 0, minor = 0, build = 0, patch = 0] = release.split('.').map(Number);
  return ((major * 10_000 + minor) * 10_000 + build) * 10_000 + patch + 4000;
}

/** From this release `NAME_SAFE_CHARS` no longer keeps `%`, `` ` ``, `{`, `}` (constants.py, d3ed3ad02). */
export const NARROW_NAME_FILTER = releaseNumber('1.32.4278.45');
