/**
 * The release: the root package.json's version, the one version `fleet --version`, the start
 * line, `/api/health` and the OpenAPI document say (the build inlines it; nothing else is read).
 */
import { version } from '../../../package.json';

/** This release's version (semver). */
export const VERSION: string = version;
