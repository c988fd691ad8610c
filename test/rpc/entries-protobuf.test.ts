/**
 * `loom/protobuf` beside `loom/connect`: the codecs a JSON-only registry makes (no protobufjs in
 * them) are enough for `protobufBinary` to write and read their messages, byte for byte as
 * protobufjs writes them from the descriptor.
 */
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { createCodecRegistry, type MessageCodec, RpcError } from '../../runtime/entries/connect.js';
import { protobufBinary } from '../../runtime/entries/protobuf.js';

const descriptor = {
  nested: {
    google: {
      nested: { protobuf: { nested: { Timestamp: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } } } } },
    },
    shop: {
      nested: {
        Status: { values: { STATUS_UNSPECIFIED: 0, OPEN: 1 } },
        Line: { fields: { sku: { type: 'string', id: 1 }, quantity: { type: 'uint64', id: 2 } } },
        Order: {
          oneofs: { payment: { oneof: ['card', 'voucher'] } },
          fields: {
            id: { type: 'string', id: 1 },
            lines: { rule: 'repeated', type: '.shop.Line', id: 2 },
            counters: { keyType: 'int64', type: 'int32', id: 3 },
            createdAt: { type: '.google.protobuf.Timestamp', id: 4, protoName: 'created_at' },
            status: { type: '.shop.Status', id: 5 },
            card: { type: 'string', id: 6 },
            voucher: { type: 'bytes', id: 7 },
          },
        },
      },
    },
  },
};

interface Order {
  id: string;
  lines: { sku: string; quantity: string }[];
  counters: Record<string, number>;
  createdAt?: string;
  status: number;
  card?: string;
  voucher?: Uint8Array;
}

const Order: MessageCodec<Order> = createCodecRegistry(descriptor).codec<Order>('shop.Order');
const order: Order = {
  id: 'o-1',
  lines: [{ sku: 'a', quantity: '18446744073709551615' }],
  counters: { '9007199254740993': 2, '-1': 1 },
  createdAt: '2024-01-02T03:04:05.500Z',
  status: 1,
  voucher: new Uint8Array([1, 2, 3]),
};

describe('protobufBinary over JSON-only codecs', () => {
  it('round-trips a message through the codec of a JSON-only registry', () => {
    const bytes = protobufBinary.encode(Order, order);
    const decoded = protobufBinary.decode(Order, bytes);
    // On Node, protobufjs reads bytes as Buffers (Uint8Arrays of another class).
    expect({ ...decoded, voucher: new Uint8Array(decoded.voucher!) }).toEqual(order);
    expect(Order.toJson(protobufBinary.decode(Order, bytes))).toEqual(Order.toJson(order));
  });

  it('writes what protobufjs writes from the same descriptor', () => {
    const reference = protobuf.Root.fromJSON(structuredClone(descriptor)).lookupType('shop.Order');
    const simple = { id: 'o-2', status: 1, card: 'visa' };
    expect(protobufBinary.encode(Order, simple)).toEqual(reference.encode(simple).finish());
    expect(protobufBinary.decode(Order, reference.encode(simple).finish())).toEqual(Order.create(simple));
  });

  it('refuses what it cannot write, and bytes that are no message, with invalid_argument', () => {
    const twoMembers = (): unknown => protobufBinary.encode(Order, { card: 'x', voucher: new Uint8Array(1) });
    expect(twoMembers).toThrow(RpcError);
    expect(twoMembers).toThrow(/^cannot encode message shop\.Order to binary: shop\.Order: oneof payment has more than one member set/);
    expect(() => protobufBinary.decode(Order, new Uint8Array([0x0a, 0x20, 0x61]))).toThrow(
      /^cannot decode message shop\.Order from binary/,
    );
  });

  it('keeps the descriptor handle out of the codec’s own properties', () => {
    expect(Order.descriptor).toBe(descriptor);
    expect(Object.keys(Order)).not.toContain('descriptor');
  });
});
