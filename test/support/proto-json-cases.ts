/**
 * @module The proto JSON cases both validator tests run: two proto files and one table of proto3
 * JSON inputs, each accepted or rejected by the codec's `fromJson`, which a message's JSON
 * validator must agree with. `proto-json-validators.test.ts` checks the schemas
 * (`json-schema/proto-json.ts`) compiled by ajv; `proto-json-validators-gen.test.ts` the validators the
 * generator prints.
 */
import { describe, expect, it } from 'vitest';
import { protoDescriptor } from '../../generator/emitters/rpc/descriptor.js';
import { forgetSchemas, loadSchemas, memorySchemas } from '../../generator/loaders/testing.js';
import type { SchemaFile } from '../../generator/model/model.js';
import { createCodecRegistry } from '../../runtime/rpc/codec.js';
import type { MessageCodec } from '../../runtime/rpc/types.js';

export const ORDERS = `syntax = "proto3";
package v;
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/wrappers.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/field_mask.proto";
enum Color { COLOR_UNSPECIFIED = 0; COLOR_RED = 1; }
message Line { string sku = 1; }
message Order {
  string order_id = 1;
  int32 count = 2;
  uint32 ucount = 3;
  int64 big = 4;
  uint64 ubig = 5;
  float ratio = 6;
  double price = 7;
  bool paid = 8;
  bytes blob = 9;
  Color color = 10;
  google.protobuf.Timestamp created_at = 11;
  google.protobuf.Duration ttl = 12;
  google.protobuf.Int32Value maybe = 13;
  google.protobuf.Value any_value = 14;
  google.protobuf.Struct meta = 15;
  google.protobuf.FieldMask mask = 16;
  repeated string tags = 17;
  repeated Line lines = 18;
  map<int64, Line> by_id = 19;
  map<string, int32> counts = 20;
  map<bool, string> flags = 21;
  map<uint32, string> small = 22;
  oneof payment { string card = 23; Line voucher = 24; }
  optional string note = 25;
  string custom = 26 [json_name = "customName"];
  google.protobuf.NullValue nothing = 27;
  repeated google.protobuf.Value values = 28;
  Line line = 29;
  sfixed64 s64 = 30;
}
`;

export const LEGACY = `syntax = "proto2";
package old;
enum Level { LOW = 0; HIGH = 1; }
message Account {
  required string id = 1;
  optional Level level = 2 [default = HIGH];
  optional group Extra = 3 { optional string note = 1; }
}
`;

/** A validator beside the codec of the same message. */
export interface Pair {
  readonly validate: (data: unknown) => boolean;
  readonly codec: MessageCodec<unknown>;
}

/** The two messages the cases are written for. */
export type CaseMessage = 'v.Order' | 'old.Account';

/** The loaded proto files and their codecs. */
export interface CaseSchemas {
  readonly files: ReadonlyMap<CaseMessage, SchemaFile>;
  codec(typeName: CaseMessage): MessageCodec<unknown>;
  remove(): void;
}

/** Writes and loads the two proto files. */
export async function loadCaseSchemas(): Promise<CaseSchemas> {
  const root = memorySchemas({ 'orders.proto': ORDERS, 'legacy.proto': LEGACY });
  const loaded = await loadSchemas([`${root}/orders.proto`, `${root}/legacy.proto`], { root });
  const files = new Map<CaseMessage, SchemaFile>([
    ['v.Order', loaded.find((f) => f.path === 'orders.proto')!],
    ['old.Account', loaded.find((f) => f.path === 'legacy.proto')!],
  ]);
  return {
    files,
    codec: (typeName) => createCodecRegistry(protoDescriptor(files.get(typeName)!) as object).codec<unknown>(typeName),
    remove: () => forgetSchemas(root),
  };
}

type Case = [what: string, json: unknown, valid: boolean];

const ORDER_CASES: Case[] = [
  ['an empty object', {}, true],
  ['the JSON name', { orderId: 'a' }, true],
  ['the proto name', { order_id: 'a' }, true],
  ['null for a field (not set)', { orderId: null, count: null, createdAt: null, tags: null, line: null }, true],
  ['int32 as a number', { count: 5 }, true],
  ['int32 as a string', { count: '5' }, true],
  ['int32 as a signed string', { count: '+5' }, true],
  ['int32 as an exponent', { count: '1e2' }, true],
  ['int32 as an integral decimal', { count: '5.0' }, true],
  ['int32 at its limits', { count: -2147483648, ucount: '4294967295' }, true],
  ['int64 at its limits', { big: '9223372036854775807', s64: '-9223372036854775808', ubig: '18446744073709551615' }, true],
  ['int64 as a number', { big: 12, ubig: 0 }, true],
  ['int64 with leading zeros', { big: '0012' }, true],
  ['float as a number and a string', { ratio: 1.5, price: '2.5' }, true],
  ['NaN and infinities', { ratio: 'NaN', price: '-Infinity' }, true],
  ['float at its limit', { ratio: '3.4e38' }, true],
  ['bytes: base64, unpadded, URL-safe, empty', { blob: 'AQI=' }, true],
  ['bytes unpadded', { blob: 'AQI' }, true],
  ['bytes URL-safe', { blob: '-_8=' }, true],
  ['bytes empty', { blob: '' }, true],
  ['an enum by name', { color: 'COLOR_RED' }, true],
  ['an enum by number', { color: 1 }, true],
  ['an open enum by an unknown number', { color: 99 }, true],
  ['a timestamp', { createdAt: '2024-01-02T03:04:05Z' }, true],
  ['a timestamp with nanos and an offset, by proto name', { created_at: '2024-01-02T03:04:05.123456789+01:00' }, true],
  ['a duration', { ttl: '1.5s' }, true],
  ['a negative duration', { ttl: '-3s' }, true],
  ['a wrapper as a number, a string and null', { maybe: 5 }, true],
  ['a wrapper as a string', { maybe: '5' }, true],
  ['a Value of any shape', { anyValue: { a: [1, 'x', null] } }, true],
  ['a Value that is null', { any_value: null }, true],
  ['a Struct', { meta: { a: 1, b: [true] } }, true],
  ['a field mask', { mask: 'a.b,cD' }, true],
  ['a list', { tags: ['x'], lines: [{ sku: 'a' }] }, true],
  ['int64 map keys', { byId: { '12345678901': { sku: 'a' }, '-5': {} } }, true],
  ['int64 map keys with leading zeros', { by_id: { '007': {} } }, true],
  ['string, bool and uint32 map keys', { counts: { a: 1 }, flags: { true: 'x', false: 'y' }, small: { '4294967295': 'x' } }, true],
  ['one oneof member', { card: '' }, true],
  ['the other oneof member', { voucher: { sku: 'v' } }, true],
  ['one oneof member and the other null', { card: 'x', voucher: null }, true],
  ['proto3 optional', { note: '' }, true],
  ['a custom json_name', { customName: 'x' }, true],
  ['the proto name of a field with a custom json_name', { custom: 'x' }, true],
  ['NullValue as null and by name', { nothing: null }, true],
  ['NullValue by name', { nothing: 'NULL_VALUE' }, true],
  ['null in a list of Values', { values: [null, 1] }, true],

  ['an array', [], false],
  ['null', null, false],
  ['a string', 'x', false],
  ['an unknown field', { nope: 1 }, false],
  ['a field under two names', { orderId: 'a', order_id: 'b' }, false],
  ['a field under two names, one null', { orderId: null, order_id: 'b' }, false],
  ['a custom json_name and the proto name', { customName: 'a', custom: 'b' }, false],
  ['int32 with a fraction', { count: 1.5 }, false],
  ['int32 as a string with a fraction', { count: '1.5' }, false],
  ['int32 beyond its range', { count: '2147483648' }, false],
  ['uint32 below zero', { ucount: -1 }, false],
  ['int32 as words', { count: 'abc' }, false],
  ['int32 with a space', { count: ' 5' }, false],
  ['int32 empty', { count: '' }, false],
  ['int32 as hex', { count: '0x10' }, false],
  ['int32 as a boolean', { count: true }, false],
  ['int64 beyond its range', { big: '9223372036854775808' }, false],
  ['int64 as a number beyond its range', { big: 2 ** 63 }, false],
  ['uint64 below zero', { ubig: '-1' }, false],
  ['float beyond its range', { ratio: '3.5e38' }, false],
  ['float as a number beyond its range', { ratio: 3.5e38 }, false],
  ['nan in lower case', { ratio: 'nan' }, false],
  ['a bool as a string', { paid: 'true' }, false],
  ['bytes of one digit', { blob: 'A' }, false],
  ['bytes with padding too early', { blob: 'A===' }, false],
  ['bytes that are not base64', { blob: '!!!!' }, false],
  ['an unknown enum name', { color: 'BLUE' }, false],
  ['an enum number with a fraction', { color: 1.5 }, false],
  ['an enum number as a string', { color: '1' }, false],
  ['a timestamp on a day that does not exist', { createdAt: '2024-02-30T00:00:00Z' }, false],
  ['a timestamp with a space', { createdAt: '2024-01-02 03:04:05Z' }, false],
  ['a timestamp without offset', { createdAt: '2024-01-02T03:04:05' }, false],
  ['a timestamp as a number', { createdAt: 5 }, false],
  ['a duration without unit', { ttl: '1.5' }, false],
  ['a duration with ten fraction digits', { ttl: '1.1234567890s' }, false],
  ['a wrapper of the wrong type', { maybe: 'x' }, false],
  ['a Struct that is a list', { meta: [1] }, false],
  ['a field mask in snake case', { mask: 'a_b' }, false],
  ['null in a list', { tags: [null] }, false],
  ['null in a list of messages', { lines: [null] }, false],
  ['a list that is a string', { tags: 'x' }, false],
  ['a list of the wrong type', { tags: [1] }, false],
  ['a non-numeric int64 map key', { byId: { abc: {} } }, false],
  ['a fractional int64 map key', { byId: { '1.5': {} } }, false],
  ['an int64 map key beyond its range', { byId: { '9223372036854775808': {} } }, false],
  ['null as a map value', { byId: { '1': null } }, false],
  ['a bool map key that is not true or false', { flags: { yes: 'x' } }, false],
  ['a negative uint32 map key', { small: { '-1': 'x' } }, false],
  ['two members of one oneof', { card: 'x', voucher: {} }, false],
  ['two members of one oneof, both zero', { card: '', voucher: { sku: '' } }, false],
  ['a lone surrogate', { orderId: '\ud800' }, false],
  ['a message that is a number', { line: 5 }, false],
  ['an unknown field in a nested message', { line: { nope: 1 } }, false],
];

const LEGACY_CASES: Case[] = [
  ['the required field', { id: 'a' }, true],
  ['an optional field as null', { id: 'a', level: null }, true],
  ['a closed enum by a known number', { id: 'a', level: 1 }, true],
  ['a group', { id: 'a', extra: { note: 'x' } }, true],
  ['no required field', {}, false],
  ['the required field as null', { id: null }, false],
  ['a closed enum by an unknown number', { id: 'a', level: 7 }, false],
];

function accepts(codec: MessageCodec<unknown>, json: unknown): boolean {
  try {
    codec.fromJson(json);
    return true;
  } catch {
    return false;
  }
}

/** The cases, each checked against `pairOf(message)`: the validator must say what `fromJson` says. */
export function describeAgreement(title: string, pairOf: (typeName: CaseMessage) => Pair): void {
  describe(title, () => {
    it.each(ORDER_CASES)('v.Order: %s', (_what, json, valid) => {
      const { validate, codec } = pairOf('v.Order');
      expect({ validator: validate(json), fromJson: accepts(codec, json) }).toEqual({ validator: valid, fromJson: valid });
    });
    it.each(LEGACY_CASES)('old.Account (proto2): %s', (_what, json, valid) => {
      const { validate, codec } = pairOf('old.Account');
      expect({ validator: validate(json), fromJson: accepts(codec, json) }).toEqual({ validator: valid, fromJson: valid });
    });
    it('cannot see that two spellings of one map key are the same key (a documented gap)', () => {
      const { validate, codec } = pairOf('v.Order');
      const json = { byId: { '1': {}, '01': {} } };
      expect({ validator: validate(json), fromJson: accepts(codec, json) }).toEqual({ validator: true, fromJson: false });
    });
  });
}
