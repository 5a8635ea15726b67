/** @fleet/engine: the generic resource engine. */
export * from './errors';
export * from './definition/fields';
export * from './definition/define';
export * from './definition/infer';
export { compileResource, type CompiledResource, type Relation } from './compile/compile';
export { createRegistry, type Registry } from './compile/registry';
export { createEngine, SYSTEM, type Engine, type EngineOptions } from './engine';
export { apiRouter, type ApiOptions } from './http/api';
export { createAuthenticator, defaultTokenName, requireRole, type Authenticator, type TokenGrant } from './http/auth';
export { errorHandler, notFoundHandler, errorBody } from './http/error-handler';
export { formatHttpDate, parseDate } from './http/dates';
export { MASK } from './http/serialize';
export { createSecretBox } from './ops/secrets';
export type { FullResourceOps } from './ops/resource-ops';
export { parseWhere, isPlainObject } from './query/where';
export { parseListParams, single } from './query/params';
export type * from './store/port';
export { openApiDocument } from './openapi';
