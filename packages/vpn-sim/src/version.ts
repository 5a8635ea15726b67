/**
 * The Pritunl release the simulator plays (option `version`) and the releases where a rule it
 * simulates changed. A rule asks `since(ctx, 'nameFilter')`; each change below names the commit
 * that made it and the first release tag holding it (read in github.com/pritunl/pritunl, and
 * github.com/pritunl/pritunl-web, which a release bundles as it was when the release was built).
 */

/** The oldest release the service supports, and the simulator's default (docs/vpn.md says why). */
export const OLDEST_VERSION = '1.30.2817.44';
/** The newest release the simulator was checked against. */
export const NEWEST_VERSION = '1.34.4681.89';

/**
 * The releases the tests of version-dependent rules run against: the oldest, the release that
 * filters more characters out of names, the one that moved profiles to `/data` and added the
 * web token, and the newest.
 */
export const TESTED_VERSIONS = [OLDEST_VERSION, '1.32.4278.45', '1.32.4465.96', NEWEST_VERSION] as const;

/** Where a simulated rule changed: the first release with the new behaviour. */
export const CHANGES = {
  /** 568ef8c6c "Update auth handler": `GET /state` answers `user` (`sub_url_key`). */
  stateUser: '1.30.3113.65',
  /** 66b195eb3 "Fix unicode filename": the `.tar`'s Content-Disposition name is NFKD, ASCII only. */
  asciiFilename: '1.30.3012.75',
  /** 543beccd6: `yubico_id` is kept for every auth type containing `yubico`, not `yubico` alone. */
  yubicoTypes: '1.30.3058.49',
  /** 77ce14f93: `yubico_id` kept whatever the auth type; `User.dict()` gains `last_active`. */
  yubicoAnyType: '1.30.3116.68',
  /** e2a4594e5: `GET /user` answers `auth_modes` (a list) instead of `otp_auth` (a bool). */
  authModes: '1.30.3221.67',
  /** 0841b3f4a: `User.dict()` gains `devices`. */
  devices: '1.32.3479.95',
  /** d3ed3ad02 "Update name safe chars in constants": `%`, `` ` ``, `{`, `}` are filtered out. */
  nameFilter: '1.32.4278.45',
  /** 3038b4b3f: `Organization.dict()` gains `expiration` (the CA's notAfter). */
  expiration: '1.32.4399.86',
  /**
   * 5540ea534 (handlers/key.py) with pritunl-web ebb90b0 "Add data handlers": profiles at
   * `/data/<org>/<user>.tar`; 29ecf4f4d with pritunl-web f3af4a8 "Add authorize to handlers": the
   * `token` cookie, checked by the proxy (`Authorize`), and Flask's `PR-Validated` check.
   */
  dataRoutes: '1.32.4465.96',
  /** pritunl-web b74e78e "Add features to handlers" (2025-12-23): HTTP/1.0 answered 505. */
  http10: '1.32.4512.98',
  /** 50c3fbe0d "Add clear token to auth handler": `DELETE /auth/session` deletes the `token` cookie. */
  logoutClearsToken: '1.32.4537.56',
  /** dbc156426: an unknown administrator is `auth_invalid_username`, no longer `auth_invalid`. */
  invalidUsername: '1.32.4565.56',
} as const;

export type Change = keyof typeof CHANGES;

/**
 * `utils.get_int_ver` (pritunl/utils/misc.py), what `GET /state` answers as `version`: each
 * number padded to 4 digits, the last one raised by 4000 for a release (1000 alpha, 2000 beta,
 * 3000 rc, nothing for a snapshot): '1.34.4681.89' -> 1003446814089.
 */
export function versionInt(version: string): number {
  const numbers = version.match(/\d+/g) ?? [];
  const last = Number(numbers.pop() ?? '0');
  const bump = version.includes('snapshot')
    ? 0
    : version.includes('alpha')
      ? 1000
      : version.includes('beta')
        ? 2000
        : version.includes('rc')
          ? 3000
          : 4000;
  return Number([...numbers, String(last + bump)].map((n) => n.padStart(4, '0')).join(''));
}

/** A release the simulator can play: four dot-separated numbers. */
export function checkVersion(version: string): string {
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(version))
    throw new Error(`vpn-sim: version "${version}" is not a Pritunl release (like ${OLDEST_VERSION})`);
  return version;
}

/** Whether `release` (a `versionInt`) has the behaviour that changed in `change`. */
export function hasChange(release: number, change: Change): boolean {
  return release >= versionInt(CHANGES[change]);
}
