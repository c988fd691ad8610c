/**
 * @module
 * The JSON forms of the google.protobuf well-known types, in one table with both of their forms:
 * what a document shows (standard JSON Schema a reader of `/docs` knows: `format: date-time` for a
 * Timestamp) and what a validator checks (exactly what ProtoJSON reads: `proto-timestamp` refuses a
 * date without `T` or an offset, or beyond year 9999). Fields of these types are inlined as
 * their forms wherever they appear, rather than referred to in `google/protobuf/*` files.
 */
import type { WellKnownType } from '../../model/model.js';
import { assertNever } from '../../model/type-utils.js';
import { protoScalarSchema } from './proto-scalars.js';
import type { JsonSchema } from './schema.js';

/**
 * `document`: an OpenAPI document's description; `validator`: the value of a set field as a
 * validator checks it (`null` is added per field).
 */
export type WellKnownForm = 'document' | 'validator';

/**
 * A well-known type's JSON form.
 *
 * @example
 * wellKnownSchema('Timestamp', 'document'); // { type: 'string', format: 'date-time' }
 * wellKnownSchema('Timestamp', 'validator'); // { type: 'string', format: 'proto-timestamp' }
 */
export function wellKnownSchema(wkt: WellKnownType, form: WellKnownForm): JsonSchema {
  const document = form === 'document';
  switch (wkt) {
    case 'Timestamp':
      return document ? { type: 'string', format: 'date-time' } : { type: 'string', format: 'proto-timestamp' };
    case 'Duration':
      return document ? { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]{1,9})?s$' } : { type: 'string', format: 'proto-duration' };
    case 'FieldMask':
      return document ? { type: 'string' } : { type: 'string', format: 'proto-field-mask' };
    case 'Struct':
      return document ? { type: 'object' } : { type: 'object' };
    case 'Value':
      return document ? {} : {};
    case 'ListValue':
      return document ? { type: 'array' } : { type: 'array' };
    case 'NullValue':
      return document ? { type: 'null' } : { enum: [null, 'NULL_VALUE', 0] };
    case 'Empty':
      return document ? { type: 'object', additionalProperties: false } : { type: 'object', additionalProperties: false };
    case 'Any':
      return document
        ? { type: 'object', properties: { '@type': { type: 'string' } }, required: ['@type'] }
        : { type: 'object', properties: { '@type': { type: 'string' } } };
    case 'DoubleValue':
      return document ? { type: ['number', 'null'] } : protoScalarSchema('double');
    case 'FloatValue':
      return document ? { type: ['number', 'null'] } : protoScalarSchema('float');
    case 'Int64Value':
      return document ? { type: ['string', 'integer', 'null'], format: 'int64' } : protoScalarSchema('int64');
    case 'UInt64Value':
      return document ? { type: ['string', 'integer', 'null'], format: 'uint64' } : protoScalarSchema('uint64');
    case 'Int32Value':
      return document ? { type: ['integer', 'null'], format: 'int32' } : protoScalarSchema('int32');
    case 'UInt32Value':
      return document ? { type: ['integer', 'null'], format: 'uint32' } : protoScalarSchema('uint32');
    case 'BoolValue':
      return document ? { type: ['boolean', 'null'] } : protoScalarSchema('bool');
    case 'StringValue':
      return document ? { type: ['string', 'null'] } : protoScalarSchema('string');
    case 'BytesValue':
      return document ? { type: ['string', 'null'], format: 'byte' } : protoScalarSchema('bytes');
    default:
      return assertNever(wkt);
  }
}
