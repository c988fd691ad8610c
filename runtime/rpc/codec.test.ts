/** MessageCodec and protobufBinary: Loom's plain-object shape, canonical JSON, binary, and bad input. */
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { createCodecRegistry } from './codec.js';
import { RpcError } from './errors.js';
import { protobufBinary } from './protobuf-binary.js';

// The descriptor shape generated `X.codec.ts` files embed (protobufjs `Root.toJSON()`).
const descriptor = {
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
          },
        },
        Simple: { fields: { name: { type: 'string', id: 1 }, force: { type: 'bool', id: 2 }, color: { type: 'Color', id: 3 } } },
      },
    },
  },
};

const registry = createCodecRegistry(descriptor);
const Item = registry.codec<Record<string, unknown>>('demo.Item');
const Simple = registry.codec<{ name: string; force: boolean; color: number }>('demo.Simple');

describe('MessageCodec', () => {
  it('creates messages with proto3 zero values and no explicit-presence fields', () => {
    expect(Item.typeName).toBe('demo.Item');
    expect(Item.create()).toEqual({
      displayName: '',
      count: '0',
      color: 0,
      data: new Uint8Array(0),
      tags: [],
      sizes: {},
    });
    expect(Simple.create({ name: 'sshd' })).toEqual({ name: 'sshd', force: false, color: 0 });
  });

  it('reads canonical JSON into Loom objects and writes it back', () => {
    const json = {
      displayName: 'Alpha',
      count: '9007199254740993',
      color: 'GREEN',
      data: 'AQI=',
      createdAt: '2024-01-02T03:04:05.500Z',
      limit: 5,
      labels: { a: [1, 'x'], b: null },
      tags: ['x'],
      sizes: { big: '18446744073709551615' },
      note: '',
      child: { displayName: 'Beta' },
    };
    const item = Item.fromJson(json);
    expect(item).toEqual({
      displayName: 'Alpha',
      count: '9007199254740993',
      color: 1,
      // A plain Uint8Array (not a Node Buffer, as protobufjs gave): the JSON codec runs where there is no Buffer.
      data: new Uint8Array([1, 2]),
      createdAt: '2024-01-02T03:04:05.500Z',
      limit: 5,
      labels: { a: [1, 'x'], b: null },
      tags: ['x'],
      sizes: { big: '18446744073709551615' },
      note: '',
      child: { displayName: 'Beta', count: '0', color: 0, data: new Uint8Array(0), tags: [], sizes: {} },
    });
    // `note` is explicitly present, so its empty value survives; zero values elsewhere are omitted.
    expect(Item.toJson(item)).toEqual(json);
    expect(Item.toJson(protobufBinary.decode(Item, protobufBinary.encode(Item, item)))).toEqual(Item.toJson(item));
  });

  it('accepts proto field names and enum numbers', () => {
    const registry2 = createCodecRegistry({
      nested: {
        t: {
          nested: {
            M: { fields: { displayName: { type: 'string', id: 1, protoName: 'display_name' }, color: { type: 'E', id: 2 } } },
            E: { values: { A: 0, B: 1 } },
          },
        },
      },
    });
    const M = registry2.codec('t.M');
    expect(M.fromJson({ display_name: 'x', color: 1 })).toEqual({ displayName: 'x', color: 1 });
  });

  it('omits zero values in JSON and binary', () => {
    expect(Simple.toJson(Simple.create())).toEqual({});
    expect(protobufBinary.encode(Simple, Simple.create()).length).toBe(0);
    expect(protobufBinary.encode(Item, Item.create()).length).toBe(0);
    expect(Simple.toJson({ name: 'a', force: true, color: 1 })).toEqual({ name: 'a', force: true, color: 'GREEN' });
  });

  it('rejects unknown fields, wrong types and unknown enum names with invalid_argument', () => {
    const cases: [unknown, RegExp][] = [
      [{ nope: 1 }, /unknown field: "nope"/],
      [{ name: 5 }, /demo\.Simple\.name/],
      [{ color: 'BLUE' }, /unknown enum value: "BLUE"/],
      [[], /demo\.Simple/],
    ];
    for (const [json, message] of cases) {
      let error: unknown;
      try {
        Simple.fromJson(json);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RpcError);
      expect((error as RpcError).code).toBe('invalid_argument');
      expect((error as RpcError).message).toMatch(/^cannot decode message demo\.Simple from JSON: /);
      expect((error as RpcError).message).toMatch(message);
    }
  });

  it('skips unknown fields and unknown enum names when asked to, and still rejects wrong types', () => {
    const lenient = { ignoreUnknownFields: true };
    expect(Simple.fromJson({ name: 'a', nope: { deep: [1] }, color: 'BLUE' }, lenient)).toEqual({ name: 'a', force: false, color: 0 });
    expect(() => Simple.fromJson({ name: 5, nope: 1 }, lenient)).toThrow(
      /^cannot decode message demo\.Simple from JSON: .*demo\.Simple\.name/,
    );
  });

  it('rejects truncated binary with invalid_argument', () => {
    const bytes = protobufBinary.encode(Simple, { name: 'a long service name' });
    expect(() => protobufBinary.decode(Simple, bytes.subarray(0, 5))).toThrow(/cannot decode message demo\.Simple from binary/);
    try {
      protobufBinary.decode(Simple, bytes.subarray(0, 5));
    } catch (e) {
      expect((e as RpcError).code).toBe('invalid_argument');
    }
  });

  it('decodes what it encodes, filling zero values', () => {
    const bytes = protobufBinary.encode(Simple, { name: 'sshd' });
    expect(protobufBinary.decode(Simple, bytes)).toEqual({ name: 'sshd', force: false, color: 0 });
  });
});

// Presence, 64-bit map keys, proto2 and awkward field names (descriptors as the generator writes them).
const semantics = createCodecRegistry({
  nested: {
    s: {
      nested: {
        Line: { fields: { sku: { type: 'string', id: 1 } } },
        Pay: {
          oneofs: { payment: { oneof: ['card', 'voucher', 'count'] } },
          fields: {
            card: { type: 'string', id: 1 },
            voucher: { type: '.s.Line', id: 2 },
            count: { type: 'int32', id: 3 },
            note: { type: 'string', id: 4 },
          },
        },
        Keys: {
          fields: {
            i64: { keyType: 'int64', type: 'string', id: 1 },
            u64: { keyType: 'uint64', type: 'string', id: 2 },
            s64: { keyType: 'sint64', type: 'string', id: 3 },
            f64: { keyType: 'fixed64', type: 'string', id: 4 },
            sf64: { keyType: 'sfixed64', type: 'string', id: 5 },
            i32: { keyType: 'int32', type: 'string', id: 6 },
            flags: { keyType: 'bool', type: 'string', id: 7 },
            lines: { keyType: 'int64', type: '.s.Line', id: 8 },
          },
        },
        Proto: {
          fields: {
            id: { type: 'string', id: 1 },
            constructor: { type: 'string', id: 2 },
            toString: { rule: 'repeated', type: 'string', id: 3 },
            valueOf: { type: 'int64', id: 4 },
            hasOwnProperty: { keyType: 'string', type: 'string', id: 5 },
            isPrototypeOf: { type: '.s.Line', id: 6 },
          },
        },
        Level: { edition: 'proto2', values: { LOW: 0, HIGH: 1 } },
        Account: {
          edition: 'proto2',
          fields: {
            id: { rule: 'required', type: 'string', id: 1 },
            level: { type: 'int32', id: 2, options: { default: 3 } },
            tags: { rule: 'repeated', type: 'string', id: 3 },
            extra: { type: '.s.Account.Extra', id: 4 },
            // biome-ignore lint/correctness/noPrecisionLoss: the .proto's default below, a double once parsed (as protobufjs has it).
            big: { type: 'int64', id: 5, options: { default: 9007199254740993 } },
            rank: { type: '.s.Level', id: 6, options: { default: 'HIGH' } },
          },
          nested: { Extra: { edition: 'proto2', group: true, fields: { note: { type: 'string', id: 1 } } } },
        },
      },
    },
  },
});

interface Line {
  sku: string;
}
interface Pay {
  card?: string;
  voucher?: Line;
  count?: number;
  note: string;
}
const Pay = semantics.codec<Pay>('s.Pay');

function rpcErrorOf(fn: () => unknown): RpcError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RpcError);
    return error as RpcError;
  }
  throw new Error('expected an RpcError');
}

describe('MessageCodec: oneofs', () => {
  it('leaves unset members out of decoded, parsed and created messages', () => {
    const decoded = protobufBinary.decode(Pay, protobufBinary.encode(Pay, { voucher: { sku: 'v' } }));
    expect(decoded).toStrictEqual({ voucher: { sku: 'v' }, note: '' });
    expect(Pay.fromJson({})).toStrictEqual({ note: '' });
    expect(Pay.fromJson({ voucher: { sku: 'v' } })).toStrictEqual({ voucher: { sku: 'v' }, note: '' });
    expect(Pay.create()).toStrictEqual({ note: '' });
    expect(protobufBinary.decode(Pay, new Uint8Array(0))).toStrictEqual({ note: '' });
  });

  it('writes only the member that is set, in binary and JSON', () => {
    const decoded = protobufBinary.decode(Pay, protobufBinary.encode(Pay, { voucher: { sku: 'v' } }));
    expect(Pay.toJson(decoded)).toEqual({ voucher: { sku: 'v' } });
    // Field 2, length-delimited: nothing for `card` (field 1) or `count` (field 3).
    expect([...protobufBinary.encode(Pay, decoded)]).toEqual([0x12, 0x03, 0x0a, 0x01, 0x76]);
  });

  it('keeps a member set to its zero value: set is not the same as default', () => {
    expect([...protobufBinary.encode(Pay, { card: '' })]).toEqual([0x0a, 0x00]);
    expect(protobufBinary.decode(Pay, protobufBinary.encode(Pay, { card: '' }))).toStrictEqual({ card: '', note: '' });
    expect(Pay.toJson({ count: 0 })).toEqual({ count: 0 });
    expect(Pay.fromJson({ count: 0 })).toStrictEqual({ count: 0, note: '' });
  });

  it('keeps the last member on the wire, as protobuf readers do', () => {
    const bytes = new Uint8Array([...protobufBinary.encode(Pay, { card: 'x' }), ...protobufBinary.encode(Pay, { voucher: { sku: 'v' } })]);
    expect(protobufBinary.decode(Pay, bytes)).toStrictEqual({ voucher: { sku: 'v' }, note: '' });
  });

  it('refuses to write two members of one oneof, and reads undefined or null as unset', () => {
    for (const write of [
      () => protobufBinary.encode(Pay, { card: 'x', voucher: { sku: 'v' } }),
      () => Pay.toJson({ card: '', count: 0 }),
    ]) {
      const error = rpcErrorOf(write);
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toMatch(/s\.Pay: oneof payment has more than one member set \((card, voucher|card, count)\)/);
    }
    expect(Pay.toJson({ card: 'x', voucher: undefined, count: null as never })).toEqual({ card: 'x' });
    expect(() => Pay.fromJson({ card: 'x', voucher: {} })).toThrow(/multiple values for oneof payment/);
  });
});

describe('MessageCodec: 64-bit map keys', () => {
  const Keys = semantics.codec<Record<string, Record<string, unknown>>>('s.Keys');
  const keys = {
    i64: { '12345678901': 'a', '-5': 'b', '12345678': 'eight digits', '0': 'zero', '-9223372036854775808': 'min' },
    u64: { '18446744073709551615': 'max', '7': 'seven' },
    s64: { '-9223372036854775808': 'min', '9223372036854775807': 'max' },
    f64: { '18446744073709551615': 'max', '1': 'one' },
    sf64: { '-1': 'minus one', '4294967296': 'two to the 32' },
    i32: { '-2147483648': 'min', '5': 'five' },
    flags: { true: 'yes', false: 'no' },
    lines: { '9007199254740993': { sku: 'beyond 2^53' } },
  };

  it('are decimal strings after a binary round trip, for every 64-bit key type', () => {
    expect(protobufBinary.decode(Keys, protobufBinary.encode(Keys, keys))).toEqual(keys);
    expect(Keys.fromJson(Keys.toJson(protobufBinary.decode(Keys, protobufBinary.encode(Keys, keys))))).toEqual(keys);
  });

  it('are written as protobufjs writes the numbers', () => {
    const reference = protobuf.parse('syntax = "proto3"; message M { map<int64, string> i64 = 1; }').root.lookupType('M');
    const Long = protobuf.util.Long as unknown as { fromString(value: string): protobuf.Long };
    // protobufjs' own map objects are keyed by its 8-character hash of the number.
    const hash = protobuf.util.longToHash(Long.fromString('12345678901'));
    expect(protobufBinary.encode(Keys, { i64: { '12345678901': 'a' } })).toEqual(reference.encode({ i64: { [hash]: 'a' } }).finish());
  });

  it('are normalised, and refused when they are not numbers of the key type', () => {
    expect(protobufBinary.decode(Keys, protobufBinary.encode(Keys, { i64: { '007': 'x' } }))).toMatchObject({ i64: { '7': 'x' } });
    const cases: [Record<string, Record<string, string>>, RegExp][] = [
      [{ i64: { abc: 'x' } }, /s\.Keys\.i64: invalid int64 map key "abc"/],
      [{ i64: { '9223372036854775808': 'x' } }, /invalid int64 map key "9223372036854775808"/],
      [{ u64: { '-1': 'x' } }, /invalid uint64 map key "-1"/],
      [{ i32: { '2147483648': 'x' } }, /invalid int32 map key/],
      [{ flags: { yes: 'x' } }, /invalid bool map key "yes"/],
    ];
    for (const [message, pattern] of cases) {
      expect(rpcErrorOf(() => protobufBinary.encode(Keys, message)).message).toMatch(pattern);
      expect(rpcErrorOf(() => Keys.toJson(message)).message).toMatch(pattern);
    }
  });
});

describe('MessageCodec: proto2', () => {
  interface Account {
    id: string;
    level?: number;
    tags: string[];
    extra?: { note?: string };
    big?: string;
    rank?: number;
  }
  const Account = semantics.codec<Account>('s.Account');
  const reference = protobuf
    .parse(`syntax = "proto2"; package s;
    enum Level { LOW = 0; HIGH = 1; }
    message Account {
      required string id = 1;
      optional int32 level = 2 [default = 3];
      repeated string tags = 3;
      optional group Extra = 4 { optional string note = 1; }
      optional int64 big = 5 [default = 9007199254740993];
      optional Level rank = 6 [default = HIGH];
    }`)
    .root.lookupType('s.Account');

  it('leaves unset optional fields out and offers their declared defaults', () => {
    const decoded = protobufBinary.decode(Account, protobufBinary.encode(Account, { id: 'a', tags: [] }));
    expect(decoded).toStrictEqual({ id: 'a', tags: [] });
    expect(Account.toJson(decoded)).toEqual({ id: 'a' });
    // biome-ignore lint/correctness/noPrecisionLoss: the descriptor's default, as written there (it reads 9007199254740992).
    expect(Account.defaults).toEqual({ id: '', level: 3, big: String(9007199254740993), rank: 1 });
    expect(decoded.level ?? Account.defaults.level).toBe(3);
    // An explicit zero is set, and stays set.
    expect(protobufBinary.decode(Account, protobufBinary.encode(Account, { id: 'a', level: 0, tags: [] }))).toStrictEqual({
      id: 'a',
      level: 0,
      tags: [],
    });
    expect(Account.toJson({ id: 'a', level: 0, tags: [] })).toEqual({ id: 'a', level: 0 });
  });

  it('encodes groups as groups, byte for byte as protobufjs does from the .proto', () => {
    const message = { id: 'a', tags: ['t'], extra: { note: 'n' } };
    const bytes = protobufBinary.encode(Account, message);
    // Field 4 between a start-group (4 << 3 | 3) and an end-group (4 << 3 | 4) tag.
    expect(Buffer.from(bytes).toString('hex')).toBe('0a01611a0174230a016e24');
    expect(bytes).toEqual(reference.encode(message).finish());
    expect(protobufBinary.decode(Account, reference.encode(message).finish())).toStrictEqual(message);
  });

  it('says which required field is missing instead of failing inside protobufjs', () => {
    for (const write of [() => protobufBinary.encode(Account, { tags: [] }), () => Account.toJson({ tags: [] })]) {
      const error = rpcErrorOf(write);
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toMatch(/s\.Account\.id: required field is not set$/);
    }
    // `level: 1` alone (protobufjs' own encoder cannot write a message without `id`: it fails on it).
    expect(rpcErrorOf(() => protobufBinary.decode(Account, new Uint8Array([0x10, 0x01]))).message).toMatch(
      /^cannot decode message s\.Account from binary: missing required 'id'/,
    );
    expect(rpcErrorOf(() => Account.fromJson({ level: 1 })).message).toMatch(
      /^cannot decode message s\.Account from JSON: s\.Account\.id: missing required field/,
    );
    expect(rpcErrorOf(() => Account.fromJson({ id: null })).message).toMatch(/missing required field/);
  });

  it('creates what the type promises: required fields with their default, optional ones unset', () => {
    expect(Account.create()).toStrictEqual({ id: '', tags: [] });
    expect(protobufBinary.encode(Account, Account.create({ id: 'a' }))).toEqual(reference.encode({ id: 'a' }).finish());
  });

  it('reads closed enums as proto2 does: unknown numbers are not values', () => {
    expect(() => Account.fromJson({ id: 'a', rank: 7 })).toThrow(/unknown enum value/);
    expect(protobufBinary.decode(Account, reference.encode({ id: 'a', rank: 7 }).finish())).toStrictEqual({ id: 'a', tags: [] });
  });
});

describe('MessageCodec: fields named like members of Object.prototype', () => {
  interface Proto {
    id: string;
    constructor: string;
    toString: string[];
    valueOf: string;
    hasOwnProperty: Record<string, string>;
    isPrototypeOf?: Line;
  }
  const Proto = semantics.codec<Proto>('s.Proto');

  it('encodes a created message (unset fields are not read from the prototype)', () => {
    // Also a compile-time check: `{ id: 'a' }` is a valid init although every literal inherits `constructor`.
    const created = Proto.create({ id: 'a' });
    expect(created).toStrictEqual({ id: 'a', constructor: '', toString: [], valueOf: '0', hasOwnProperty: {} });
    expect(protobufBinary.decode(Proto, protobufBinary.encode(Proto, created))).toStrictEqual(created);
    expect(protobufBinary.encode(Proto, { id: 'a' })).toEqual(protobufBinary.encode(Proto, created));
    expect(Proto.toJson({ id: 'a' })).toEqual({ id: 'a' });
  });

  it('round-trips them when set, in binary and JSON', () => {
    const message: Proto = {
      id: 'a',
      constructor: 'c',
      toString: ['t'],
      valueOf: '9007199254740993',
      hasOwnProperty: { k: 'v' },
      isPrototypeOf: { sku: 's' },
    };
    expect(protobufBinary.decode(Proto, protobufBinary.encode(Proto, message))).toStrictEqual(message);
    const json = Proto.toJson(message);
    expect(json).toEqual({
      id: 'a',
      constructor: 'c',
      toString: ['t'],
      valueOf: '9007199254740993',
      hasOwnProperty: { k: 'v' },
      isPrototypeOf: { sku: 's' },
    });
    expect(Proto.fromJson(json)).toStrictEqual(message);
  });
});
