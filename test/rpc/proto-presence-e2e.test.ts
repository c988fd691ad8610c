/**
 * Field presence and 64-bit map keys through real calls: generated server and client over
 * Connect (JSON and binary) and gRPC, and a grpc-js client that loads only the `.proto`
 * (@grpc/proto-loader, as democratic-csi builds its clients). A handler must see an unset
 * oneof member as absent, and no peer may receive two members of one oneof; `map<int64, …>`
 * keys are decimal strings on the server whatever the encoding; a field named `constructor`
 * travels like any other.
 */

import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { Hono } from 'hono';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protobufBinary } from '../../runtime/rpc/protobuf-binary.js';
import type { BinaryFormat } from '../../runtime/rpc/types.js';
import { generateInline } from '../support/generate-inline.js';
import { bindLoopback } from '../support/rpc-loopback.js';

const PROTO = `syntax = "proto3";
package pay.v1;
message Line { string sku = 1; }
message Order {
  string id = 1;
  oneof payment {
    string card = 2;
    Line voucher = 3;
  }
  map<int64, Line> by_id = 4;
  map<fixed64, string> by_code = 5;
  string constructor = 6;
}
service Shop {
  rpc Echo(Order) returns (Order);
}
`;

type Order = Record<string, unknown>;
interface ShopClient {
  echo(request?: Order): Promise<Order>;
  close?(): void;
}

let cleanup: () => void;
let app: Hono;
let routes: { shopConnectRoutes(impl: object, options?: object): Hono };
let grpcServer: grpc.Server;
let address: string;
let clients: {
  createShopConnectClient(options: { baseUrl: string; binary?: BinaryFormat; fetch?: typeof fetch }): ShopClient;
};
let grpcModule: {
  addShopServiceToGrpc(server: grpc.Server, impl: object): void;
  createShopGrpcClient(address: string): ShopClient & { close(): void };
};
/** The requests the handler received, as it received them. */
const seen: Order[] = [];

const impl = {
  async echo(order: Order) {
    seen.push(order);
    return order;
  },
};

beforeAll(async () => {
  const generated = await generateInline('proto-presence-e2e', { 'pay/v1/shop.proto': PROTO });
  cleanup = generated.cleanup;
  const server = await import(/* @vite-ignore */ join(generated.dir, 'pay/v1/shop.server.ts'));
  routes = server;
  clients = await import(/* @vite-ignore */ join(generated.dir, 'pay/v1/shop.client.ts'));
  app = new Hono();
  app.route('/', server.shopConnectRoutes(impl));
  grpcServer = new grpc.Server();
  grpcModule = await import(/* @vite-ignore */ join(generated.dir, 'pay/v1/shop.grpc.ts'));
  grpcModule.addShopServiceToGrpc(grpcServer, impl);
  address = await bindLoopback(grpcServer);
});

afterAll(() => {
  grpcServer?.forceShutdown();
  cleanup?.();
});

const order = {
  id: 'o-1',
  voucher: { sku: 'v' },
  byId: { '12345678901': { sku: 'x' }, '-3': { sku: 'y' }, '12345678': { sku: 'z' } },
  byCode: { '18446744073709551615': 'max' },
  constructor: 'c',
};

/** What the handler receives and the clients get back: exactly the order, no `card`. */
const expected = { id: 'o-1', voucher: { sku: 'v' }, byId: order.byId, byCode: order.byCode, constructor: 'c' };

describe('presence and map keys over real calls', () => {
  it('generated clients over Connect JSON, Connect binary and gRPC: the handler sees what was sent', async () => {
    const fetchApp: typeof fetch = async (input, init) => app.request(input instanceof Request ? input : String(input), init);
    const grpcClient = grpcModule.createShopGrpcClient(address);
    try {
      for (const client of [
        clients.createShopConnectClient({ baseUrl: 'http://shop', fetch: fetchApp }),
        clients.createShopConnectClient({ baseUrl: 'http://shop', binary: protobufBinary, fetch: fetchApp }),
        grpcClient,
      ]) {
        seen.length = 0;
        const echoed = await client.echo(order);
        expect(seen).toHaveLength(1);
        expect(seen[0]).toStrictEqual(expected);
        expect(echoed).toStrictEqual(expected);
      }
    } finally {
      grpcClient.close();
    }
  });

  it('Connect JSON carries one member of the oneof, and zero-valued members when set', async () => {
    const post = async (body: unknown) => {
      const response = await app.request('/pay.v1.Shop/Echo', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return [response.status, await response.text()];
    };
    expect(await post({ voucher: { sku: 'v' } })).toEqual([200, '{"voucher":{"sku":"v"}}']);
    expect(await post({ card: '' })).toEqual([200, '{"card":""}']);
    expect(await post({})).toEqual([200, '{}']);
    expect(await post({ by_id: { '007': {} } })).toEqual([200, '{"byId":{"7":{}}}']);
    const [status, text] = await post({ card: 'x', voucher: {} });
    expect([status, JSON.parse(text as string).code]).toEqual([400, 'invalid_argument']);
  });

  it('a grpc-js client that loads the .proto gets one oneof member, and sends int64 keys the handler reads as decimals', async () => {
    const definition = protoLoader.fromJSON(protobuf.parse(PROTO).root.toJSON(), { longs: String, oneofs: true, defaults: false });
    const pkg = grpc.loadPackageDefinition(definition) as unknown as { pay: { v1: { Shop: grpc.ServiceClientConstructor } } };
    const dynamic = new pkg.pay.v1.Shop(address, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
      Echo(request: object, callback: (error: grpc.ServiceError | null, response?: Record<string, unknown>) => void): void;
    };
    try {
      seen.length = 0;
      const response = await new Promise<Record<string, unknown>>((resolve, reject) =>
        // `constructor` is given: protobufjs 7 (proto-loader's) would send the inherited `Object` function's text.
        dynamic.Echo({ id: 'p', voucher: { sku: 'v' }, byId: { '9007199254740993': { sku: 'big' } }, constructor: 'k' }, (error, r) =>
          error ? reject(error) : resolve(r!),
        ),
      );
      expect(seen[0]).toStrictEqual({
        id: 'p',
        voucher: { sku: 'v' },
        byId: { '9007199254740993': { sku: 'big' } },
        byCode: {},
        constructor: 'k',
      });
      // `oneofs: true` names the member that came over the wire; before, `card: ""` came too, and won.
      expect(response['payment']).toBe('voucher');
      expect(response['card']).toBeUndefined();
      expect(response['voucher']).toEqual({ sku: 'v' });
    } finally {
      dynamic.close();
    }
  });
});

describe('an answer the codec refuses', () => {
  it("is the server's fault: internal, and reported to onError, in JSON and binary", async () => {
    const reported: unknown[] = [];
    const bad = new Hono().route(
      '/',
      routes.shopConnectRoutes(
        {
          async echo() {
            return { id: 'x', card: '4111', voucher: { sku: 'v' } };
          },
        },
        { onError: (error: unknown) => reported.push(error) },
      ),
    );
    for (const contentType of ['application/json', 'application/proto']) {
      const body = contentType === 'application/json' ? '{}' : new Uint8Array(0);
      const response = await bad.request('/pay.v1.Shop/Echo', { method: 'POST', headers: { 'content-type': contentType }, body });
      expect([response.status, await response.json()]).toEqual([
        500,
        { code: 'internal', message: 'the answer of pay.v1.Shop/Echo cannot be encoded' },
      ]);
    }
    expect(reported).toHaveLength(2);
  });
});
