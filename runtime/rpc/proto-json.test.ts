/** ProtoJSON without protobufjs: read and written back, it answers as protobufjs' extension does, errors included. */
import protobuf from 'protobufjs';
import protojson from 'protobufjs/ext/protojson.js';
import { describe, expect, it } from 'vitest';
import { readMessage, writeMessage } from './proto-json.js';
import { readSchema } from './proto-schema.js';

const PROTO = `syntax = "proto3";
package p;
enum Color { RED = 0; GREEN = 1; }
message Leaf { float ratio = 1; repeated float ratios = 2; }
message M {
  int64 big = 1; uint32 small = 2; double d = 3; bytes data = 4; Color color = 5; string name = 6;
  map<int64, Leaf> leaves = 7; repeated Color colors = 8; optional int32 maybe = 9;
  oneof pick { string a = 10; Leaf b = 11; }
  Leaf leaf = 12;
}`;

// protobufjs' parser puts the types in the root; its JSON form is the descriptor the codec reads.
const parsed = protobuf.parse(PROTO, { keepCase: false }).root;
const descriptor = parsed.toJSON() as object;
const schema = readSchema(descriptor);
const type = parsed.lookupType('p.M');

/** Read then written back, or the error's message: by this module and by protobufjs. */
function both(json: unknown, ignoreUnknownFields = false): [string, string] {
  const run = (fn: () => unknown): string => {
    try {
      return JSON.stringify(fn());
    } catch (error) {
      return `error: ${(error as Error).message}`;
    }
  };
  const options = { ignoreUnknownFields };
  return [
    run(() => writeMessage(schema.lookupMessage('p.M'), readMessage(schema.lookupMessage('p.M'), json, options, 0), 0)),
    run(() => protojson.toJson(type, protojson.fromJson(type, json, options))),
  ];
}

describe('readMessage and writeMessage', () => {
  it.each([
    ['scalars in every spelling', { big: '007', small: '1e3', d: 'NaN', data: '-_8', color: 1, name: 'x' }],
    ['zero values, left out', { big: '0', small: 0, d: -0, data: '', color: 'RED', name: '' }],
    ['maps, lists, oneofs, presence', { leaves: { '01': { ratio: 1.1 } }, colors: ['GREEN', 7], maybe: 0, b: {} }],
    ['an unknown field', { nope: 1 }],
    ['a duplicate map key', { leaves: { '1': {}, '01': {} } }],
    ['two oneof members', { a: 'x', b: {} }],
    ['an int64 out of range', { big: '9223372036854775808' }],
    ['an unknown enum name', { colors: ['BLUE'] }],
    ['a value of the wrong type', { leaf: 5 }],
    ['not an object', []],
  ])('%s', (_what, json) => {
    const [mine, theirs] = both(json);
    expect(mine).toBe(theirs);
    const [lenient, theirsLenient] = both(json, true);
    expect(lenient).toBe(theirsLenient);
  });
});

describe('google.protobuf.Any', () => {
  const any = {
    nested: {
      google: {
        nested: {
          protobuf: {
            nested: { Any: { fields: { typeUrl: { type: 'string', id: 1, protoName: 'type_url' }, value: { type: 'bytes', id: 2 } } } },
          },
        },
      },
      q: {
        nested: {
          Leaf: { fields: { ratio: { type: 'float', id: 1 } } },
          Box: { fields: { item: { type: '.google.protobuf.Any', id: 1 } } },
        },
      },
    },
  };
  const box = readSchema(any).lookupMessage('q.Box');
  const boxType = protobuf.Root.fromJSON(structuredClone(any)).lookupType('q.Box');

  it('holds the message itself, rounded as its bytes would be, and writes what protobufjs writes', () => {
    const json = { item: { '@type': 'q.Leaf', ratio: 1.1 } };
    const written = writeMessage(box, readMessage(box, json, {}, 0), 0);
    expect(written).toEqual(protojson.toJson(boxType, protojson.fromJson(boxType, json)));
    expect(written).toEqual({ item: { '@type': '/q.Leaf', ratio: Math.fround(1.1) } });
  });

  it('names a type the descriptor lacks as protobufjs does', () => {
    expect(() => readMessage(box, { item: { '@type': 'x/q.Nope' } }, {}, 0)).toThrow('no such type: q.Nope');
  });
});
