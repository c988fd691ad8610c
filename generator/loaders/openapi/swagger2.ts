/**
 * @module
 * Swagger 2.0 specifics, mapped onto OpenAPI 3 shapes so that one converter serves both:
 * non-body parameters carry their schema inline, `collectionFormat` becomes `style`/`explode`
 * (or a form field's separator),
 * `in: body` and `in: formData` become a request body, `produces` the response media types.
 */
import type { FormSeparator, Parameter } from '../../model/model.js';

type Json = Record<string, unknown>;

/** Keys of a Swagger 2.0 non-body parameter that describe its value (they form its schema). */
const SCHEMA_KEYS = [
  'type',
  'format',
  'items',
  'enum',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
  'x-nullable',
] as const;

/**
 * The JSON schema of a Swagger 2.0 parameter that is not `in: body`.
 * @example swaggerParameterSchema({ name: 'page', in: 'query', type: 'integer', minimum: 1 }) // { type: 'integer', minimum: 1 }
 */
export function swaggerParameterSchema(param: Json): Json {
  const schema: Json = {};
  for (const key of SCHEMA_KEYS) if (param[key] !== undefined) schema[key] = param[key];
  return schema;
}

/**
 * `collectionFormat` as OpenAPI 3 `style`/`explode`. Returns undefined for `tsv`,
 * which OpenAPI 3 cannot express.
 * @example collectionFormatStyle('multi', 'query') // { style: 'form', explode: true }
 */
export function collectionFormatStyle(
  format: unknown,
  location: Parameter['in'],
): { style: NonNullable<Parameter['style']>; explode: boolean } | undefined {
  switch (format ?? 'csv') {
    case 'csv':
      return { style: location === 'query' || location === 'cookie' ? 'form' : 'simple', explode: false };
    case 'multi':
      return { style: 'form', explode: true };
    case 'ssv':
      return { style: 'spaceDelimited', explode: false };
    case 'pipes':
      return { style: 'pipeDelimited', explode: false };
    default:
      return undefined;
  }
}

/**
 * The separator of an array `formData` parameter sent in one field, by its `collectionFormat`
 * (`csv` when absent); undefined for `multi` (one field per element) and formats that do not exist.
 * @example formSeparator(undefined) // ','
 */
export function formSeparator(format: unknown): FormSeparator | undefined {
  switch (format ?? 'csv') {
    case 'csv':
      return ',';
    case 'ssv':
      return ' ';
    case 'tsv':
      return '\t';
    case 'pipes':
      return '|';
    default:
      return undefined;
  }
}

const FORM_TYPES: ReadonlySet<string> = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/**
 * Media types for a `formData` body: the form types the operation `consumes`, else
 * multipart when a parameter is a file upload and urlencoded otherwise.
 */
export function formMediaTypes(consumes: readonly string[], hasFile: boolean): string[] {
  const declared = consumes.filter((m) => FORM_TYPES.has(m.split(';')[0]!.trim()));
  if (declared.length > 0) return declared;
  return [hasFile ? 'multipart/form-data' : 'application/x-www-form-urlencoded'];
}

/** A `string[]` property of a Swagger object (`produces`, `consumes`), or undefined. */
export function mediaList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}
