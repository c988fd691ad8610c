/**
 * @module
 * The well-known types whose proto3 JSON is not an object of their fields, as protobufjs'
 * ProtoJSON extension reads and writes them: `Duration` and `Timestamp` as strings, `FieldMask`
 * as one comma-separated string, the wrappers as their bare value, `Struct`, `Value` and
 * `ListValue` as any JSON. `Any` holds another message, so it lives with the message walk
 * (`proto-json.ts`).
 *
 * Messages are in the codec's internal form (see `proto-json.ts`): a `Timestamp` is
 * `{ seconds, nanos }` with unset fields absent, a `Value` one of its members.
 */
import { invalid, isImplicitDefault, longToNumber, readScalar, validateUtf16, writeScalar } from './proto-json-scalar.js';
import { type DescField, type DescMessage, jsonNameOf, type ScalarType } from './proto-schema.js';

/** A message in the codec's internal form: set fields only, by property name. */
export type ProtoMessage = Record<string, unknown>;

/** protoc's recursion limit, which protobufjs applies to JSON too. */
export const RECURSION_LIMIT = 100;

/** How one well-known type is read from and written to JSON. */
export interface WellKnownJson {
  read(type: DescMessage, value: unknown, depth: number): ProtoMessage;
  write(type: DescMessage, message: ProtoMessage, depth: number): unknown;
}

const TIMESTAMP_RE =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d{1,9}))?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
const MIN_TIMESTAMP_SECONDS = -62135596800; // 0001-01-01T00:00:00Z
const MAX_TIMESTAMP_SECONDS = 253402300799; // 9999-12-31T23:59:59Z
const MAX_DURATION_SECONDS = 315576000000; // 10,000 years

function nanosToString(nanos: number): string {
  let str = String(nanos < 0 ? -nanos : nanos).padStart(9, '0');
  while (str.length > 3 && str.endsWith('000')) str = str.slice(0, -3);
  return str;
}

function fracToNanos(frac: string): number {
  return Number.parseInt(frac.padEnd(9, '0').slice(0, 9), 10);
}

function daysInMonth(year: number, month: number): number {
  switch (month) {
    case 2:
      return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
    case 4:
    case 6:
    case 9:
    case 11:
      return 30;
    default:
      return 31;
  }
}

function camelToSnake(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Sets `key` as an own property even when it is `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  else target[key] = value;
}

/** The field a well-known type's JSON name or proto name (`type_url`) names. */
export function wktField(type: DescMessage, name: string): DescField | undefined {
  return type.jsonKeys().get(name);
}

/** A well-known type's field value, under its property, proto or JSON name (whichever the message has). */
export function wktFieldValue(type: DescMessage, message: ProtoMessage, name: string): unknown {
  const field = wktField(type, name);
  if (!field) return message?.[name];
  for (const key of [field.name, field.protoName, field.jsonName]) if (message != null && Object.hasOwn(message, key)) return message[key];
  return undefined;
}

const duration: WellKnownJson = {
  read(type, value) {
    if (typeof value !== 'string') throw invalid(type.fullName, value, 'expected duration string');
    const match = /^(-)?([0-9]+)(?:\.([0-9]{1,9}))?s$/.exec(value);
    if (!match) throw invalid(type.fullName, value, 'invalid duration');
    const sign = match[1] ? -1 : 1;
    const seconds = Number.parseInt(match[2]!, 10) * sign || 0;
    const nanos = match[3] ? fracToNanos(match[3]) * sign || 0 : 0;
    if (seconds > MAX_DURATION_SECONDS || seconds < -MAX_DURATION_SECONDS) throw invalid(type.fullName, value, 'duration out of range');
    return secondsAndNanos(seconds, nanos);
  },
  write(_type, message) {
    const seconds = longToNumber(message['seconds']);
    const nanos = (message['nanos'] as number) || 0;
    if (seconds > MAX_DURATION_SECONDS || seconds < -MAX_DURATION_SECONDS) throw new Error('google.protobuf.Duration out of range');
    if (nanos > 999999999 || nanos < -999999999 || (seconds && nanos && seconds < 0 !== nanos < 0)) {
      throw new Error('google.protobuf.Duration nanos invalid');
    }
    let result = (seconds < 0 || nanos < 0 ? '-' : '') + Math.abs(seconds);
    if (nanos) result += `.${nanosToString(nanos)}`;
    return `${result}s`;
  },
};

/** A Duration's or Timestamp's message, zero fields left out as proto3 leaves them. */
function secondsAndNanos(seconds: number, nanos: number): ProtoMessage {
  const message: ProtoMessage = {};
  if (seconds !== 0) message['seconds'] = seconds;
  if (nanos !== 0) message['nanos'] = nanos;
  return message;
}

const timestamp: WellKnownJson = {
  read(type, value) {
    if (typeof value !== 'string') throw invalid(type.fullName, value, 'expected timestamp string');
    const match = TIMESTAMP_RE.exec(value);
    if (!match) throw invalid(type.fullName, value, 'invalid timestamp');
    if (Number.parseInt(match[3]!, 10) > daysInMonth(Number.parseInt(match[1]!, 10), Number.parseInt(match[2]!, 10))) {
      throw invalid(type.fullName, value, 'invalid timestamp date');
    }
    const millis = new Date(value).getTime();
    if (Number.isNaN(millis)) throw invalid(type.fullName, value, 'invalid timestamp');
    const seconds = Math.floor(millis / 1000);
    const nanos = match[7] ? fracToNanos(match[7]) : 0;
    if (seconds < MIN_TIMESTAMP_SECONDS || seconds > MAX_TIMESTAMP_SECONDS) throw invalid(type.fullName, value, 'timestamp out of range');
    return secondsAndNanos(seconds, nanos);
  },
  write(_type, message) {
    const seconds = longToNumber(message['seconds']);
    const nanos = (message['nanos'] as number) || 0;
    if (seconds < MIN_TIMESTAMP_SECONDS || seconds > MAX_TIMESTAMP_SECONDS) throw new Error('google.protobuf.Timestamp out of range');
    if (nanos < 0 || nanos > 999999999) throw new Error('google.protobuf.Timestamp nanos out of range');
    const iso = new Date(seconds * 1000).toISOString();
    return nanos ? iso.replace(/\.\d+Z$/, `.${nanosToString(nanos)}Z`) : iso.replace(/\.\d+Z$/, 'Z');
  },
};

const fieldMask: WellKnownJson = {
  read(type, value) {
    if (typeof value !== 'string') throw invalid(type.fullName, value, 'expected field mask string');
    if (value.includes('_')) throw invalid(type.fullName, value, 'field mask path must be lowerCamelCase');
    return { paths: (value.length ? value.split(',') : []).map(camelToSnake) };
  },
  write(_type, message) {
    const paths = (message['paths'] as string[] | undefined) || [];
    return paths
      .map((path) => {
        const camel = jsonNameOf(path);
        if (camelToSnake(camel) !== path) throw new Error(`google.protobuf.FieldMask path does not round-trip: ${path}`);
        return camel;
      })
      .join(',');
  },
};

/** The zero a wrapper writes when its value is unset (64-bit integers and bytes: `writeScalar`'s own). */
function wrapperZero(type: ScalarType): unknown {
  if (type === 'bool') return false;
  if (type === 'string') return '';
  if (type === 'bytes' || type === 'int64' || type === 'uint64' || type === 'sint64' || type === 'fixed64' || type === 'sfixed64')
    return undefined;
  return 0;
}

function wrapperField(type: DescMessage): DescField & { readonly scalar: ScalarType } {
  const field = type.fields.find((f) => f.name === 'value');
  if (field?.scalar === undefined) throw new Error(`${type.fullName}: a wrapper needs a scalar field named value`);
  return field as DescField & { readonly scalar: ScalarType };
}

const wrapper: WellKnownJson = {
  read(type, value) {
    const field = wrapperField(type);
    const fieldValue = readScalar(field.scalar, value, field.fullName);
    return isImplicitDefault(field, fieldValue) ? {} : { value: fieldValue };
  },
  write(type, message) {
    const field = wrapperField(type);
    const value = wktFieldValue(type, message, 'value');
    return writeScalar(field.scalar, value === undefined ? wrapperZero(field.scalar) : value);
  },
};

function valueFromJson(json: unknown, depth: number): ProtoMessage {
  if (depth > RECURSION_LIMIT) throw new Error('max depth exceeded');
  if (json === null) return { nullValue: 0 };
  switch (typeof json) {
    case 'number':
      if (!Number.isFinite(json)) throw new Error('google.protobuf.Value cannot hold a non-finite number');
      return { numberValue: json };
    case 'string':
      validateUtf16(json, 'google.protobuf.Value.string_value');
      return { stringValue: json };
    case 'boolean':
      return { boolValue: json };
  }
  if (Array.isArray(json)) return { listValue: { values: json.map((item) => valueFromJson(item, depth + 1)) } };
  return { structValue: { fields: structFieldsFromJson(json, depth + 1) } };
}

function structFieldsFromJson(json: unknown, depth: number): Record<string, ProtoMessage> {
  const fields = Object.create(null) as Record<string, ProtoMessage>;
  for (const key in json as object) {
    if (!Object.hasOwn(json as object, key)) continue;
    validateUtf16(key, 'google.protobuf.Struct.fields');
    fields[key] = valueFromJson((json as Record<string, unknown>)[key], depth);
  }
  return fields;
}

function valueToJson(message: ProtoMessage | null | undefined, depth: number): unknown {
  if (depth > RECURSION_LIMIT) throw new Error('max depth exceeded');
  if (message == null || Object.hasOwn(message, 'nullValue')) return null;
  if (Object.hasOwn(message, 'numberValue')) {
    const number = message['numberValue'];
    if (typeof number === 'number' && !Number.isFinite(number)) throw new Error('google.protobuf.Value cannot hold a non-finite number');
    return number;
  }
  if (Object.hasOwn(message, 'stringValue')) return message['stringValue'];
  if (Object.hasOwn(message, 'boolValue')) return message['boolValue'];
  if (Object.hasOwn(message, 'structValue')) return structToJson(message['structValue'] as ProtoMessage, depth + 1);
  if (Object.hasOwn(message, 'listValue')) return listToJson(message['listValue'] as ProtoMessage, depth + 1);
  return null;
}

function structToJson(message: ProtoMessage | null | undefined, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = message?.['fields'] as Record<string, ProtoMessage> | undefined;
  if (fields) for (const key in fields) if (Object.hasOwn(fields, key)) setOwn(out, key, valueToJson(fields[key], depth));
  return out;
}

function listToJson(message: ProtoMessage | null | undefined, depth: number): unknown[] {
  const values = message?.['values'] as (ProtoMessage | undefined)[] | undefined;
  if (!values) return [];
  const out = new Array<unknown>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = valueToJson(values[i], depth);
  return out;
}

const value: WellKnownJson = {
  read: (_type, json, depth) => valueFromJson(json, depth),
  write: (_type, message, depth) => valueToJson(message, depth),
};

const struct: WellKnownJson = {
  read(type, json, depth) {
    if (json === null || typeof json !== 'object' || Array.isArray(json)) {
      throw invalid(type.fullName, json, 'google.protobuf.Struct must be an object');
    }
    return { fields: structFieldsFromJson(json, depth + 1) };
  },
  write: (_type, message, depth) => structToJson(message, depth),
};

const listValue: WellKnownJson = {
  read(type, json, depth) {
    if (!Array.isArray(json)) throw invalid(type.fullName, json, 'google.protobuf.ListValue must be an array');
    return { values: json.map((item) => valueFromJson(item, depth + 1)) };
  },
  write: (_type, message, depth) => listToJson(message, depth),
};

/** The well-known types with a JSON form of their own, by full name (`Any` aside). */
export const WELL_KNOWN_JSON: ReadonlyMap<string, WellKnownJson> = new Map([
  ['.google.protobuf.Duration', duration],
  ['.google.protobuf.Timestamp', timestamp],
  ['.google.protobuf.FieldMask', fieldMask],
  ...['DoubleValue', 'FloatValue', 'Int64Value', 'UInt64Value', 'Int32Value', 'UInt32Value', 'BoolValue', 'StringValue', 'BytesValue'].map(
    (name) => [`.google.protobuf.${name}`, wrapper] as const,
  ),
  ['.google.protobuf.Value', value],
  ['.google.protobuf.Struct', struct],
  ['.google.protobuf.ListValue', listValue],
]);
