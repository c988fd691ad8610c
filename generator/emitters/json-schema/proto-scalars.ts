/**
 * @module
 * The scalars of the proto3 JSON mapping as validators check them: integer ranges per type, the
 * string forms ProtoJSON reads (`"5"`, `"1e2"`, `"NaN"`, base64 bytes, well-formed UTF-16), and the
 * sources of the formats (`proto-int64`, `proto-bytes`, …) that generated validators carry.
 */
import type { ScalarName } from '../../model/model.js';
import type { JsonSchema } from './schema.js';

/** The largest finite `float`: a `float` field's JSON number is checked against it. */
export const MAX_FLOAT = 3.4028234663852886e38;

/** Integer ranges as the formats and `minimum`/`maximum` check them. */
const RANGES = {
  int32: { min: '-2147483648', max: '2147483647' },
  uint32: { min: '0', max: '4294967295' },
  int64: { min: '-9223372036854775808', max: '9223372036854775807' },
  uint64: { min: '0', max: '18446744073709551615' },
} as const;
export type IntKind = keyof typeof RANGES;

/** `^[+-]?(digits with an optional fraction)(exponent)?$`: ProtoJSON's number syntax for strings. */
const NUMERIC = String.raw`/^[+-]?(?:[0-9]*\.[0-9]+|[0-9]+\.?)(?:[eE][+-]?[0-9]+)?$/`;

/** An integer's string form, as ProtoJSON's `parseIntegerString` takes it: decimal, or a number with an integral value. */
function integerFormat(kind: IntKind): string {
  const { min, max } = RANGES[kind];
  return (
    `(s) => { if (s === '' || /^\\s|\\s$/.test(s)) return false; let n; ` +
    `if (/^[+-]?[0-9]+$/.test(s)) n = BigInt(s); ` +
    `else if (${NUMERIC}.test(s)) { const x = Number(s); if (!Number.isFinite(x) || Math.floor(x) !== x) return false; n = BigInt(x); } ` +
    `else return false; return n >= ${min}n && n <= ${max}n; }`
  );
}

/** A map key of an integer type, as ProtoJSON's `parseMapIntegerKey` takes it: decimal digits only. */
function integerKeyFormat(kind: IntKind): string {
  const { min, max } = RANGES[kind];
  const digits = kind === 'uint32' || kind === 'uint64' ? '/^[0-9]+$/' : '/^-?[0-9]+$/';
  return `(s) => ${digits}.test(s) && BigInt(s) >= ${min}n && BigInt(s) <= ${max}n`;
}

function floatFormat(max: number | undefined): string {
  const range = max === undefined ? 'Number.isFinite(x)' : `Number.isFinite(x) && Math.abs(x) <= ${max}`;
  return (
    `(s) => { if (s === 'NaN' || s === 'Infinity' || s === '-Infinity') return true; ` +
    `if (!${NUMERIC}.test(s)) return false; const x = Number(s); return ${range}; }`
  );
}

/**
 * The string formats proto validators use: name → source of its check (`(s) => boolean`), each
 * self-contained. All apply to strings; a value of another JSON type passes the format and is
 * checked by `type`, `minimum` and `maximum` beside it.
 */
export const PROTO_FORMATS: Readonly<Record<string, string>> = {
  'proto-int32': integerFormat('int32'),
  'proto-uint32': integerFormat('uint32'),
  'proto-int64': integerFormat('int64'),
  'proto-uint64': integerFormat('uint64'),
  'proto-int32-key': integerKeyFormat('int32'),
  'proto-uint32-key': integerKeyFormat('uint32'),
  'proto-int64-key': integerKeyFormat('int64'),
  'proto-uint64-key': integerKeyFormat('uint64'),
  'proto-float': floatFormat(MAX_FLOAT),
  'proto-double': floatFormat(undefined),
  // Well-formed UTF-16: every high surrogate followed by a low one, no low one alone.
  'proto-string': String.raw`(s) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s)`,
  // Standard or URL-safe base64, padding optional; decoding stops at a `=` after two digits.
  'proto-bytes':
    `(s) => { let j = 0; for (let i = 0; i < s.length; i++) { const c = s[i]; if (c === '=' && j > 1) return true; ` +
    `if (!/[A-Za-z0-9+/_-]/.test(c)) return false; j = (j + 1) % 4; } return j !== 1; }`,
  'proto-timestamp':
    String.raw`(s) => { const m = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])` +
    String.raw`T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d{1,9}))?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/.exec(s); ` +
    `if (m === null) return false; ` +
    `const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]); ` +
    `const days = mo === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) ` +
    `: mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31; if (d > days) return false; ` +
    `const ms = new Date(s).getTime(); if (Number.isNaN(ms)) return false; ` +
    `const sec = Math.floor(ms / 1000); return sec >= -62135596800 && sec <= 253402300799; }`,
  'proto-duration':
    String.raw`(s) => { const m = /^-?([0-9]+)(?:\.[0-9]{1,9})?s$/.exec(s); ` +
    `return m !== null && parseInt(m[1], 10) <= 315576000000; }`,
  // Paths in lowerCamelCase, comma-separated; the reader turns them back into snake_case.
  'proto-field-mask': `(s) => !s.includes('_')`,
};

/** The integer range a proto integer scalar checks against, or undefined for other scalars. */
export function intKind(scalar: ScalarName): IntKind | undefined {
  switch (scalar) {
    case 'int32':
    case 'sint32':
    case 'sfixed32':
      return 'int32';
    case 'uint32':
    case 'fixed32':
      return 'uint32';
    case 'int64':
    case 'sint64':
    case 'sfixed64':
      return 'int64';
    case 'uint64':
    case 'fixed64':
      return 'uint64';
    default:
      return undefined;
  }
}

/** JSON numbers are doubles: 2^63 and 2^64 are exact, so `exclusiveMaximum` bounds the 64-bit types exactly. */
export const NUMBER_BOUNDS: Readonly<Record<IntKind, JsonSchema>> = {
  int32: { minimum: -2147483648, maximum: 2147483647 },
  uint32: { minimum: 0, maximum: 4294967295 },
  int64: { minimum: -(2 ** 63), exclusiveMaximum: 2 ** 63 },
  uint64: { minimum: 0, exclusiveMaximum: 2 ** 64 },
};

/**
 * The validator schema of a proto scalar's JSON value: integers as numbers or strings, range-checked
 * per type; floats as numbers or strings (`"NaN"` too); strings and bytes by their formats.
 *
 * @example
 * protoScalarSchema('uint32'); // { type: ['integer', 'string'], minimum: 0, maximum: 4294967295, format: 'proto-uint32' }
 */
export function protoScalarSchema(scalar: ScalarName): JsonSchema {
  const kind = intKind(scalar);
  if (kind !== undefined) return { type: ['integer', 'string'], ...NUMBER_BOUNDS[kind], format: `proto-${kind}` };
  switch (scalar) {
    case 'float':
      return { type: ['number', 'string'], minimum: -MAX_FLOAT, maximum: MAX_FLOAT, format: 'proto-float' };
    case 'double':
      return { type: ['number', 'string'], format: 'proto-double' };
    case 'bool':
      return { type: 'boolean' };
    case 'string':
      return { type: 'string', format: 'proto-string' };
    case 'bytes':
      return { type: 'string', format: 'proto-bytes' };
    default:
      throw new Error(`'${scalar}' is not a protobuf scalar`);
  }
}
