/**
 * One operation object: id, tag, summary, the bearer scheme with the least role it needs
 * (`x-required-role`: viewer < operator < admin), parameters, body, and its success
 * and error responses.
 */
import type { Role } from '../definition/fields';
import { errorResponses } from './components';
import type { Schema } from './schema';

export interface OperationSpec {
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  /** The least role; `null`: no token needed. */
  readonly role: Role | null;
  readonly parameters?: readonly Schema[];
  readonly requestBody?: Schema;
  /** Success responses (2xx, 304) by status. */
  readonly responses: Readonly<Record<string, Schema>>;
  readonly errors: readonly number[];
  /** The 422 may be a bulk insert's `_items`. */
  readonly bulk?: boolean;
  readonly security?: readonly Schema[];
}

/** The OpenAPI operation object of `spec`. */
export function operation(spec: OperationSpec): Schema {
  const roleNote =
    spec.role === null ? 'No token needed.' : `Needs a bearer token of role ${spec.role} or higher.`;
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: [spec.description, roleNote].filter((s) => s !== undefined && s !== '').join('\n\n'),
    security: spec.security ?? (spec.role === null ? [] : [{ bearer: [] }]),
    ...(spec.role === null ? {} : { 'x-required-role': spec.role }),
    ...(spec.parameters && spec.parameters.length > 0 ? { parameters: spec.parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: { ...spec.responses, ...errorResponses(spec.errors, spec.bulk === true) },
  };
}

/** A path template parameter (`{id}`). */
export function pathParameter(name: string, description: string): Schema {
  return { name, in: 'path', required: true, description, schema: { type: 'string' } };
}
