/**
 * @module
 * Typed form bodies: `application/x-www-form-urlencoded` and `multipart/form-data` fields arrive as
 * text and files; {@link formBody} turns them into the values a schema describes (numbers, booleans,
 * arrays from repeated fields, parsed JSON parts, files) before the body's validator runs, so a
 * handler typed `{ count: number }` receives a number or the request is answered 400.
 *
 * The generator prints one per form operation, from the body schema:
 * `@BodyParam(formBody({ count: 'integer', tags: ['string'], avatar: 'file' }, { validate, required: true }))`.
 */
import { ConversionError, compileConversion } from './convert/convert.js';
import { errorMessage } from './errors.js';
import type { ParamOptions, ValidateFunction, ValidationErrorObject, ValueReader } from './types.js';

/**
 * What one field holds:
 * - `string`: text as sent (a file part is rejected);
 * - `integer`, `number`: a decimal number (an integer: no fraction, within ±2^53);
 * - `boolean`: `true`/`false`, `1`/`0`, or `on` (what a checked HTML checkbox sends), in any case;
 * - `file`: an uploaded file part, a `File` (text is rejected);
 * - `json`: an object or array sent as JSON text, or as a JSON file part (multipart's default for
 *   object properties is `application/json`);
 * - `any`: kept as sent (text or `File`), for values of mixed types.
 */
export type FormFieldType = 'string' | 'integer' | 'number' | 'boolean' | 'file' | 'json' | 'any';

/** What separates the elements of an array sent in one field: `,` (csv), ` ` (ssv), `\t` (tsv) or `|` (pipes). */
export type FormSeparator = ',' | ' ' | '\t' | '|';

/**
 * A field's type; `[type]` for an array sent as one field per element (OpenAPI's default `form` +
 * `explode`, Swagger 2.0's `collectionFormat: multi`); `[type, separator]` for an array sent in one
 * field, its elements joined by `separator` (`explode: false`; Swagger 2.0's default `csv`).
 */
export type FormField = FormFieldType | readonly [FormFieldType] | readonly [FormFieldType, FormSeparator];

/** Fields by their name in the form. Fields not listed are kept as sent (repeated ones as arrays). */
export type FormFields = Readonly<Record<string, FormField>>;

/** A form as Hono's `parseBody({ all: true })` gives it: one value, or several when a field repeats. */
export type ParsedForm = Readonly<Record<string, string | File | readonly (string | File)[]>>;

/** What {@link formBody} takes besides the fields: the body's validator and whether a body must be sent. */
export interface FormBodyOptions {
  /** Runs on the converted body (the generated `validate…Body`); its violations join the conversion ones. */
  readonly validate?: ValidateFunction;
  readonly required?: boolean;
}

/**
 * `@BodyParam` options that read form bodies into typed values. Other Content-Types (JSON when an
 * operation takes both) are read as without it; the validator checks either.
 *
 * A value that cannot be converted is a 400 violation at its JSON pointer (`/count`, `/tags/1`),
 * listed with the validator's violations and those of the other parameters.
 *
 * @example
 * ```ts
 * @POST @Path('/pets') @Consumes('multipart/form-data')
 * create(
 *   @BodyParam(formBody({ age: 'integer', tags: ['string'], photo: 'file' }, { validate: validatePet, required: true })) pet: NewPet,
 * ) { … }
 * // age=x → 400 {"violations":[{"location":"body","name":"/age","message":"must be an integer, got \"x\""}], …}
 * ```
 */
export function formBody(fields: FormFields, options: FormBodyOptions = {}): ParamOptions {
  const failures = new WeakMap<object, readonly ValidationErrorObject[]>();
  const inner = options.validate;
  const validate: ValidateFunction = Object.assign(
    (value: unknown): boolean => {
      const failed = typeof value === 'object' && value !== null ? failures.get(value) : undefined;
      const valid = inner ? inner(value) : true;
      if (!failed) {
        validate.errors = inner?.errors ?? null;
        return valid;
      }
      // A field that could not be converted is reported once, by its conversion message: the
      // validator's complaint about the same text ("must be integer") would only repeat it. Looked
      // up by path prefix in a set, so a form of many bad values costs no product of the two lists.
      const failedPaths = new Set(failed.map((f) => f.instancePath));
      const others = valid ? [] : (inner?.errors ?? []).filter((e) => !coveredBy(failedPaths, e.instancePath));
      validate.errors = [...failed, ...others];
      return false;
    },
    { errors: null as ValidateFunction['errors'] },
  );
  return {
    reader: new FormBodyReader(fields, failures),
    validate,
    ...(options.required !== undefined ? { required: options.required } : {}),
  };
}

/** Whether `path` is one of `failed` or below one (`/tags/1` is below `/tags`). */
function coveredBy(failed: ReadonlySet<string>, path: string): boolean {
  for (let at = path.length; at > 0; at = path.lastIndexOf('/', at - 1)) if (failed.has(path.slice(0, at))) return true;
  return false;
}

/**
 * The reader {@link formBody} installs. The body reader hands it the parsed form of form requests
 * (`readForm`); `read` serves callers that only have the url-encoded text.
 */
export class FormBodyReader implements ValueReader {
  readonly #fields: ReadonlyArray<readonly [string, FormField]>;
  readonly #failures: WeakMap<object, readonly ValidationErrorObject[]>;

  constructor(fields: FormFields, failures: WeakMap<object, readonly ValidationErrorObject[]>) {
    this.#fields = Object.entries(fields);
    // A misspelt type fails where the decorator is written, not on the first request.
    for (const [name, field] of this.#fields) {
      const type = typeof field === 'string' ? field : field[0];
      if (!FIELD_TYPES.has(type))
        throw new TypeError(
          `formBody: field '${name}' has unknown type '${String(type)}' (use ${[...FIELD_TYPES].join(', ')}, or [type] for an array)`,
        );
      const separator = typeof field === 'string' ? undefined : field[1];
      if (separator !== undefined && !SEPARATORS.has(separator)) {
        throw new TypeError(`formBody: field '${name}' has unknown separator ${JSON.stringify(separator)} (use ',', ' ', '\\t' or '|')`);
      }
    }
    this.#failures = failures;
  }

  read(text: string): Promise<Record<string, unknown> | undefined> {
    const form: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
    for (const [key, value] of new URLSearchParams(text)) {
      const seen = form[key];
      form[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
    }
    return this.readForm(form);
  }

  /** The typed body of a parsed form; `undefined` for a form without fields (an absent body). */
  async readForm(form: ParsedForm): Promise<Record<string, unknown> | undefined> {
    const names = Object.keys(form);
    if (names.length === 0) return undefined;
    const out: Record<string, unknown> = {};
    const failed: ValidationErrorObject[] = [];
    const declared = new Set<string>();
    for (const [name, field] of this.#fields) {
      declared.add(name);
      const sent = Object.hasOwn(form, name) ? form[name] : undefined;
      if (sent === undefined) continue;
      let values = Array.isArray(sent) ? (sent as readonly (string | File)[]) : [sent as string | File];
      // A delimited array: each text value holds elements (an empty one none, as in a query).
      const separator = typeof field === 'string' ? undefined : field[1];
      if (separator !== undefined)
        values = values.flatMap((v): (string | File)[] => (typeof v !== 'string' ? [v] : v === '' ? [] : v.split(separator)));
      const value =
        typeof field === 'string'
          ? await single(field, values, pointer(name), failed)
          : await list(field[0], values, pointer(name), failed);
      if (value !== ABSENT) setOwn(out, name, value);
    }
    for (const name of names) if (!declared.has(name)) setOwn(out, name, form[name]);
    if (failed.length > 0) this.#failures.set(out, failed);
    return out;
  }
}

const FIELD_TYPES: ReadonlySet<string> = new Set<FormFieldType>(['string', 'integer', 'number', 'boolean', 'file', 'json', 'any']);
const SEPARATORS: ReadonlySet<string> = new Set<FormSeparator>([',', ' ', '\t', '|']);

/** Marks a field left out: an empty number, boolean, JSON or file input is what HTML forms send for "nothing". */
const ABSENT: unique symbol = Symbol('absent');

async function single(
  type: FormFieldType,
  values: readonly (string | File)[],
  path: string,
  failed: ValidationErrorObject[],
): Promise<unknown> {
  if (values.length > 1) {
    failed.push(failure(path, `must be sent once, got ${values.length} values`));
    return [...values];
  }
  return convert(type, values[0]!, path, failed);
}

async function list(
  type: FormFieldType,
  values: readonly (string | File)[],
  path: string,
  failed: ValidationErrorObject[],
): Promise<unknown> {
  const out: unknown[] = [];
  for (const value of values) {
    const item = await convert(type, value, `${path}/${out.length}`, failed);
    if (item !== ABSENT) out.push(item);
  }
  return out;
}

const toInteger = compileConversion('integer');
const toNumber = compileConversion('number');
const toBoolean = compileConversion('boolean');

/** One value by its type; on failure the value stays as sent and the failure is recorded at `path`. */
async function convert(type: FormFieldType, value: string | File, path: string, failed: ValidationErrorObject[]): Promise<unknown> {
  try {
    switch (type) {
      case 'any':
        return value;
      case 'string':
        if (typeof value !== 'string') throw new ConversionError('must be a text value, got a file');
        return value;
      case 'file':
        // A file input left empty is sent as a nameless, empty part (browsers write `filename=""`).
        if (value === '' || (typeof value !== 'string' && value.name === '' && value.size === 0)) return ABSENT;
        if (typeof value === 'string') throw new ConversionError('must be an uploaded file');
        return value;
      case 'json': {
        const text = typeof value === 'string' ? value : await value.text();
        if (text.trim() === '') return ABSENT;
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new ConversionError('must be valid JSON');
        }
      }
      case 'integer':
      case 'number':
      case 'boolean': {
        if (typeof value !== 'string') throw new ConversionError('must be a text value, got a file');
        if (value === '') return ABSENT;
        if (type === 'boolean') return value.toLowerCase() === 'on' ? true : toBoolean(value);
        return type === 'integer' ? toInteger(value) : toNumber(value);
      }
      default:
        return type satisfies never;
    }
  } catch (e) {
    failed.push(failure(path, errorMessage(e)));
    return value;
  }
}

function failure(instancePath: string, message: string): ValidationErrorObject {
  return { instancePath, keyword: 'form', message };
}

/** A field name as a JSON Pointer (RFC 6901: `~` → `~0`, `/` → `~1`). */
function pointer(name: string): string {
  return `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** Sets a property even when its name is `__proto__`, which plain assignment would treat as the prototype. */
function setOwn(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}
