/**
 * @module
 * The string and number formats generated validators check, as JavaScript source that is
 * copied into every `X.validators.js`. Copying (rather than importing `ajv-formats` at
 * run time) keeps generated validators free of dependencies: they run wherever the
 * generated code is installed, and the bundle carries only what it uses.
 *
 * ajv needs each format at generation time only for its *shape* (which JSON type it
 * applies to); the code it emits calls `loomFormats[name].validate(value)`.
 */

import { PROTO_FORMATS } from '../json-schema/proto-scalars.js';

/** Name of the object the emitted code reads formats from. */
export const FORMATS_IDENTIFIER = 'loomFormats';

/** Format name → the JSON type it applies to. Formats not listed are documentation only (not checked). */
export const FORMAT_TYPES: Readonly<Record<string, 'string' | 'number'>> = {
  'date-time': 'string',
  date: 'string',
  time: 'string',
  email: 'string',
  uri: 'string',
  'uri-reference': 'string',
  uuid: 'string',
  hostname: 'string',
  ipv4: 'string',
  ipv6: 'string',
  byte: 'string',
  int32: 'number',
  uint32: 'number',
  int64: 'string',
  uint64: 'string',
  // The string forms of proto3 JSON (`proto-int64`, `proto-bytes`, …), see json-schema/proto-scalars.ts.
  ...Object.fromEntries(Object.keys(PROTO_FORMATS).map((name) => [name, 'string' as const])),
};

/** Source of one format's check, keyed like {@link FORMAT_TYPES}. */
const FORMAT_SOURCES: Readonly<Record<string, string>> = {
  'date-time':
    `(s) => { const m = /^(\\d{4}-\\d{2}-\\d{2})[Tt ](\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:[Zz]|[+-]\\d{2}:\\d{2}))$/.exec(s); ` +
    `return m !== null && isDate(m[1]) && isTime(m[2]); }`,
  date: `(s) => isDate(s)`,
  time: `(s) => isTime(s)`,
  email:
    `(s) => /^[a-z0-9!#$%&'*+/=?^_\`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_\`{|}~-]+)*` +
    `@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i.test(s)`,
  uri: `(s) => /^[a-z][a-z0-9+.-]*:[^\\s]*$/i.test(s)`,
  'uri-reference': `(s) => !/\\s/.test(s)`,
  uuid: `(s) => /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(s)`,
  hostname:
    `(s) => s.length <= 253 && /^(?=.{1,253}\\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?` +
    `(?:\\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\\.?$/i.test(s)`,
  ipv4: `(s) => /^(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$/.test(s)`,
  ipv6: `(s) => { try { return s.includes(':') && new URL('http://[' + s + ']').hostname.length > 2; } catch { return false; } }`,
  byte: `(s) => s.length % 4 === 0 && /^[A-Za-z0-9+/_-]*={0,2}$/.test(s)`,
  int32: `(n) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647`,
  uint32: `(n) => Number.isInteger(n) && n >= 0 && n <= 4294967295`,
  int64: `(s) => /^-?[0-9]{1,19}$/.test(s) && BigInt(s) >= -9223372036854775808n && BigInt(s) <= 9223372036854775807n`,
  uint64: `(s) => /^[0-9]{1,20}$/.test(s) && BigInt(s) <= 18446744073709551615n`,
  ...PROTO_FORMATS,
};

const HELPERS =
  `const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function isDate(s) {
  const m = /^(\\d{4})-(\\d{2})-(\\d{2})$/.exec(s);
  if (m === null) return false;
  const year = Number(m[1]), month = Number(m[2]), day = Number(m[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : DAYS[month]);
}
function isTime(s) {
  const m = /^(\\d{2}):(\\d{2}):(\\d{2})(?:\\.\\d+)?(?:[Zz]|[+-](\\d{2}):(\\d{2}))?$/.exec(s);
  return m !== null && Number(m[1]) <= 23 && Number(m[2]) <= 59 && Number(m[3]) <= 60 && ` +
  `(m[4] === undefined || (Number(m[4]) <= 23 && Number(m[5]) <= 59));
}`;

/**
 * The `const loomFormats = { … }` block for the given formats (only those used, sorted).
 *
 * @example
 * formatsSource(['date-time']); // 'function isDate…\nconst loomFormats = {\n  "date-time": { type: "string", validate: … },\n};'
 */
export function formatsSource(used: Iterable<string>): string {
  const names = [...new Set(used)].filter((n) => n in FORMAT_SOURCES).sort();
  if (names.length === 0) return '';
  const needsHelpers = names.some((n) => n === 'date-time' || n === 'date' || n === 'time');
  const entries = names.map((n) => `  ${JSON.stringify(n)}: { type: ${JSON.stringify(FORMAT_TYPES[n])}, validate: ${FORMAT_SOURCES[n]} },`);
  return `${needsHelpers ? `${HELPERS}\n` : ''}const ${FORMATS_IDENTIFIER} = {\n${entries.join('\n')}\n};`;
}

/** Run-time helpers ajv's standalone code `require()`s, inlined so the output is plain ESM. */
export const RUNTIME_HELPERS: Readonly<Record<string, { name: string; source: string }>> = {
  'ajv/dist/runtime/ucs2length': {
    name: 'ucs2length',
    // Length in Unicode code points, as JSON Schema's minLength/maxLength count.
    source: `function ucs2length(s) { let n = 0; for (const _ of s) n++; return n; }`,
  },
  'ajv/dist/runtime/equal': {
    name: 'deepEqual',
    source: `function deepEqual(a, b) {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }
  return a !== a && b !== b;
}`,
  },
};
