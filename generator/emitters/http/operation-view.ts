/**
 * @module
 * What the HTTP server and client emitters compute from an operation before
 * printing: names, the success response, a parameter's decorator options
 * (`type`, `required`, `array`, `enum`, `format`, `minimum`, `maximum`,
 * `minLength`, `maxLength`, the `object` option of object query parameters, and
 * whether a generated validator checks it instead), and the field types of a
 * form body (what `formBody` converts each field to).
 */
import { isFormMediaType, isJsonMediaType } from '../../model/media-types.js';
import type { FormSeparator, HttpOperation, MediaContent, Parameter, ResponseSpec, Service, TypeRef } from '../../model/model.js';
import { assertNever } from '../../model/type-utils.js';
import type { GeneratedFile, ImportSymbol, Printable } from '../../printer/generated-file.js';

/** The `object` option of an object query parameter, as printed by {@link printOptions}. */
export interface ObjectOption {
  readonly kind: 'object';
  readonly style: 'deepObject' | 'form';
  readonly explode?: false;
  readonly fields: readonly [string, FormField][];
}

/** An option value as printed: strings are quoted, symbols imported. */
export type OptionValue =
  | string
  | number
  | boolean
  | readonly (string | number)[]
  | { readonly separator: string }
  | ObjectOption
  | ImportSymbol;

/** The HTTP operations of a service, in schema order. */
export function httpOperations(service: Service): HttpOperation[] {
  return service.operations.filter((op): op is HttpOperation => op.kind === 'http');
}

/** The body content that gets a validator: JSON first, else the first media type with a schema. */
export function validatedBody(op: HttpOperation): MediaContent | undefined {
  const contents = op.requestBody?.contents ?? [];
  const isJson = (m: string) => m === 'application/json' || /\+json$/.test(m) || m === '*/*';
  return contents.find((c) => c.type && isJson(c.mediaType)) ?? contents.find((c) => c.type);
}

/** Summary and description, as one JSDoc text. */
export function operationDoc(op: HttpOperation): string | undefined {
  const parts = [op.summary, op.doc].filter((s): s is string => s !== undefined && s.trim() !== '');
  const unique = parts.length === 2 && parts[0]!.trim() === parts[1]!.trim() ? [parts[0]!] : parts;
  return unique.length > 0 ? unique.join('\n\n') : undefined;
}

/** The response a plain return value answers with, and the status it gets. */
export type SuccessResponse = ResponseSpec & { readonly status: number };

/**
 * The success response: the first `2xx` one; else a `2XX` range; else, when the operation declares
 * no success at all, `default` (an API that documents only `default` answers every call with it).
 * A range or `default` gets status 200: the schema names no status, and 200 is what a client of
 * any of them accepts without surprise (201 would promise a created resource nobody declared).
 *
 * @example
 * successResponse(op); // { status: 200, contents: [...], headers: [], doc: 'ok' }
 */
export function successResponse(op: HttpOperation): SuccessResponse | undefined {
  const exact = op.responses.find((r): r is SuccessResponse => typeof r.status === 'number' && r.status >= 200 && r.status < 300);
  if (exact) return exact;
  const range = op.responses.find((r) => r.status === '2XX');
  if (range) return { ...range, status: 200 };
  const fallback = op.responses.find((r) => r.status === 'default');
  return fallback ? { ...fallback, status: 200 } : undefined;
}

/** Follows aliases to the type they name. */
function resolve(type: TypeRef): TypeRef {
  let t = type;
  for (let i = 0; i < 32 && t.kind === 'ref' && t.target.kind === 'alias'; i++) t = t.target.type;
  return t;
}

/** A scalar's `ParamType` in the decorator runtime. */
function scalarParamType(type: TypeRef & { kind: 'scalar' }): string | undefined {
  switch (type.scalar) {
    case 'string':
      if (type.format === 'date' || type.format === 'date-time') return type.format;
      if (type.format === 'binary') return 'file';
      return 'string';
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return 'int64';
    case 'integer':
    case 'int32':
    case 'uint32':
    case 'sint32':
    case 'fixed32':
    case 'sfixed32':
      return type.format === 'int64' ? 'int64' : 'integer';
    case 'number':
    case 'double':
    case 'float':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'bytes':
      return 'string';
    case 'null':
      return undefined;
    default:
      return assertNever(type.scalar, 'scalar');
  }
}

/** Formats the runtime's `format` option checks itself (`date` and `date-time` are types there). */
const RUNTIME_FORMATS: ReadonlySet<string> = new Set(['email', 'uuid', 'uri']);
/** String formats the generated validators check that the runtime's options do not: they need a validator. */
const VALIDATOR_FORMATS: ReadonlySet<string> = new Set(['time', 'uri-reference', 'hostname', 'ipv4', 'ipv6', 'byte']);

/**
 * True when a query parameter holds an object (an inline object, a map, a named object type)
 * serialized by `style` (`form`, `deepObject`): the routes read it with the runtime's `object`
 * option from its fields. A `content: application/json` parameter is JSON text instead.
 */
export function isObjectQueryParam(p: Parameter): boolean {
  return p.in === 'query' && p.mediaType === undefined && isObjectType(resolve(p.type));
}

/** True for a parameter described by `content` with a JSON media type: its value is JSON text. */
function isJsonParam(p: Parameter): boolean {
  return p.mediaType !== undefined && isJsonMediaType(p.mediaType);
}

function isObjectType(type: TypeRef): boolean {
  return type.kind === 'object' || type.kind === 'map' || (type.kind === 'ref' && type.target.kind === 'message' && !type.target.wellKnown);
}

/**
 * True when a parameter is checked by a generated validator (`validate…Param`, compiled from its
 * schema like a body's) rather than by the decorator options alone: object query parameters, and
 * parameters whose schema says what the options cannot — `pattern` (the runtime compiles option
 * patterns with the `u` flag, which rejects what schemas commonly write), exclusive bounds,
 * `multipleOf`, `minItems`/`maxItems`/`uniqueItems`, string formats only the validators know.
 * Such a parameter's options keep only what converts the text (`type`, `array`, `required`), so
 * each problem is reported once, by the validator.
 *
 * @example
 * parameterValidated(limitParam); // false: { type: 'integer', minimum: 1 } says it all
 * parameterValidated(slugParam); // true: pattern '^[a-z]+$'
 */
export function parameterValidated(p: Parameter): boolean {
  if (isJsonParam(p)) return p.type.kind !== 'unknown';
  if (isObjectQueryParam(p)) return true;
  return needsSchema(p.type, 0);
}

function needsSchema(type: TypeRef, depth: number): boolean {
  const t = resolve(type);
  if (depth > 4) return false;
  switch (t.kind) {
    case 'scalar': {
      const c = t.constraints;
      if (c?.pattern !== undefined || c?.exclusiveMinimum !== undefined || c?.exclusiveMaximum !== undefined || c?.multipleOf !== undefined)
        return true;
      return t.scalar === 'string' && t.format !== undefined && VALIDATOR_FORMATS.has(t.format);
    }
    case 'array': {
      const c = t.constraints;
      if (c?.minItems !== undefined || c?.maxItems !== undefined || c?.uniqueItems) return true;
      return needsSchema(t.items, depth + 1);
    }
    case 'object':
    case 'map':
    case 'intersection':
      return true;
    case 'union':
      return enumValues(t) === undefined && t.variants.some((v) => needsSchema(v, depth + 1));
    case 'ref':
      return t.target.kind === 'message';
    case 'literal':
    case 'unknown':
      return false;
    default:
      return assertNever(t);
  }
}

/**
 * Decorator options of one parameter, in a fixed key order. `validate` is the parameter's
 * generated validator, when {@link parameterValidated} says it has one; then the options carry
 * only what converts its text, and the validator checks the rest.
 */
export function paramOptions(p: Parameter, validate?: ImportSymbol): Record<string, OptionValue> {
  const out: Record<string, OptionValue> = {};
  let type = resolve(p.type);
  if (isJsonParam(p)) {
    // `content: application/json`: the value is JSON text.
    out['type'] = 'json';
    out['required'] = p.required;
    if (validate) out['validate'] = validate;
    return out;
  }
  if (isObjectQueryParam(p)) {
    out['required'] = p.required;
    out['object'] = objectOption(p);
    if (validate) out['validate'] = validate;
    return out;
  }
  let array: OptionValue | undefined;
  if (type.kind === 'array') {
    array = arrayOption(p);
    type = resolve(type.items);
  }
  if (type.kind === 'scalar') {
    const t = scalarParamType(type);
    if (t !== undefined) out['type'] = t;
  } else if (type.kind === 'ref' && type.target.kind === 'enum') {
    out['type'] = type.target.valueType === 'integer' ? 'integer' : 'string';
  } else if (type.kind === 'literal' && type.value !== null && typeof type.value !== 'boolean') {
    out['type'] = typeof type.value === 'number' ? 'number' : 'string';
  } else if (isObjectType(type)) {
    // An object in a path, header or cookie (or inside an array): read as JSON text.
    out['type'] = 'json';
  }
  out['required'] = p.required;
  if (array !== undefined) out['array'] = array;
  const values = enumValues(type);
  // An inline enum is a union of literals: its values say what to convert the text to.
  if (values && out['type'] === undefined) out['type'] = values.every((v) => typeof v === 'number') ? 'number' : 'string';
  if (validate) {
    out['validate'] = validate;
    return out;
  }
  if (values) out['enum'] = values;
  if (type.kind === 'scalar') {
    if (type.format !== undefined && RUNTIME_FORMATS.has(type.format)) out['format'] = type.format;
    const c = type.constraints;
    if (c?.minimum !== undefined) out['minimum'] = c.minimum;
    if (c?.maximum !== undefined) out['maximum'] = c.maximum;
    if (c?.minLength !== undefined) out['minLength'] = c.minLength;
    if (c?.maxLength !== undefined) out['maxLength'] = c.maxLength;
  }
  const ordered: Record<string, OptionValue> = {};
  for (const key of ['type', 'required', 'array', 'enum', 'format', 'minimum', 'maximum', 'minLength', 'maxLength'])
    if (out[key] !== undefined) ordered[key] = out[key]!;
  return ordered;
}

/**
 * The runtime's `object` option of an object query parameter: where its fields travel (`deepObject`
 * as `name[field]`, `form` exploded as fields of their own, `form` not exploded as
 * `name=k1,v1,k2,v2`) and what each field converts to (`formBody`'s field types).
 */
function objectOption(p: Parameter): ObjectOption {
  const style = p.style === 'deepObject' ? 'deepObject' : 'form';
  const explode = p.explode ?? true;
  // No files in a query: a binary string is text there. OpenAPI leaves nested values undefined;
  // an array or object field travels as JSON text, which is what the generated client sends.
  const queryField = (field: FormField): FormField => (field === 'file' ? 'string' : typeof field === 'string' ? field : 'json');
  const fields = formFields(p.type).map(([name, field]): [string, FormField] => [name, queryField(field)]);
  return { kind: 'object', style, ...(style === 'form' && !explode ? { explode: false } : {}), fields };
}

function arrayOption(p: Parameter): OptionValue {
  // OpenAPI defaults: query/cookie are `form` exploded (repeated keys); path/header are `simple` (comma-separated).
  const style = p.style ?? (p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple');
  const explode = p.explode ?? style === 'form';
  switch (style) {
    case 'form':
      return explode ? true : { separator: ',' };
    case 'simple':
      return { separator: ',' };
    case 'spaceDelimited':
      return { separator: ' ' };
    case 'pipeDelimited':
      return { separator: '|' };
    default:
      return true;
  }
}

function enumValues(type: TypeRef): (string | number)[] | undefined {
  if (type.kind === 'ref' && type.target.kind === 'enum') return type.target.values.filter((v) => !v.alias).map((v) => v.value);
  if (type.kind === 'union') {
    const values: (string | number)[] = [];
    for (const v of type.variants) {
      const r = resolve(v);
      if (r.kind !== 'literal' || r.value === null || typeof r.value === 'boolean') return undefined;
      values.push(r.value);
    }
    return values;
  }
  if (type.kind === 'literal' && (typeof type.value === 'string' || typeof type.value === 'number')) return [type.value];
  return undefined;
}

/**
 * A form field's type in the runtime's `formBody` (`runtime/rest/form-coercion.ts`): `[type]` for
 * an array sent one field per element, `[type, separator]` for one sent in a single field.
 */
export type FormFieldType = 'string' | 'integer' | 'number' | 'boolean' | 'file' | 'json' | 'any';
export type FormField = FormFieldType | readonly [FormFieldType] | readonly [FormFieldType, FormSeparator];

/**
 * The fields of a form body and what each is converted to, in schema order: the properties of an
 * object (of every part of an `allOf`, of every variant of a union; a name typed differently by two
 * variants is kept as sent). A body that is not an object has no fields.
 *
 * @example
 * formFields(bodyType); // [['count', 'integer'], ['tags', ['string']], ['avatar', 'file'], ['meta', 'json']]
 */
export function formFields(type: TypeRef, delimited: ReadonlyMap<string, FormSeparator> = new Map()): [string, FormField][] {
  const fields = new Map<string, FormField>();
  const add = (name: string, t: TypeRef) => {
    const field = formField(t, delimited.get(name));
    const seen = fields.get(name);
    fields.set(name, seen === undefined || sameField(seen, field) ? field : 'any');
  };
  // Depth-limited: a union may reach itself through its variants.
  const visit = (t: TypeRef, depth: number) => {
    if (depth > 8) return;
    const r = resolve(t);
    if (r.kind === 'object') for (const p of r.properties) add(p.name, p.type);
    else if (r.kind === 'ref' && r.target.kind === 'message' && !r.target.wellKnown)
      for (const f of r.target.fields) add(f.jsonName, f.type);
    else if (r.kind === 'intersection') for (const p of r.parts) visit(p, depth + 1);
    else if (r.kind === 'union') for (const v of r.variants) visit(v, depth + 1);
  };
  visit(type, 0);
  return [...fields];
}

function sameField(a: FormField, b: FormField): boolean {
  return typeof a === 'string' || typeof b === 'string' ? a === b : a[0] === b[0] && a[1] === b[1];
}

/**
 * A field: an array is one element per repeated field, or its elements joined by `separator` in
 * one field; an array inside it travels as JSON.
 */
function formField(type: TypeRef, separator: FormSeparator | undefined): FormField {
  const t = resolve(type);
  if (t.kind === 'array') {
    const items = resolve(t.items);
    const item = items.kind === 'array' ? 'json' : formValue(items);
    // JSON elements cannot share a field: their own text may hold the separator.
    return separator && item !== 'json' && item !== 'file' ? [item, separator] : [item];
  }
  return formValue(t);
}

/**
 * The delimited fields of an operation's form body (`MediaContent.delimited` of the model), from its
 * first form content: Swagger 2.0 gives every form media type the same parameters.
 */
export function formDelimited(op: HttpOperation): ReadonlyMap<string, FormSeparator> {
  return op.requestBody?.contents.find((c) => isFormMediaType(c.mediaType))?.delimited ?? new Map();
}

/** What one value travels as in a form: text converted by its schema type, a file, or a JSON part. */
function formValue(type: TypeRef): FormFieldType {
  const t = resolve(type);
  switch (t.kind) {
    case 'scalar': {
      if (t.scalar === 'null') return 'any';
      if (t.scalar === 'string' && t.format === 'binary') return 'file';
      const param = scalarParamType(t);
      if (param === 'integer' || param === 'int64') return 'integer';
      return param === 'number' || param === 'boolean' ? param : 'string';
    }
    case 'ref':
      if (t.target.kind === 'enum') return t.target.valueType === 'integer' ? 'integer' : 'string';
      return t.target.kind === 'message' && !t.target.wellKnown ? 'json' : 'any';
    case 'literal':
      if (t.value === null) return 'any';
      return typeof t.value === 'number' ? 'number' : typeof t.value === 'boolean' ? 'boolean' : 'string';
    case 'union': {
      // `nullable` and inline enums: the variants other than null decide.
      const kinds = new Set(t.variants.filter((v) => !isNull(v)).map(formValue));
      return kinds.size === 1 ? [...kinds][0]! : 'any';
    }
    case 'array':
    case 'map':
    case 'object':
    case 'intersection':
      return 'json';
    case 'unknown':
      return 'any';
    default:
      return assertNever(t);
  }
}

function isNull(type: TypeRef): boolean {
  return (type.kind === 'literal' && type.value === null) || (type.kind === 'scalar' && type.scalar === 'null');
}

/**
 * A key of an object literal naming the field `name`: a bare `__proto__` key would set the
 * literal's prototype instead, so that one is written computed.
 *
 * @example
 * objectLiteralKey('__proto__', f); // "['__proto__']"
 */
export function objectLiteralKey(name: string, f: GeneratedFile): string {
  return name === '__proto__' ? `[${f.string(name)}]` : f.propertyKey(name);
}

/** `{ type: 'string', required: true }` */
export function printOptions(options: Record<string, OptionValue | Printable>, f: GeneratedFile): Printable {
  const parts: Printable[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (parts.length > 0) parts.push(', ');
    parts.push(`${key}: `, printValue(value as OptionValue, f));
  }
  return parts.length === 0 ? '{}' : ['{ ', parts, ' }'];
}

function printValue(value: OptionValue, f: GeneratedFile): Printable {
  if (typeof value === 'string') return f.string(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => (typeof v === 'string' ? f.string(v) : String(v))).join(', ')}]`;
  if ((value as ImportSymbol).kind === 'import') return value as ImportSymbol;
  if ((value as ObjectOption).kind === 'object') {
    const object = value as ObjectOption;
    return (
      `{ style: ${f.string(object.style)}, ${object.explode === false ? 'explode: false, ' : ''}fields: ` +
      `${printFormFields(object.fields, f)} }`
    );
  }
  return `{ separator: ${f.string((value as { separator: string }).separator)} }`;
}

/**
 * `{ count: 'integer', tags: ['string'], avatar: 'file' }`, one field per line (at `indent` plus
 * two spaces) when that is long.
 */
export function printFormFields(fields: readonly [string, FormField][], f: GeneratedFile, indent = '    '): string {
  if (fields.length === 0) return '{}';
  const parts = fields.map(([name, field]) => {
    return (
      `${objectLiteralKey(name, f)}: ` +
      `${typeof field === 'string' ? f.string(field) : `[${field.map((part) => f.string(part)).join(', ')}]`}`
    );
  });
  const line = `{ ${parts.join(', ')} }`;
  // The decorator shares its line with the options and the parameter's type: a long list goes one field per line.
  return line.length <= 60 ? line : `{\n${parts.map((p) => `${indent}  ${p},\n`).join('')}${indent}}`;
}
