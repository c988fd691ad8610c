/**
 * @module
 * Model → JSON Schema (2020-12 vocabulary that ajv's draft-07 mode also accepts: `$defs`, `$ref`,
 * `type` arrays), for the validators emitter (compiled by ajv) and the OpenAPI-document emitter
 * (`components/schemas`). Two dialects: OpenAPI's plain one (`openapi.ts`), which documents use for
 * every type and validators for OpenAPI types, and the proto3 JSON mapping as ProtoJSON reads it
 * (`proto-json.ts`), which validators of proto types check.
 */
import type { NamedType } from '../../model/model.js';
import { isProtoFile } from '../../model/schema-file.js';
import { openapiNamedTypeSchema } from './openapi.js';
import { protoNamedTypeSchema } from './proto-json.js';
import type { JsonSchema, JsonSchemaOptions } from './schema.js';

export type { Direction } from './direction.js';
export { hasDirectionalForms, requiredOnlyElsewhere } from './direction.js';
export { typeRefSchema } from './openapi.js';
export type { JsonSchema, JsonSchemaOptions } from './schema.js';

/**
 * The schema of a named type, as it appears under `$defs` / `components/schemas`.
 *
 * @example
 * namedTypeSchema(issueMessage, { refTo: (t) => `#/$defs/${t.localName}` });
 * // { type: 'object', properties: { id: { type: 'integer', format: 'int64' }, … }, required: ['id'] }
 */
export function namedTypeSchema(type: NamedType, options: JsonSchemaOptions): JsonSchema {
  // Validators of proto types accept exactly what the codec's `fromJson` accepts (aliases, null,
  // numbers as strings, oneofs, map keys): see proto-json.ts. Documents keep the plain form.
  if (isProtoFile(type.parent) && !options.openapi) return protoNamedTypeSchema(type, options);
  return openapiNamedTypeSchema(type, options);
}
