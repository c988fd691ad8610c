/** MessageCodec over protobufjs: Loom's plain-object shape, canonical JSON, binary, and bad input. */
import { describe, expect, it } from 'vitest';
import { createCodecRegistry } from './codec.js';
import { RpcError } from './errors.js';

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
      displayName: '', count: '0', color: 0, data: new Uint8Array(0), tags: [], sizes: {},
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
      // protobufjs hands out Node Buffers, which are Uint8Arrays.
      data: Buffer.from([1, 2]),
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
    expect(Item.toJson(Item.decode(Item.encode(item)))).toEqual(Item.toJson(item));
  });

  it('accepts proto field names and enum numbers', () => {
    const registry2 = createCodecRegistry({
      nested: { t: { nested: { M: { fields: { displayName: { type: 'string', id: 1, protoName: 'display_name' }, color: { type: 'E', id: 2 } } }, E: { values: { A: 0, B: 1 } } } } },
    });
    const M = registry2.codec('t.M');
    expect(M.fromJson({ display_name: 'x', color: 1 })).toEqual({ displayName: 'x', color: 1 });
  });

  it('omits zero values in JSON and binary', () => {
    expect(Simple.toJson(Simple.create())).toEqual({});
    expect(Simple.encode(Simple.create()).length).toBe(0);
    expect(Item.encode(Item.create()).length).toBe(0);
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
    expect(() => Simple.fromJson({ name: 5, nope: 1 }, lenient)).toThrow(/^cannot decode message demo\.Simple from JSON: .*demo\.Simple\.name/);
  });

  it('rejects truncated binary with invalid_argument', () => {
    const bytes = Simple.encode({ name: 'a long service name' });
    expect(() => Simple.decode(bytes.subarray(0, 5))).toThrow(/cannot decode message demo\.Simple from binary/);
    try {
      Simple.decode(bytes.subarray(0, 5));
    } catch (e) {
      expect((e as RpcError).code).toBe('invalid_argument');
    }
  });

  it('decodes what it encodes, filling zero values', () => {
    const bytes = Simple.encode({ name: 'sshd' });
    expect(Simple.decode(bytes)).toEqual({ name: 'sshd', force: false, color: 0 });
  });
});
