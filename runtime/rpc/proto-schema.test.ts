/** The descriptor read without protobufjs: names resolved, presence and closed enums, JSON names, defaults, as protobufjs reads them. */
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from './base64.js';
import { longFromNumber, wrapLong } from './long.js';
import { type DescField, readSchema } from './proto-schema.js';

const descriptor = {
  nested: {
    google: {
      nested: { protobuf: { nested: { Timestamp: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } } } } },
    },
    a: {
      nested: {
        Kind: { values: { K0: 0, K1: 1, K_ALIAS: 1 }, options: { allow_alias: true } },
        Outer: {
          oneofs: { pick: { oneof: ['x', 'y'] }, _note: { oneof: ['note'] } },
          fields: {
            plain: { type: 'string', id: 1, protoName: 'plain_name' },
            x: { type: 'string', id: 2 },
            y: { type: 'Inner', id: 3 },
            note: { type: 'string', id: 4, options: { proto3_optional: true } },
            when: { type: 'Timestamp', id: 5 },
            kind: { type: 'Kind', id: 6 },
            custom: { type: 'string', id: 7, options: { json_name: 'renamed' } },
            byId: { keyType: 'int64', type: 'Inner', id: 8 },
          },
          nested: { Inner: { fields: { v: { type: 'int32', id: 1 } } } },
        },
        Legacy: {
          edition: 'proto2',
          fields: {
            id: { rule: 'required', type: 'string', id: 1 },
            level: { type: 'int32', id: 2, options: { default: 3 } },
            // biome-ignore lint/correctness/noPrecisionLoss: as the generator prints `[default = 9007199254740993]`
            big: { type: 'int64', id: 3, options: { default: 9007199254740993 } },
            kind: { type: 'Mode', id: 4, options: { default: 'ON' } },
            blob: { type: 'bytes', id: 5, options: { default: 'AQI=' } },
            text: { type: 'bytes', id: 6, options: { default: 'hi!' } },
          },
          nested: { Mode: { values: { OFF: 0, ON: 1 } } },
        },
        Editions: {
          edition: '2023',
          fields: {
            explicit: { type: 'int32', id: 1 },
            implicit: { type: 'int32', id: 2, options: { features: { field_presence: 'IMPLICIT' } } },
            required: { type: 'int32', id: 3, options: { features: { field_presence: 'LEGACY_REQUIRED' } } },
          },
        },
      },
    },
  },
};

const schema = readSchema(descriptor);
const fieldOf = (type: string, name: string): DescField => schema.lookupMessage(type).fields.find((f) => f.name === name)!;

/** The same facts about a field from protobufjs' own reading of the descriptor. */
function protobufjsField(type: string, name: string) {
  const root = protobuf.Root.fromJSON(structuredClone(descriptor));
  const field = root.lookupType(type).fields[name]!.resolve();
  return {
    protoName: field.protoName,
    jsonName: field.jsonName,
    hasPresence: Boolean(field.hasPresence),
    required: field.required,
    oneof: field.partOf?.name,
    resolved: field.resolvedType?.fullName,
  };
}

describe('readSchema', () => {
  it('reads every field as protobufjs does', () => {
    const root = protobuf.Root.fromJSON(structuredClone(descriptor));
    for (const typeName of ['a.Outer', 'a.Outer.Inner', 'a.Legacy', 'a.Editions']) {
      for (const field of root.lookupType(typeName).fieldsArray) {
        const mine = fieldOf(typeName, field.name);
        expect({
          protoName: mine.protoName,
          jsonName: mine.jsonName,
          hasPresence: mine.hasPresence,
          required: mine.required,
          oneof: mine.oneof?.name,
          resolved: (mine.message ?? mine.enum)?.fullName,
        }).toEqual(protobufjsField(typeName, field.name));
      }
    }
  });

  it('resolves relative names as protobufjs does, the nested scope first and any namespace below', () => {
    expect(fieldOf('a.Outer', 'y').message?.fullName).toBe('.a.Outer.Inner');
    expect(fieldOf('a.Outer', 'when').message?.fullName).toBe('.google.protobuf.Timestamp');
    expect(fieldOf('a.Legacy', 'kind').enum?.fullName).toBe('.a.Legacy.Mode');
    expect(() => readSchema({ nested: { b: { nested: { M: { fields: { f: { type: 'Nope', id: 1 } } } } } } })).toThrow(
      "no such Type or Enum 'Nope' in Type .b.M",
    );
    expect(() => schema.lookupMessage('a.Kind')).toThrow('no such type: a.Kind');
  });

  it('gives enums their first name for a number, and proto2 enums closed', () => {
    const kind = fieldOf('a.Outer', 'kind').enum!;
    expect([kind.valuesById['1'], kind.values['K_ALIAS'], kind.closed]).toEqual(['K1', 1, false]);
    expect(fieldOf('a.Legacy', 'kind').enum!.closed).toBe(true);
  });

  it('converts declared defaults as protobufjs does', () => {
    expect(fieldOf('a.Legacy', 'level').declaredDefault).toBe(3);
    expect(fieldOf('a.Legacy', 'big').declaredDefault).toBe('9007199254740992');
    expect(fieldOf('a.Legacy', 'kind').declaredDefault).toBe(1);
    expect(fieldOf('a.Legacy', 'blob').declaredDefault).toEqual(new Uint8Array([1, 2]));
    expect(fieldOf('a.Legacy', 'text').declaredDefault).toEqual(new TextEncoder().encode('hi!'));
    expect(fieldOf('a.Outer', 'x').declaredDefault).toBeUndefined();
  });

  it('refuses an edition it does not know', () => {
    expect(() => readSchema({ nested: { M: { edition: '1999', fields: {} } } })).toThrow('Unknown edition: 1999');
  });

  it('refuses two fields under one JSON key when asked for the keys', () => {
    const clash = readSchema({ nested: { M: { fields: { a_b: { type: 'string', id: 1 }, aB: { type: 'string', id: 2 } } } } });
    expect(() => clash.lookupMessage('M').jsonKeys()).toThrow('.M: duplicate ProtoJSON field name "aB"');
  });
});

describe('base64 and 64-bit integers', () => {
  it('writes standard base64 and reads both alphabets, padded or not', () => {
    expect(encodeBase64(new Uint8Array([251, 255, 1]))).toBe('+/8B');
    expect(encodeBase64([1, 2])).toBe('AQI=');
    expect([...decodeBase64('-_8')]).toEqual([251, 255]);
    expect([...decodeBase64('AQI=')]).toEqual([1, 2]);
    expect(() => decodeBase64('A')).toThrow('invalid encoding');
    expect(() => decodeBase64('!!!!')).toThrow('invalid encoding');
  });

  it('wraps and clamps as long.js does', () => {
    expect(wrapLong('18446744073709551616', true)).toBe('0');
    expect(wrapLong('9223372036854775808', false)).toBe('-9223372036854775808');
    expect(wrapLong('-1', true)).toBe('18446744073709551615');
    expect(longFromNumber(2 ** 70, true)).toBe('18446744073709551615');
    expect(longFromNumber(-1.9, false)).toBe('-1');
    expect(longFromNumber(Number.NaN, false)).toBe('0');
  });
});
