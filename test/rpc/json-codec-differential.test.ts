/**
 * The JSON codec (plain TypeScript) against the codec it replaced (protobufjs and its ProtoJSON
 * extension, `support/protojson-reference.ts`), message for message: hand-picked inputs and a
 * seeded random walk over every type of the fixture schemas, read with `fromJson` (strict and
 * lenient), written back with `toJson`, and handler-made messages written with `toJson`. Both
 * must answer the same: the same plain object or JSON (key order, `-0` and bytes included), or
 * the same `RpcError` code and message. `create()` and `defaults` are compared too.
 *
 * Left out on purpose, where the two differ by design (see `runtime/rpc/proto-json.ts`):
 * - an `Any` holding a message that lacks a proto2 `required` field: protobufjs' encoder crashes
 *   on it or writes a zero, the JSON codec refuses it as the reader of any message would;
 * - a `google.protobuf.Any` codec of its own holding a value (protobufjs keeps the message's bytes);
 * - base64 with padding in the middle (`AQ==AAAA`): protobufjs hands out uninitialised bytes;
 * - an `Any` whose `@type` names no type at all (`type.googleapis.com/`): protobufjs fails inside
 *   itself (`Cannot read properties of undefined`), the JSON codec says `no such type: `.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protoDescriptor } from '../../generator/emitters/rpc/descriptor.js';
import { loadSchemas } from '../../generator/loaders/index.js';
import { createCodecRegistry } from '../../runtime/rpc/codec.js';
import { RpcError } from '../../runtime/rpc/errors.js';
import type { MessageCodec } from '../../runtime/rpc/types.js';
import { REPO_ROOT } from '../support/generate-inline.js';
import { LEGACY, ORDERS } from '../support/proto-json-cases.js';
import { createReferenceRegistry, type ReferenceCodec } from './support/protojson-reference.js';
import { allTypes, JsonWalk, mutateLoom, Rng } from './support/random-proto.js';

const KITCHEN = `syntax = "proto3";
package k;
import "google/protobuf/any.proto";
import "google/protobuf/api.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/empty.proto";
import "google/protobuf/field_mask.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
enum Color { option allow_alias = true; COLOR_UNSPECIFIED = 0; RED = 1; CRIMSON = 1; BLUE = -2; }
message Leaf { string id = 1; float ratio = 2; repeated float ratios = 3; map<string, float> weights = 4; Color color = 5; }
message All {
  double d = 1; float f = 2; int32 i32 = 3; int64 i64 = 4; uint32 u32 = 5; uint64 u64 = 6; sint32 s32 = 7; sint64 s64 = 8;
  fixed32 fx32 = 9; fixed64 fx64 = 10; sfixed32 sfx32 = 11; sfixed64 sfx64 = 12; bool b = 13; string s = 14; bytes by = 15;
  Color color = 16; Leaf leaf = 17; All child = 18;
  repeated double rd = 21; repeated int64 ri64 = 22; repeated uint64 ru64 = 23; repeated bytes rby = 24;
  repeated Color rcolor = 25; repeated Leaf rleaf = 26; repeated string rs = 27; repeated float rf = 28;
  optional int32 oi32 = 31; optional int64 oi64 = 32; optional string os = 33; optional Color ocolor = 34;
  optional bytes oby = 35; optional bool ob = 36; optional double od = 37;
  map<string, string> mss = 41; map<int32, int64> mi32 = 42; map<int64, Leaf> mi64 = 43; map<uint32, Color> mu32 = 44;
  map<uint64, bytes> mu64 = 45; map<sint32, double> ms32 = 46; map<sint64, bool> ms64 = 47; map<fixed32, string> mfx32 = 48;
  map<fixed64, string> mfx64 = 49; map<sfixed32, string> msfx32 = 50; map<sfixed64, float> msfx64 = 51; map<bool, string> mb = 52;
  oneof choice {
    string c_str = 61; int64 c_i64 = 62; Leaf c_leaf = 63; Color c_color = 64; bytes c_by = 65; google.protobuf.Timestamp c_ts = 66;
  }
  google.protobuf.Timestamp ts = 71; google.protobuf.Duration dur = 72; google.protobuf.FieldMask mask = 73;
  google.protobuf.Struct st = 74; google.protobuf.Value val = 75; google.protobuf.ListValue lv = 76;
  google.protobuf.Empty empty = 77; google.protobuf.Any any = 78;
  google.protobuf.DoubleValue wd = 79; google.protobuf.FloatValue wf = 80; google.protobuf.Int64Value wi64 = 81;
  google.protobuf.UInt64Value wu64 = 82; google.protobuf.Int32Value wi32 = 83; google.protobuf.UInt32Value wu32 = 84;
  google.protobuf.BoolValue wb = 85; google.protobuf.StringValue ws = 86; google.protobuf.BytesValue wby = 87;
  google.protobuf.NullValue nv = 88; repeated google.protobuf.Value rval = 89; repeated google.protobuf.Any rany = 90;
  map<string, google.protobuf.Value> mval = 91; repeated google.protobuf.Timestamp rts = 92;
  map<string, google.protobuf.Duration> mdur = 93;
  string custom = 94 [json_name = "customName"]; string snake_case_name = 95; string constructor = 96;
  repeated string to_string = 97; int64 value_of = 98; google.protobuf.Api api = 99;
}
message Tree { string name = 1; repeated Tree children = 2; map<string, Tree> by_name = 3; optional Tree parent = 4; }
message Nothing {}
`;

const LEGACY_ALL = `syntax = "proto2";
package l;
enum Level { LOW = 0; MID = 5; HIGH = 10; }
message Inner { required string key = 1; optional int32 n = 2 [default = 7]; }
message Rec {
  required int64 id = 1;
  optional string name = 2 [default = "anon"];
  optional bytes blob = 3 [default = "abc"];
  optional int64 big = 4 [default = -9007199254740993];
  optional uint64 ubig = 5 [default = 18446744073709551615];
  optional double ratio = 6 [default = 1.5];
  optional float top = 7 [default = inf];
  optional bool flag = 8 [default = true];
  optional Level level = 9 [default = MID];
  repeated Level levels = 10;
  optional Inner inner = 11;
  repeated Inner inners = 12;
  map<string, Inner> by_key = 13;
  optional group Grp = 14 { optional string note = 1; required int32 count = 2; }
  oneof pick { string p_str = 15; Inner p_inner = 16; }
  required Level must = 17;
  optional sint32 neg = 18 [default = -3];
}
message Loose { optional Level level = 1; optional string note = 2; repeated int32 nums = 3; }
`;

/** Descriptors written by hand: relative type names, `proto3_optional`, editions and their features. */
const HAND_WRITTEN: readonly object[] = [
  {
    nested: {
      google: {
        nested: {
          protobuf: {
            nested: {
              Timestamp: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
              Int32Value: { fields: { value: { type: 'int32', id: 1 } } },
              Struct: { fields: { fields: { keyType: 'string', type: 'Value', id: 1 } } },
              Value: {
                oneofs: { kind: { oneof: ['nullValue', 'numberValue', 'stringValue', 'boolValue', 'structValue', 'listValue'] } },
                fields: {
                  nullValue: { type: 'NullValue', id: 1 },
                  numberValue: { type: 'double', id: 2 },
                  stringValue: { type: 'string', id: 3 },
                  boolValue: { type: 'bool', id: 4 },
                  structValue: { type: 'Struct', id: 5 },
                  listValue: { type: 'ListValue', id: 6 },
                },
              },
              NullValue: { values: { NULL_VALUE: 0 } },
              ListValue: { fields: { values: { rule: 'repeated', type: 'Value', id: 1 } } },
            },
          },
        },
      },
      demo: {
        nested: {
          Color: { values: { RED: 0, GREEN: 1 } },
          Item: {
            oneofs: { _note: { oneof: ['note'] } },
            fields: {
              displayName: { type: 'string', id: 1 },
              count: { type: 'int64', id: 2 },
              color: { type: 'Color', id: 3 },
              data: { type: 'bytes', id: 4 },
              createdAt: { type: 'google.protobuf.Timestamp', id: 5 },
              limit: { type: 'google.protobuf.Int32Value', id: 6 },
              labels: { type: 'google.protobuf.Struct', id: 7 },
              tags: { rule: 'repeated', type: 'string', id: 8 },
              sizes: { keyType: 'string', type: 'uint64', id: 9 },
              note: { type: 'string', id: 10, options: { proto3_optional: true } },
              child: { type: 'Item', id: 11 },
              stamp: { type: 'Timestamp', id: 12 },
            },
          },
        },
      },
    },
  },
  {
    nested: {
      e: {
        nested: {
          Mode: { edition: '2023', options: { features: { enum_type: 'CLOSED' } }, values: { MODE_UNSPECIFIED: 0, ON: 1 } },
          Doc: {
            edition: '2023',
            fields: {
              title: { type: 'string', id: 1 },
              count: { type: 'int32', id: 2, options: { features: { field_presence: 'IMPLICIT' } } },
              must: { type: 'string', id: 3, options: { features: { field_presence: 'LEGACY_REQUIRED' } } },
              mode: { type: 'Mode', id: 4 },
              sub: { type: 'Doc.Sub', id: 5 },
              tags: { rule: 'repeated', type: 'string', id: 6 },
              open: { type: 'Open', id: 7 },
            },
            nested: {
              Sub: { fields: { x: { type: 'int32', id: 1 }, y: { type: 'Mode', id: 2 } } },
              Open: { values: { O0: 0, O1: 1 } },
            },
          },
          P2: {
            edition: 'proto2',
            fields: { a: { type: 'int32', id: 1 }, n: { type: 'Nested', id: 2 }, k: { type: 'Kind', id: 3, options: { default: 'K1' } } },
            nested: {
              Nested: {
                fields: { b: { type: 'int32', id: 1, rule: 'required' }, c: { type: 'sint64', id: 2, options: { default: '-12' } } },
              },
              Kind: { values: { K0: 0, K1: 1 } },
            },
          },
          P3User: {
            fields: {
              kind: { type: 'P2.Kind', id: 1 },
              nested: { type: 'P2.Nested', id: 2 },
              raw: { type: 'bytes', id: 3, jsonName: 'RAW' },
            },
          },
        },
      },
    },
  },
];

/** Where the walk starts; `LOOM_CODEC_SEED=<n> npx vitest run …` walks elsewhere (a failure prints its input). */
const SEED = Number(process.env['LOOM_CODEC_SEED'] ?? 1);

interface Schema {
  readonly name: string;
  readonly descriptor: object;
}

const schemas: Schema[] = [];
let root = '';

beforeAll(async () => {
  // On disk: these import well-known types that the loader reads from protobufjs' and google-proto-files' folders.
  root = mkdtempSync(join(tmpdir(), 'loom-differential-'));
  const protos = { 'kitchen.proto': KITCHEN, 'legacy_all.proto': LEGACY_ALL, 'orders.proto': ORDERS, 'legacy.proto': LEGACY };
  for (const [name, text] of Object.entries(protos)) writeFileSync(join(root, name), text);
  const fixtures = join(REPO_ROOT, 'test/fixtures/schemas/proto');
  const google = join(REPO_ROOT, 'node_modules/google-proto-files');
  const files = [
    ...(await loadSchemas([root], { root })),
    ...(await loadSchemas([join(fixtures, 'shop/shop.proto'), join(fixtures, 'legacy/legacy.proto')], { root: fixtures })),
    ...(await loadSchemas([join(google, 'google/rpc/status.proto'), join(google, 'google/rpc/error_details.proto')], { root: google })),
  ];
  for (const file of files) {
    const descriptor = protoDescriptor(file);
    if (descriptor !== undefined) schemas.push({ name: file.path, descriptor: descriptor as object });
  }
  for (const [i, descriptor] of HAND_WRITTEN.entries()) schemas.push({ name: `hand-written #${i + 1}`, descriptor });
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every value spelled out, in key order, so that `-0`, `NaN`, bytes and `undefined` all count. */
function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (value instanceof Uint8Array) return `bytes[${[...value].join(',')}]`;
  if (Array.isArray(value)) return `[${value.map(show).join(',')}]`;
  return `{${Object.keys(value)
    .map((key) => `${JSON.stringify(key)}:${show((value as Record<string, unknown>)[key])}`)
    .join(',')}}`;
}

/** What a call answered: its value, or its error. */
function outcome(call: () => unknown): string {
  try {
    return `ok ${show(call())}`;
  } catch (error) {
    return error instanceof RpcError ? `${error.code}: ${error.message}` : `thrown ${String(error)}`;
  }
}

interface Mismatch {
  readonly what: string;
  readonly input: string;
  readonly ours: string;
  readonly reference: string;
}

/** Runs every check on one type; returns what differed (empty when all agreed) and how many checks ran. */
function compareType(schema: Schema, type: protobuf.Type, seed: number): { mismatches: Mismatch[]; checks: number } {
  const typeName = type.fullName.slice(1);
  const ours = createCodecRegistry(schema.descriptor).codec<Record<string, unknown>>(typeName);
  const reference = createReferenceRegistry(schema.descriptor).codec(typeName);
  const mismatches: Mismatch[] = [];
  let checks = 0;
  const same = (what: string, input: unknown, a: () => unknown, b: () => unknown): void => {
    checks++;
    const mine = outcome(a);
    const theirs = outcome(b);
    if (mine !== theirs) mismatches.push({ what, input: show(input), ours: mine, reference: theirs });
  };

  same(
    'defaults',
    undefined,
    () => ours.defaults,
    () => reference.defaults,
  );
  same(
    'create()',
    undefined,
    () => ours.create(),
    () => reference.create(),
  );
  same(
    'toJson(create())',
    undefined,
    () => ours.toJson(ours.create()),
    () => reference.toJson(reference.create() as object),
  );
  same(
    'toJson({})',
    {},
    () => ours.toJson({}),
    () => reference.toJson({}),
  );

  const rng = new Rng(seed);
  const walks = {
    clean: new JsonWalk(type.root as protobuf.Root, rng, 'clean'),
    dirty: new JsonWalk(type.root as protobuf.Root, rng, 'dirty'),
  };
  for (let i = 0; i < 48; i++) {
    const mode = i % 3 === 0 ? 'clean' : 'dirty';
    const json = walks[mode].message(type);
    compareJson(json, ours, reference, same);
  }
  for (let i = 0; i < 16; i++) {
    let message: Record<string, unknown>;
    try {
      message = ours.fromJson(walks.clean.message(type));
    } catch {
      continue;
    }
    for (let n = 1 + rng.int(2); n > 0; n--) mutateLoom(type, message, rng);
    same(
      'toJson(handler-made)',
      message,
      () => ours.toJson(message),
      () => reference.toJson(message),
    );
  }
  return { mismatches, checks };
}

function compareJson(
  json: unknown,
  ours: MessageCodec<Record<string, unknown>>,
  reference: ReferenceCodec,
  same: (what: string, input: unknown, a: () => unknown, b: () => unknown) => void,
): void {
  for (const options of [undefined, { ignoreUnknownFields: true }]) {
    const what = options ? 'fromJson(lenient)' : 'fromJson';
    same(
      what,
      json,
      () => ours.fromJson(json, options),
      () => reference.fromJson(json, options),
    );
    let read: Record<string, unknown>;
    try {
      read = ours.fromJson(json, options);
    } catch {
      continue;
    }
    same(
      `toJson(${what})`,
      read,
      () => ours.toJson(read),
      () => reference.toJson(read),
    );
  }
}

/** Hand-picked inputs, on the kitchen-sink types, beside the random ones. */
const HAND_PICKED: readonly [typeName: string, json: unknown][] = [
  ['k.All', { i64: '9223372036854775807', u64: '18446744073709551615', sfx64: '-9223372036854775808', s64: '-0' }],
  ['k.All', { f: 1.1, d: -0, rf: [1.1, 'NaN', '-Infinity'], od: 0, oi64: '0', ob: false }],
  ['k.All', { by: '-_8', rby: ['', 'AQI=', '+/8='], oby: '' }],
  ['k.All', { color: 'CRIMSON', rcolor: ['RED', 1, 'BLUE', -2, 7], ocolor: 'COLOR_UNSPECIFIED' }],
  [
    'k.All',
    { mi32: { '-1': '5', '007': 7 }, mi64: { '12345678': {}, '-9223372036854775808': { id: 'x' } }, mb: { true: 'y', false: 'n' } },
  ],
  ['k.All', { mi32: { '1': 1, '01': 2 } }],
  ['k.All', { cStr: 'a', c_leaf: {} }],
  ['k.All', { cTs: '2024-02-29T12:00:00.000000001+01:00' }],
  ['k.All', { ts: '1970-01-01T00:00:00Z', dur: '-0.000000001s', mask: 'fooBar,a.bC', st: { a: [null, { b: 1 }] }, val: null, lv: [] }],
  ['k.All', { any: { '@type': 'type.googleapis.com/k.Leaf', id: 'x', ratio: 1.1, ratios: [0.1, 3.4e38], weights: { w: 0.2 } } }],
  ['k.All', { any: { '@type': 'type.googleapis.com/google.protobuf.Duration', value: '1.5s' } }],
  ['k.All', { any: { '@type': 'google.protobuf.FloatValue', value: 1.1 } }],
  ['k.All', { any: { '@type': '.k.All', any: { '@type': 'x/k.Tree', name: 'n', children: [{}] } } }],
  ['k.All', { any: { '@type': 'type.googleapis.com/k.Nope' } }],
  ['k.All', { rany: [{}, { '@type': 'a/google.protobuf.Empty', value: {} }] }],
  ['k.All', { wd: 'NaN', wf: '1e3', wi64: '-5', wu64: 0, wi32: '7', wu32: 1, wb: false, ws: '', wby: 'AQI=' }],
  ['k.All', { nv: null, rval: [null, 1, 'x', [], {}], mval: { a: null, b: { c: [1] } } }],
  ['k.All', { customName: 'x', snake_case_name: 'y', snakeCaseName: 'z' }],
  ['k.All', { constructor: 'c', toString: ['t'], to_string: ['u'], valueOf: '5', api: { name: 'a', methods: [{ name: 'm' }] } }],
  [
    'k.All',
    { api: { name: 'a', options: [{ name: 'o', value: { '@type': 'type.googleapis.com/google.protobuf.StringValue', value: 'v' } }] } },
  ],
  ['k.All', { child: { child: { child: { leaf: { id: 'deep' } } } } }],
  ['k.Tree', { name: 'root', byName: { a: { name: 'a', children: [{ name: 'b' }] } }, parent: {} }],
  ['l.Rec', { id: '1', must: 'HIGH' }],
  ['l.Rec', { id: 1, must: 5, grp: { count: 1 }, inner: { key: 'k' }, byKey: { a: { key: 'b' } } }],
  ['l.Rec', { id: 1, must: 5, inner: {} }],
  ['l.Rec', { id: 1, must: 7 }],
  ['l.Rec', { must: 0 }],
  ['l.Rec', { id: '1', must: 'LOW', levels: ['LOW', 10, 6] }],
];

describe('the JSON codec against protobufjs', () => {
  it('answers hand-picked inputs as protobufjs did', () => {
    const mismatches: Mismatch[] = [];
    for (const [typeName, json] of HAND_PICKED) {
      const schema = schemas.find(
        (s) => s.name.endsWith('.proto') && new RegExp(`^${typeName.split('.')[0]}$`).test(packageOf(s.descriptor)),
      );
      expect(schema, typeName).toBeDefined();
      const ours = createCodecRegistry(schema!.descriptor).codec<Record<string, unknown>>(typeName);
      const reference = createReferenceRegistry(schema!.descriptor).codec(typeName);
      compareJson(json, ours, reference, (what, input, a, b) => {
        const mine = outcome(a);
        const theirs = outcome(b);
        if (mine !== theirs) mismatches.push({ what: `${typeName} ${what}`, input: show(input), ours: mine, reference: theirs });
      });
    }
    expect(mismatches).toEqual([]);
  });

  it('answers a seeded random walk over every type of the fixture schemas as protobufjs did', () => {
    let checks = 0;
    let types = 0;
    const mismatches: (Mismatch & { type: string })[] = [];
    for (const [s, schema] of schemas.entries()) {
      const root = protobuf.Root.fromJSON(structuredClone(schema.descriptor) as protobuf.INamespace);
      for (const [t, type] of allTypes(root).entries()) {
        // A codec of `Any` itself holds its message as bytes: not the JSON codec's (see above).
        if (type.fullName === '.google.protobuf.Any') continue;
        const result = compareType(schema, type, SEED + 1000 * s + t);
        types++;
        checks += result.checks;
        for (const m of result.mismatches) mismatches.push({ type: `${schema.name} ${type.fullName}`, ...m });
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    // The walk must reach far enough to mean something.
    expect(types).toBeGreaterThan(60);
    expect(checks).toBeGreaterThan(10_000);
  });
});

/** The first package of a descriptor (`k`, `l`, …). */
function packageOf(descriptor: object): string {
  return Object.keys((descriptor as { nested: object }).nested).find((name) => name !== 'google') ?? '';
}
