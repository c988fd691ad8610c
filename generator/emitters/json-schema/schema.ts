/**
 * @module
 * What every JSON Schema printer of the generator shares: the schema as plain data, the options
 * that say where it goes (a `$ref` target, an OpenAPI document or a validator, the side of the
 * exchange), and descriptions.
 */
import type { NamedType } from '../../model/model.js';
import type { Direction } from './direction.js';

/** A JSON Schema object as plain data (what `JSON.stringify` prints). */
export type JsonSchema = { [key: string]: unknown };

export interface JsonSchemaOptions {
  /** Where a reference to a named type points: `#/$defs/Issue`, `#/components/schemas/Issue`, … */
  readonly refTo: (target: NamedType) => string;
  /** Print for an OpenAPI document: OpenAPI's `discriminator` with `mapping`, `type` beside `enum`. */
  readonly openapi?: boolean;
  /**
   * The side of the exchange validated: `request` leaves `readOnly` properties out of
   * `required`, `response` leaves out `writeOnly` ones. Unset (documents): `required` as declared.
   */
  readonly direction?: Direction;
}

/**
 * `schema` with its description and deprecation, when it has them.
 *
 * @example
 * withDoc({ type: 'string' }, 'The login name', false); // { type: 'string', description: 'The login name' }
 */
export function withDoc(schema: JsonSchema, doc: string | undefined, deprecated: boolean): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (doc) out.description = doc;
  if (deprecated) out.deprecated = true;
  return out;
}
