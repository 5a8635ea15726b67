/**
 * @fleet/client: a typed client of the Fleet API, generated from its OpenAPI document
 * (openapi-typescript types, openapi-fetch calls), with helpers for what every caller needs:
 * all pages of a query, typed `where` filters, `If-Match` writes, creates and uploads.
 */
export {
  createFleetClient,
  FleetApiError,
  ifMatch,
  linkUrl,
  ok,
  type ApiError,
  type Body,
  type FleetClient,
  type FleetClientOptions,
  type Schemas,
} from './client';
export {
  all,
  createMany,
  createOne,
  items,
  pages,
  where,
  type CreatePath,
  type FieldOperators,
  type ItemOf,
  type ListPath,
  type ListQuery,
  type PageOf,
  type Where,
} from './pages';
export { formDataOf, upload, type UploadFields, type UploadPath } from './upload';
export type { components, operations, paths } from './schema';
