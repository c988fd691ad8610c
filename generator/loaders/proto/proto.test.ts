/**
 * @module
 * The `.proto` loader on inline schemas: the exact model for messages, nesting, oneofs,
 * maps, enums with aliases, services and streaming, imports, well-known types and proto2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnumType, MessageType, SchemaFile } from '../../model/model.js';
import { SchemaError } from '../index.js';
import { forgetSchemas, loadSchemas, memorySchemas, plain } from '../testing.js';

const SHOP = `syntax = "proto3";

package acme.shop.v1;

import "google/protobuf/timestamp.proto";
import "common/money.proto";

// An order in the shop.
message Order {
  // Server-assigned id.
  string order_id = 1;
  optional int32 priority = 2;
  repeated Item items = 3;
  map<string, int64> counters = 4;
  google.protobuf.Timestamp created_at = 5;
  acme.common.Money total = 6;
  string legacy_code = 7 [deprecated = true, json_name = "code"];
  oneof payment {
    string card_token = 8;
    Voucher voucher = 9;
  }
  Status status = 10;

  // A line of the order.
  message Item {
    string sku = 1;
    uint64 quantity = 2;
    message Note { string text = 1; }
  }
  enum Status {
    option allow_alias = true;
    STATUS_UNSPECIFIED = 0;
    // Accepted by the shop.
    STATUS_OPEN = 1;
    STATUS_ACTIVE = 1;
  }
}

message Voucher { bytes code = 1; }

message Date { int32 day = 1; }

service Orders {
  // Places an order.
  rpc PlaceOrder(Order) returns (Order) {
    option idempotency_level = IDEMPOTENT;
  }
  rpc WatchOrders(Voucher) returns (stream Order) {
    option idempotency_level = NO_SIDE_EFFECTS;
  }
  rpc Upload(stream Order.Item) returns (Voucher) { option deprecated = true; }
}

service Admin {
  rpc Delete(Date) returns (Date);
}
`;

const MONEY = `syntax = "proto3";
package acme.common;
message Money { string currency = 1; int64 units = 2; }
`;

const LEGACY = `syntax = "proto2";
package legacy;

message Account {
  required string id = 1;
  optional int32 level = 2 [default = 3];
  repeated string tags = 3;
  optional group Extra = 4 {
    optional string note = 1;
  }
  extensions 100 to 199;
}

extend Account {
  optional string nickname = 100;
}
`;

let root: string;
let shop: SchemaFile;
let legacy: SchemaFile;

beforeAll(async () => {
  root = memorySchemas({ 'shop/shop.proto': SHOP, 'common/money.proto': MONEY, 'legacy/legacy.proto': LEGACY });
  const files = await loadSchemas([`${root}/shop/shop.proto`, `${root}/legacy/legacy.proto`], { root });
  [legacy, shop] = files as [SchemaFile, SchemaFile];
});
afterAll(() => forgetSchemas(root));

const message = (file: SchemaFile, fullName: string) => file.types.find((t) => t.fullName === fullName) as MessageType;
const field = (m: MessageType, name: string) => plain(m.fields.find((f) => f.name === name));

describe('proto3 files', () => {
  it('returns the inputs sorted by path, with package and format', () => {
    expect([legacy.path, shop.path]).toEqual(['legacy/legacy.proto', 'shop/shop.proto']);
    expect(shop.format).toBe('proto3');
    expect(shop.packageName).toBe('acme.shop.v1');
    expect(shop.info).toEqual({ title: 'acme.shop.v1', version: '', basePath: '' });
    expect(shop.warnings).toEqual([]);
  });

  it('flattens nested types after their parent, joining local names with _', () => {
    expect(shop.types.map((t) => [t.kind, t.fullName, t.localName])).toEqual([
      ['message', 'acme.shop.v1.Order', 'Order'],
      ['message', 'acme.shop.v1.Order.Item', 'Order_Item'],
      ['message', 'acme.shop.v1.Order.Item.Note', 'Order_Item_Note'],
      ['enum', 'acme.shop.v1.Order.Status', 'Order_Status'],
      ['message', 'acme.shop.v1.Voucher', 'Voucher'],
      ['message', 'acme.shop.v1.Date', 'Date$'],
    ]);
    const note = message(shop, 'acme.shop.v1.Order.Item.Note');
    expect(note.outer?.fullName).toBe('acme.shop.v1.Order.Item');
    expect(note.parent).toBe(shop);
  });

  it('maps scalar fields with implicit presence, comments and source lines', () => {
    const order = message(shop, 'acme.shop.v1.Order');
    expect(order.doc).toBe('An order in the shop.');
    expect(order.source).toEqual({ file: 'shop/shop.proto', line: 9 });
    expect(field(order, 'order_id')).toEqual({
      kind: 'field',
      name: 'order_id',
      jsonName: 'orderId',
      localName: 'orderId',
      number: 1,
      type: { kind: 'scalar', scalar: 'string' },
      presence: 'implicit',
      readOnly: false,
      writeOnly: false,
      deprecated: false,
      doc: 'Server-assigned id.',
      source: { file: 'shop/shop.proto', line: 11 },
    });
  });

  it('gives proto3 optional fields presence and hides their synthetic oneof', () => {
    const order = message(shop, 'acme.shop.v1.Order');
    expect(field(order, 'priority')).toMatchObject({ type: { kind: 'scalar', scalar: 'int32' }, presence: 'optional' });
    expect(order.fields.find((f) => f.name === 'priority')!.oneof).toBeUndefined();
    expect(order.oneofs.map((o) => o.name)).toEqual(['payment']);
  });

  it('maps repeated, map, message, enum and imported types', () => {
    const order = message(shop, 'acme.shop.v1.Order');
    expect(field(order, 'items')).toMatchObject({
      type: { kind: 'array', items: { kind: 'ref', target: { ref: 'shop/shop.proto#acme.shop.v1.Order.Item' } } },
      presence: 'implicit',
    });
    expect(field(order, 'counters')).toMatchObject({
      type: { kind: 'map', key: { kind: 'scalar', scalar: 'string' }, value: { kind: 'scalar', scalar: 'int64' } },
      presence: 'implicit',
    });
    expect(field(order, 'created_at')).toMatchObject({
      type: { kind: 'ref', target: { ref: 'google/protobuf/timestamp.proto#google.protobuf.Timestamp' } },
      presence: 'optional',
    });
    expect(field(order, 'total')).toMatchObject({
      type: { kind: 'ref', target: { ref: 'common/money.proto#acme.common.Money' } },
      presence: 'optional',
    });
    expect(field(order, 'status')).toMatchObject({
      type: { kind: 'ref', target: { ref: 'shop/shop.proto#acme.shop.v1.Order.Status' } },
      presence: 'implicit',
    });
  });

  it('keeps json_name and deprecated options', () => {
    const order = message(shop, 'acme.shop.v1.Order');
    expect(field(order, 'legacy_code')).toMatchObject({ name: 'legacy_code', jsonName: 'code', localName: 'code', deprecated: true });
  });

  it('groups oneof members and makes them optional', () => {
    const order = message(shop, 'acme.shop.v1.Order');
    expect(order.oneofs.map((o) => ({ name: o.name, localName: o.localName, fields: o.fields.map((f) => f.name) }))).toEqual([
      { name: 'payment', localName: 'payment', fields: ['card_token', 'voucher'] },
    ]);
    expect(field(order, 'voucher')).toMatchObject({ presence: 'optional', oneof: 'payment' });
    expect(order.oneofs[0]!.fields[0]).toBe(order.fields.find((f) => f.name === 'card_token'));
  });

  it('marks enum aliases and keeps value comments', () => {
    const status = shop.types.find((t) => t.name === 'Status') as EnumType;
    expect(plain(status)).toEqual({
      kind: 'enum',
      name: 'Status',
      localName: 'Order_Status',
      fullName: 'acme.shop.v1.Order.Status',
      valueType: 'integer',
      values: [
        { name: 'STATUS_UNSPECIFIED', localName: 'STATUS_UNSPECIFIED', value: 0, alias: false },
        { name: 'STATUS_OPEN', localName: 'STATUS_OPEN', value: 1, alias: false, doc: 'Accepted by the shop.' },
        { name: 'STATUS_ACTIVE', localName: 'STATUS_ACTIVE', value: 1, alias: true },
      ],
      source: { file: 'shop/shop.proto', line: 30 },
    });
  });

  it('loads several services with streaming, idempotency and deprecation', () => {
    expect(plain(shop.services)).toEqual([
      {
        kind: 'service',
        name: 'Orders',
        localName: 'Orders',
        fullName: 'acme.shop.v1.Orders',
        protocol: 'rpc',
        operations: [
          {
            kind: 'rpc',
            name: 'PlaceOrder',
            localName: 'placeOrder',
            input: 'acme.shop.v1.Order',
            output: 'acme.shop.v1.Order',
            clientStreaming: false,
            serverStreaming: false,
            idempotency: 'IDEMPOTENT',
            deprecated: false,
            doc: 'Places an order.',
            source: { file: 'shop/shop.proto', line: 45 },
          },
          {
            kind: 'rpc',
            name: 'WatchOrders',
            localName: 'watchOrders',
            input: 'acme.shop.v1.Voucher',
            output: 'acme.shop.v1.Order',
            clientStreaming: false,
            serverStreaming: true,
            idempotency: 'NO_SIDE_EFFECTS',
            deprecated: false,
            source: { file: 'shop/shop.proto', line: 48 },
          },
          {
            kind: 'rpc',
            name: 'Upload',
            localName: 'upload',
            input: 'acme.shop.v1.Order.Item',
            output: 'acme.shop.v1.Voucher',
            clientStreaming: true,
            serverStreaming: false,
            deprecated: true,
            source: { file: 'shop/shop.proto', line: 51 },
          },
        ],
        source: { file: 'shop/shop.proto', line: 43 },
      },
      {
        kind: 'service',
        name: 'Admin',
        localName: 'Admin',
        fullName: 'acme.shop.v1.Admin',
        protocol: 'rpc',
        operations: [
          {
            kind: 'rpc',
            name: 'Delete',
            localName: 'delete$',
            input: 'acme.shop.v1.Date',
            output: 'acme.shop.v1.Date',
            clientStreaming: false,
            serverStreaming: false,
            deprecated: false,
            source: { file: 'shop/shop.proto', line: 55 },
          },
        ],
        source: { file: 'shop/shop.proto', line: 54 },
      },
    ]);
    expect(shop.services[0]!.operations[0]!.parent).toBe(shop.services[0]);
  });

  it('loads imports as dependencies and marks well-known types', () => {
    expect(shop.dependencies.map((d) => d.path)).toEqual(['google/protobuf/timestamp.proto', 'common/money.proto']);
    const timestamp = shop.dependencies[0]!.types[0] as MessageType;
    expect([
      timestamp.fullName,
      timestamp.wellKnown,
      timestamp.fields.map((f) => `${f.name}:${f.type.kind === 'scalar' ? f.type.scalar : ''}`),
    ]).toEqual(['google.protobuf.Timestamp', 'Timestamp', ['seconds:int64', 'nanos:int32']]);
    const money = shop.dependencies[1]!;
    expect(money.packageName).toBe('acme.common');
    expect((money.types[0] as MessageType).wellKnown).toBeUndefined();
  });
});

describe('proto2 files', () => {
  it('maps required and optional presence and defaults', () => {
    const account = message(legacy, 'legacy.Account');
    expect(legacy.format).toBe('proto2');
    expect(account.fields.map((f) => [f.name, f.presence, f.default])).toEqual([
      ['id', 'required', undefined],
      ['level', 'optional', 3],
      ['tags', 'implicit', undefined],
      ['extra', 'optional', undefined],
    ]);
  });

  it('loads groups as nested messages and warns about groups and extensions', () => {
    expect(legacy.types.map((t) => t.localName)).toEqual(['Account', 'Account_Extra']);
    expect(legacy.warnings.map((w) => [w.source.line, w.message])).toEqual([
      [14, "extension of 'Account' is ignored: extensions have no place in the generated types"],
      [8, "group 'Account.Extra' is loaded as a nested message; groups are deprecated, prefer a message field"],
    ]);
  });
});

describe('editions', () => {
  it('takes field presence from features', async () => {
    const dir = memorySchemas({
      'ed.proto': `edition = "2023";
package ed;
message M {
  string a = 1;
  string b = 2 [features.field_presence = IMPLICIT];
  repeated int32 c = 3;
  M d = 4;
}
`,
    });
    try {
      const [file] = await loadSchemas([dir], { root: dir });
      expect((file!.types[0] as MessageType).fields.map((f) => [f.name, f.presence])).toEqual([
        ['a', 'optional'],
        ['b', 'implicit'],
        ['c', 'implicit'],
        ['d', 'optional'],
      ]);
      expect(file!.warnings.map((w) => w.message)).toEqual([
        'edition "2023" is loaded like proto3 with field presence from its features; other features are ignored',
      ]);
    } finally {
      forgetSchemas(dir);
    }
  });
});

describe('proto errors', () => {
  const load = async (files: Record<string, string>, options: { importPaths?: string[] } = {}) => {
    const dir = memorySchemas(files);
    try {
      await loadSchemas([dir], { root: dir, ...options });
      return undefined;
    } catch (e) {
      if (!(e instanceof SchemaError)) throw e;
      return e.diagnostics.map((d) => ({ file: d.source.file, line: d.source.line, message: d.message }));
    } finally {
      forgetSchemas(dir);
    }
  };

  it('reports a missing import at its line', async () => {
    expect(await load({ 'a.proto': 'syntax = "proto3";\n\nimport "nowhere/b.proto";\nmessage A {}\n' })).toEqual([
      {
        file: 'a.proto',
        line: 3,
        message:
          'cannot find import "nowhere/b.proto": looked next to the file, in the root; add the folder that holds it as an import path (-I)',
      },
    ]);
  });

  it('reports syntax errors with the line protobufjs found', async () => {
    expect(await load({ 'a.proto': 'syntax = "proto3";\nmessage A {\n  string = 1;\n}\n' })).toEqual([
      { file: 'a.proto', line: 3, message: "cannot parse: a name is missing before '=': a field is `type name = number;`" },
    ]);
  });

  it('names the field whose type does not exist', async () => {
    expect(await load({ 'a.proto': 'syntax = "proto3";\npackage p;\nmessage A {\n  Missing b = 1;\n}\n' })).toEqual([
      {
        file: 'a.proto',
        line: 4,
        message: "field 'b' of 'A' has unknown type 'Missing': import the file that declares it, or fix the name",
      },
    ]);
  });

  it('resolves imports through import paths', async () => {
    const dir = memorySchemas({
      'api/a.proto': 'syntax = "proto3";\nimport "lib/b.proto";\nmessage A { B b = 1; }\n',
      'vendor/lib/b.proto': 'syntax = "proto3";\nmessage B {}\n',
    });
    try {
      const [a] = await loadSchemas([`${dir}/api/a.proto`], { root: dir, importPaths: [`${dir}/vendor`] });
      expect(a!.dependencies.map((d) => d.path)).toEqual(['vendor/lib/b.proto']);
    } finally {
      forgetSchemas(dir);
    }
  });
});
