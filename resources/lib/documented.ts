/**
 * A request body or query that the handler (or the integration it calls) checks in its own
 * words, described for the OpenAPI document. The route's schema is `z.unknown()`, so the engine
 * passes the value through as it came (no 422 of its own, no change of a refusal's status or
 * message); its JSON Schema is `shape`'s, so the document, generated clients and the typed
 * client show what the handler accepts.
 */
import { z } from 'zod';

/** `z.unknown()` described as `shape` in the OpenAPI document. */
export function checkedByHandler(shape: z.ZodType): z.ZodType {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(shape, { io: 'input', unrepresentable: 'any' });
  return z.unknown().meta(schema);
}
