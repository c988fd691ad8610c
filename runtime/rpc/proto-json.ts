/**
 * @module
 * Proto3 canonical JSON (ProtoJSON) of a message in the codec's internal form, read and written
 * as protobufjs' ProtoJSON extension (`protobufjs/ext/protojson.js`) does, messages and errors
 * alike, without protobufjs: the JSON codec's core, which `codec.ts` puts Loom's plain-object
 * shape around.
 *
 * The internal form is what protobufjs holds in its messages, spelled without `Long`: set fields
 * only, keyed by property name (a proto3 field at its zero value is not set); 64-bit integers as
 * decimal strings; bytes as `Uint8Array`s; enums as numbers; maps as null-prototype objects keyed
 * by the key's normalised spelling; well-known types as their messages (a `Timestamp` is
 * `{ seconds, nanos }`).
 *
 * `google.protobuf.Any` is the one place protobufjs goes through binary (it packs the message's
 * bytes and unpacks them to write JSON). The internal form keeps the message itself instead,
 * with what that round trip changes applied: `float` fields rounded to 32 bits. Its
 * `proto2` required fields are checked when it is read.
 *
 * @see https://protobuf.dev/programming-guides/json/
 */
import {
  invalid,
  isImplicitDefault,
  type ReadOptions,
  readEnum,
  readMapKey,
  readScalar,
  SKIP,
  writeEnum,
  writeScalar,
} from './proto-json-scalar.js';
import { type ProtoMessage, RECURSION_LIMIT, setOwn, WELL_KNOWN_JSON, wktField, wktFieldValue } from './proto-json-wkt.js';
import type { DescField, DescMessage } from './proto-schema.js';

export type { ReadOptions } from './proto-json-scalar.js';
export type { ProtoMessage } from './proto-json-wkt.js';

const ANY = '.google.protobuf.Any';
const VALUE = '.google.protobuf.Value';
const NULL_VALUE = '.google.protobuf.NullValue';

/** The message an `Any` holds, in the internal form, where protobufjs holds its bytes. */
export class PackedAny {
  constructor(
    readonly type: DescMessage,
    readonly message: ProtoMessage,
  ) {}
}

/** Whether a type has a JSON form of its own (`Any` included): an `Any` holding one nests it under `value`. */
function hasOwnJsonForm(type: DescMessage): boolean {
  return type.fullName === ANY || WELL_KNOWN_JSON.has(type.fullName);
}

/**
 * A message of `type` from its JSON value. Fields are named by JSON name, proto name or property
 * name; `null` is "not set"; unknown fields (and unknown enum names) are errors unless
 * `options.ignoreUnknownFields`.
 *
 * @example
 * readMessage(schema.lookupMessage('demo.Item'), { count: '7', color: 'GREEN' }, {}, 0); // { count: '7', color: 1 }
 */
export function readMessage(type: DescMessage, value: unknown, options: ReadOptions, depth: number): ProtoMessage {
  if (depth > RECURSION_LIMIT) throw new Error('max depth exceeded');
  if (type.fullName === ANY) return readAny(type, value, options, depth);
  const wellKnown = WELL_KNOWN_JSON.get(type.fullName);
  if (wellKnown) return wellKnown.read(type, value, depth);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(type.fullName, value, 'expected object');
  const index = type.jsonKeys();
  const out: ProtoMessage = {};
  const seenFields = new Set<string>();
  const seenOneofs = new Set<string>();
  const json = value as Record<string, unknown>;
  for (const key in json) {
    if (!Object.hasOwn(json, key)) continue;
    const field = index.get(key);
    if (field === undefined) {
      if (options.ignoreUnknownFields) continue;
      throw invalid(type.fullName, key, 'unknown field');
    }
    if (seenFields.has(field.name)) throw invalid(type.fullName, key, 'duplicate field');
    seenFields.add(field.name);
    const fieldJson = json[key];
    let fieldValue: unknown;
    if (fieldJson === null) {
      // `null` is "not set", except where it is a value: a `Value` and a `NullValue`.
      if (field.message?.fullName === VALUE) fieldValue = { nullValue: 0 };
      else if (field.enum?.fullName === NULL_VALUE) fieldValue = 0;
      else continue;
    } else fieldValue = readField(field, fieldJson, options, depth);
    if (fieldValue === SKIP) continue;
    if (field.oneof) {
      if (seenOneofs.has(field.oneof.name)) throw new Error(`${type.fullName}: multiple values for oneof ${field.oneof.name}`);
      seenOneofs.add(field.oneof.name);
    }
    if (!isImplicitDefault(field, fieldValue)) out[field.name] = fieldValue;
  }
  return out;
}

function readField(field: DescField, value: unknown, options: ReadOptions, depth: number): unknown {
  if (field.map) {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw invalid(field.fullName, value, 'expected object for map');
    const map = Object.create(null) as Record<string, unknown>;
    const json = value as Record<string, unknown>;
    for (const key in json) {
      if (!Object.hasOwn(json, key)) continue;
      const mapKey = readMapKey(field, key);
      const mapValue = readSingular(field, json[key], options, depth);
      if (mapValue === SKIP) continue;
      if (Object.hasOwn(map, mapKey)) throw invalid(field.fullName, key, 'duplicate map key');
      map[mapKey] = mapValue;
    }
    return map;
  }
  if (field.repeated) {
    if (!Array.isArray(value)) throw invalid(field.fullName, value, 'expected array');
    const list: unknown[] = [];
    for (const item of value) {
      if (item === null && field.message?.fullName !== VALUE && field.enum?.fullName !== NULL_VALUE) {
        throw invalid(field.fullName, null, 'null element');
      }
      const element = readSingular(field, item, options, depth);
      if (element !== SKIP) list.push(element);
    }
    return list;
  }
  return readSingular(field, value, options, depth);
}

function readSingular(field: DescField, value: unknown, options: ReadOptions, depth: number): unknown {
  if (field.message) return readMessage(field.message, value, options, depth + 1);
  if (field.enum) return readEnum(field.enum, value, field.fullName, options);
  return readScalar(field.scalar!, value, field.fullName);
}

/**
 * The JSON value of a message of `type`: fields by JSON name, in declaration order; unset fields
 * and proto3 zero values left out. Reads values as they come, as protobufjs does: it checks
 * nothing a reader would (a string in an `int32` field is written as a string).
 *
 * @example
 * writeMessage(schema.lookupMessage('demo.Item'), { count: '7', color: 1 }, 0); // { count: '7', color: 'GREEN' }
 */
export function writeMessage(type: DescMessage, message: ProtoMessage, depth: number): unknown {
  if (depth > RECURSION_LIMIT) throw new Error('max depth exceeded');
  if (type.fullName === ANY) return writeAny(type, message, depth);
  const wellKnown = WELL_KNOWN_JSON.get(type.fullName);
  if (wellKnown) return wellKnown.write(type, message, depth);
  const out: Record<string, unknown> = {};
  for (const field of type.fields) {
    const value = message[field.name];
    if (value == null) continue;
    if (field.map) {
      const keys = Object.keys(value);
      if (!keys.length) continue;
      const map: Record<string, unknown> = {};
      for (const key of keys) setOwn(map, key, writeSingular(field, (value as Record<string, unknown>)[key], depth));
      setOwn(out, field.jsonName, map);
    } else if (field.repeated) {
      const list = value as ArrayLike<unknown>;
      if (!list.length) continue;
      const items = new Array<unknown>(list.length);
      for (let i = 0; i < list.length; ++i) items[i] = writeSingular(field, list[i], depth);
      setOwn(out, field.jsonName, items);
    } else {
      if (!Object.hasOwn(message, field.name) || isImplicitDefault(field, value)) continue;
      setOwn(out, field.jsonName, writeSingular(field, value, depth));
    }
  }
  return out;
}

function writeSingular(field: DescField, value: unknown, depth: number): unknown {
  if (field.message) return writeMessage(field.message, value as ProtoMessage, depth + 1);
  if (field.enum) return writeEnum(field.enum, value);
  return writeScalar(field.scalar!, value);
}

/**
 * An `Any` from `{ "@type": "type.googleapis.com/pkg.Message", …fields }` (or `"value": …` for
 * a type with a JSON form of its own). The type must be in the descriptor.
 */
function readAny(type: DescMessage, value: unknown, options: ReadOptions, depth: number): ProtoMessage {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(type.fullName, value, 'google.protobuf.Any must be an object');
  }
  const json = value as Record<string, unknown>;
  const typeUrl = json['@type'];
  if (typeUrl === undefined) return {};
  if (typeof typeUrl !== 'string') throw new Error('google.protobuf.Any @type must be a string');
  const packedType = type.schema.lookupMessage(typeUrl.substring(typeUrl.lastIndexOf('/') + 1));
  let body: unknown;
  if (hasOwnJsonForm(packedType)) body = json['value'];
  else {
    const fields: Record<string, unknown> = {};
    for (const key in json) if (Object.hasOwn(json, key) && key !== '@type') setOwn(fields, key, json[key]);
    body = fields;
  }
  const packed = readMessage(packedType, body, options, depth + 1);
  checkRequired(packedType, packed);
  roundFloats(packedType, packed);
  let url = typeUrl.charAt(0) === '.' ? typeUrl.slice(1) : typeUrl;
  if (!url.includes('/')) url = `/${url}`;
  return { [anyFieldName(type, 'type_url')]: url, [anyFieldName(type, 'value')]: new PackedAny(packedType, packed) };
}

function writeAny(type: DescMessage, message: ProtoMessage, depth: number): unknown {
  const typeUrl = wktFieldValue(type, message, 'type_url');
  if (!typeUrl) return {};
  const url = String(typeUrl);
  const packedType = type.schema.lookupMessage(url.substring(url.lastIndexOf('/') + 1));
  const packed = unpack(packedType, wktFieldValue(type, message, 'value'));
  const body = writeMessage(packedType, packed, depth + 1);
  if (hasOwnJsonForm(packedType)) return { '@type': typeUrl, value: body };
  const out: Record<string, unknown> = { '@type': typeUrl };
  for (const key in body as Record<string, unknown>) {
    if (Object.hasOwn(body as object, key)) setOwn(out, key, (body as Record<string, unknown>)[key]);
  }
  return out;
}

/**
 * The message an `Any`'s value holds. Bytes are binary protobuf, which this codec does not read:
 * only the empty message (no bytes) is understood.
 */
function unpack(type: DescMessage, value: unknown): ProtoMessage {
  if (value instanceof PackedAny) return value.message;
  if (value == null || (value as { length?: number }).length === 0) {
    const empty: ProtoMessage = {};
    checkRequired(type, empty);
    return empty;
  }
  throw new Error(`google.protobuf.Any holds ${type.fullName.slice(1)} as binary, which the JSON codec cannot read; use protobufBinary`);
}

function anyFieldName(type: DescMessage, name: string): string {
  return wktField(type, name)?.name ?? name;
}

/** What a binary round trip refuses: a proto2 `required` field that is not set, at any depth. */
function checkRequired(type: DescMessage, message: ProtoMessage): void {
  for (const field of type.fields) {
    const value = Object.hasOwn(message, field.name) ? message[field.name] : undefined;
    if (value == null) {
      if (field.required) throw new Error(`${field.fullName.slice(1)}: missing required field`);
      continue;
    }
    if (field.message === undefined || field.message.fullName === ANY) continue;
    for (const item of valuesOf(field, value)) checkRequired(field.message, item as ProtoMessage);
  }
}

/** What a binary round trip changes: a `float` is 32 bits on the wire. */
function roundFloats(type: DescMessage, message: ProtoMessage): void {
  for (const field of type.fields) {
    if (!Object.hasOwn(message, field.name) || message[field.name] == null) continue;
    const value = message[field.name];
    if (field.scalar === 'float') {
      if (field.map || field.repeated) {
        const values = value as Record<string, number>;
        for (const key of Object.keys(values)) values[key] = Math.fround(values[key]!);
      } else message[field.name] = Math.fround(value as number);
    } else if (field.message !== undefined && field.message.fullName !== ANY) {
      for (const item of valuesOf(field, value)) roundFloats(field.message, item as ProtoMessage);
    }
  }
}

/** A field's values: a map's values, a list's items, or the one value. */
function valuesOf(field: DescField, value: unknown): readonly unknown[] {
  if (field.map) return Object.values(value as object);
  if (field.repeated) return value as unknown[];
  return [value];
}
