/** @fleet/engine: the generic resource engine. */
export * from './errors';
export type { Log } from './log';
export * from './definition/fields';
export * from './definition/define';
export * from './definition/infer';
export * from './definition/local-api';
export * from './definition/routes';
export { compileResource, type CompiledResource, type Reference, type Relation } from './compile/compile';
export { createRegistry, type Registry } from './compile/registry';
export { createEngine, SYSTEM, systemContext, type Engine, type EngineOptions } from './engine';
export * from './migrations';
export { apiDocument, apiRouter, type ApiOptions } from './http/api';
export type { Admission, AdmittedRequest } from './http/context';
export {
  createAuthenticator,
  defaultTokenName,
  tokenDigest,
  type Authenticator,
  type ReloadableAuthenticator,
  type StoredGrant,
  type TokenGrant,
} from './http/auth';
export { requireRole } from './ops/access';
export { errorHandler, notFoundHandler, errorBody } from './http/error-handler';
export { formatHttpDate, parseDate } from './http/dates';
export { createSecretBox, MASK } from './secrets';
export { stampNow } from './ops/clock';
/** The content ETag of a stored document, as every write computes it (for bulk loaders and tests). */
export { etagOf } from './ops/etag';
export { parseWhere } from './query/where';
export { isPlainObject } from './values';
export * from './addresses';
/** A checked `where` as an in-memory predicate, evaluated as the embedded store does (mingo, patterns on RE2). */
export { compileFilter as compileMatcher } from './query/in-memory';
export { compilePattern, literalPrefix, patternError, type Pattern } from './query/pattern';
export { BOOLEAN_PARAM_VALUES, booleanParam, parseListParams, single } from './query/params';
export type * from './store/port';
export { BOOLEAN_PARAM_SCHEMA, openApiDocument } from './openapi';
export { MAX_PATTERN_LENGTH } from './query/pattern';
export { assertJsonBounds, MAX_SORT_TERMS, WHERE_BOUNDS, type JsonBounds } from './query/bounds';
export { unsafeRegexReason } from './query/regex-guard';
