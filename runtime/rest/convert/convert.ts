/**
 * @module
 * Compiles a parameter's type options into one conversion function at registration, so requests
 * only run the chosen branch. Conversions throw `ConversionError`; the caller turns it into a 400
 * violation naming the parameter.
 */
import { errorMessage } from '../errors.js';
import type { Class, Converter, EnumValues, ParamOptions, TypeRef } from '../types.js';

/** A value could not be converted; `message` is what the client sees. */
export class ConversionError extends Error {
  override readonly name = 'ConversionError';
}

/** Converts one string (or, for forms, a `File`). */
export type ConvertFn = (value: string | File) => unknown;

/**
 * `^[-+]?[0-9]+$` without a regular expression: a path or query integer is a few characters, and a
 * loop over them costs a fraction of a match (three of them a request on a typical route).
 */
function isIntegerText(v: string): boolean {
  const first = v.charCodeAt(0);
  let i = first === 43 || first === 45 ? 1 : 0; // + or -
  if (i === v.length) return false;
  for (; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Something that accepts or refuses a string, as `RegExp.test` does. */
interface TextCheck {
  test(value: string): boolean;
}

const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_SHAPE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:[Zz]|[+-](\d{2}):?(\d{2}))$/;

/** A day that exists: month 1–12, day within its month (leap years included). */
function realDay(y: string, m: string, d: string): boolean {
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(Number(y));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** `YYYY-MM-DD` naming a day that exists (`2024-02-30` does not). */
const DATE: TextCheck = {
  test: (v) => {
    const m = DATE_SHAPE.exec(v);
    return m !== null && realDay(m[1]!, m[2]!, m[3]!);
  },
};

/** RFC 3339: a real day, hours to 23, minutes to 59, seconds to 60 (a leap second), offsets to 23:59. */
const DATE_TIME: TextCheck = {
  test: (v) => {
    const m = DATE_TIME_SHAPE.exec(v);
    if (m === null || !realDay(m[1]!, m[2]!, m[3]!)) return false;
    const [hour, minute, second, offsetHour, offsetMinute] = [m[4], m[5], m[6] ?? '0', m[7] ?? '0', m[8] ?? '0'].map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ];
    return hour <= 23 && minute <= 59 && second <= 60 && offsetHour <= 23 && offsetMinute <= 59;
  },
};

function text(value: string | File): string {
  if (typeof value !== 'string') throw new ConversionError('must be a text value, got a file');
  return value;
}

/** Describes a type reference for messages and checks. */
export function typeName(type: TypeRef | undefined): string {
  if (type === undefined) return 'string';
  if (typeof type === 'string') return type;
  if (typeof type === 'function') return type.name || 'anonymous class';
  if (isConverter(type)) return 'converter';
  return `enum (${Object.values(type).join(', ')})`;
}

/** Whether a parameter `type` is a custom converter (`{ convert(text) }`) rather than a type name, class or enum. */
export function isConverter(type: unknown): type is Converter {
  return typeof type === 'object' && type !== null && typeof (type as Converter).convert === 'function';
}

/**
 * Compiles the conversion for a type reference.
 *
 * @example
 * ```ts
 * compileConversion('integer')('42'); // 42
 * compileConversion({ Open: 'open', Closed: 'closed' })('Closed'); // 'closed'
 * ```
 */
export function compileConversion(type: TypeRef | undefined): ConvertFn {
  if (type === undefined || type === 'string' || type === String) return text;
  if (typeof type === 'string') {
    switch (type) {
      case 'number':
        return (v) => toNumber(text(v));
      case 'integer':
      case 'int64':
        return (v) => toInteger(text(v));
      case 'boolean':
        return (v) => toBoolean(text(v));
      case 'date':
        return (v) => matching(text(v), DATE, 'a date (YYYY-MM-DD)');
      case 'date-time':
        return (v) => matching(text(v), DATE_TIME, 'a date-time (RFC 3339)');
      case 'json':
        return (v) => {
          try {
            return JSON.parse(text(v)) as unknown;
          } catch {
            throw new ConversionError('must be valid JSON');
          }
        };
      case 'file':
      case 'upload':
        // Files arrive as `File`s (or, from the upload folder, as `UploadedFile`s, which are not
        // converted); text in a file field is refused.
        return (v) => {
          if (typeof v === 'string') throw new ConversionError('must be an uploaded file');
          return v;
        };
      default:
        return unknownParameterType(type);
    }
  }
  if (type === Number) return (v) => toNumber(text(v));
  if (type === Boolean) return (v) => toBoolean(text(v));
  if (type === Date) {
    return (v) => {
      const d = new Date(text(v));
      if (Number.isNaN(d.getTime())) throw new ConversionError(`must be a date, got "${String(v)}"`);
      return d;
    };
  }
  if (typeof type === 'function') return classConversion(type as Class);
  if (isConverter(type)) {
    return (v) => {
      try {
        return type.convert(text(v));
      } catch (e) {
        throw new ConversionError(errorMessage(e));
      }
    };
  }
  return enumConversion(type as EnumValues);
}

/** A type name outside the union, from JavaScript or a cast: the switch above is exhaustive for TypeScript callers. */
function unknownParameterType(type: never): never {
  throw new Error(
    `unknown parameter type "${String(type)}" (known: string, number, integer, int64, boolean, date, date-time, json, file, upload)`,
  );
}

function toNumber(v: string): number {
  const n = v.trim() === '' ? NaN : Number(v);
  if (!Number.isFinite(n)) throw new ConversionError(`must be a number, got "${v}"`);
  return n;
}

function toInteger(v: string): number {
  if (!isIntegerText(v)) throw new ConversionError(`must be an integer, got "${v}"`);
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new ConversionError(`must be an integer within ±2^53, got "${v}"`);
  return n;
}

function toBoolean(v: string): boolean {
  switch (v.toLowerCase()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw new ConversionError(`must be a boolean (true or false), got "${v}"`);
  }
}

function matching(v: string, re: TextCheck, what: string): string {
  if (!re.test(v)) throw new ConversionError(`must be ${what}, got "${v}"`);
  return v;
}

/** Static `fromString`, then an own static `valueOf`, then a one-string constructor. */
function classConversion(cls: Class): ConvertFn {
  const statics = cls as unknown as { fromString?: (s: string) => unknown; valueOf?: (s: string) => unknown };
  const factory =
    typeof statics.fromString === 'function'
      ? statics.fromString.bind(cls)
      : Object.hasOwn(cls, 'valueOf') && typeof statics.valueOf === 'function'
        ? (statics.valueOf as (s: string) => unknown).bind(cls)
        : (s: string) => new (cls as unknown as new (s: string) => unknown)(s);
  return (v) => {
    try {
      return factory(text(v));
    } catch (e) {
      if (e instanceof ConversionError) throw e;
      throw new ConversionError(`cannot be converted to ${cls.name}: ${errorMessage(e)}`);
    }
  };
}

function enumConversion(values: EnumValues): ConvertFn {
  const byText = new Map<string, string | number>();
  for (const [key, value] of Object.entries(values)) {
    byText.set(String(value), value);
    if (!byText.has(key)) byText.set(key, value);
  }
  const allowed = [...new Set(Object.values(values).map(String))].join(', ');
  return (v) => {
    const hit = byText.get(text(v));
    if (hit === undefined) throw new ConversionError(`must be one of: ${allowed}; got "${String(v)}"`);
    return hit;
  };
}

/**
 * Constraint checks after conversion (`enum`, `format`, `minimum`, …): returns the messages, at most
 * `limit` of them (an array of a hundred thousand bad items is reported by its first ones).
 */
export function compileConstraints(options: ParamOptions): ((value: unknown, limit: number) => string[]) | undefined {
  const checks: ((value: unknown) => string | undefined)[] = [];
  const { minimum, maximum, minLength, maxLength, pattern, format } = options;
  if (options.enum) {
    const allowed = options.enum;
    checks.push((v) => (allowed.some((a) => a === v || String(a) === String(v)) ? undefined : `must be one of: ${allowed.join(', ')}`));
  }
  if (minimum !== undefined) checks.push((v) => (typeof v === 'number' && v < minimum ? `must be >= ${minimum}` : undefined));
  if (maximum !== undefined) checks.push((v) => (typeof v === 'number' && v > maximum ? `must be <= ${maximum}` : undefined));
  if (minLength !== undefined)
    checks.push((v) => (typeof v === 'string' && v.length < minLength ? `must have at least ${minLength} characters` : undefined));
  if (maxLength !== undefined)
    checks.push((v) => (typeof v === 'string' && v.length > maxLength ? `must have at most ${maxLength} characters` : undefined));
  if (pattern !== undefined) {
    const re = new RegExp(pattern, 'u');
    checks.push((v) => (typeof v === 'string' && !re.test(v) ? `must match ${pattern}` : undefined));
  }
  if (format !== undefined) {
    const re = FORMATS[format];
    // A format nothing checks would silently let every value through.
    if (!re) throw new Error(`unknown format "${format}" (known: ${Object.keys(FORMATS).join(', ')})`);
    checks.push((v) => (typeof v === 'string' && !re.test(v) ? `must be a valid ${format}` : undefined));
  }
  if (checks.length === 0) return undefined;
  return (value, limit) => {
    const messages: string[] = [];
    for (const item of Array.isArray(value) ? value : [value]) {
      for (const check of checks) {
        const m = check(item);
        if (m !== undefined && messages.push(m) >= limit) return messages;
      }
    }
    return messages;
  };
}

const FORMATS: Readonly<Record<string, TextCheck>> = {
  date: DATE,
  'date-time': DATE_TIME,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  uri: /^[a-z][a-z0-9+.-]*:\S+$/i,
};
