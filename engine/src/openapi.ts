/**
 * The OpenAPI 3.1 document generated from the definitions and the routes' Zod schemas
 * (openapi/document.ts; served at /api/openapi.json, written by `fleet openapi`).
 */
export { openApiDocument, type DocumentInfo } from './openapi/document';
export { BOOLEAN_PARAM_SCHEMA } from './openapi/components';
