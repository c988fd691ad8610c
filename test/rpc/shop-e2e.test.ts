/**
 * End to end on a proto with int64, optional, well-known, repeated, map, nested
 * and streaming members: generated code served over Connect and gRPC, all four
 * kinds of call on both.
 */

import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestRouter } from '../../runtime/rest/index.js';
import { RpcError } from '../../runtime/rpc/errors.js';
import { protobufBinary } from '../../runtime/rpc/protobuf-binary.js';
import type { BinaryFormat, RpcContext } from '../../runtime/rpc/types.js';
import { generateInline } from '../support/generate-inline.js';
import { typeCheck } from '../support/generate-system.js';
import { bindLoopback } from '../support/rpc-loopback.js';

const PROTO = `syntax = "proto3";
package demo.v1;
import "google/protobuf/timestamp.proto";
enum Color { COLOR_UNSPECIFIED = 0; COLOR_RED = 1; }
message Paint {
  string display_name = 1;
  Color color = 2;
  optional int64 liters = 3;
  google.protobuf.Timestamp mixed_at = 4;
  repeated string tags = 5;
  map<string, int32> stock = 6;
  message Batch { uint64 id = 1; }
  Batch batch = 7;
}
message ListPaintsRequest { string prefix = 1; }
service Shop {
  rpc Mix(Paint) returns (Paint);
  rpc Watch(ListPaintsRequest) returns (stream Paint);
  rpc Upload(stream Paint) returns (Paint);
  rpc Chat(stream Paint) returns (stream Paint);
  rpc Forget(Paint) returns (Paint);
}
`;

type Paint = Record<string, unknown>;
interface ShopClient {
  mix(request?: Paint): Promise<Paint>;
  watch(request?: Paint): AsyncIterable<Paint>;
  upload(requests: AsyncIterable<Paint>): Promise<Paint>;
  chat(requests: AsyncIterable<Paint>): AsyncIterable<Paint>;
  forget(request?: Paint): Promise<Paint>;
  close?(): void;
}

let dir: string;
let cleanup: () => void;
let app: Hono;
let grpcServer: grpc.Server;
let grpcAddress: string;
let serverModule: { ShopRoutes: new (impl: object) => object };
let clientModule: {
  createShopConnectClient(options: { baseUrl: string; binary?: BinaryFormat; fetch?: typeof fetch }): ShopClient;
};
let grpcModule: {
  addShopServiceToGrpc(server: grpc.Server, impl: object): void;
  createShopGrpcClient(address: string): ShopClient & { close(): void };
};

const impl = {
  async mix(paint: Paint, ctx: RpcContext) {
    return { ...paint, tags: [...(paint['tags'] as string[]), ctx.protocol] };
  },
  async *watch(request: { prefix: string }) {
    for (let i = 1; i <= 3; i++) yield { displayName: `${request.prefix}-${i}`, color: 1, tags: [], stock: {} };
    throw new RpcError('resource_exhausted', 'no more paint');
  },
  async upload(paints: AsyncIterable<{ displayName: string }>) {
    const names: string[] = [];
    for await (const p of paints) names.push(p.displayName);
    return { displayName: names.join('+'), color: 0, tags: [], stock: {} };
  },
  async *chat(paints: AsyncIterable<{ displayName: string }>) {
    for await (const p of paints) {
      if (p.displayName === 'stop') throw new RpcError('aborted', 'stopped by request');
      yield { displayName: `${p.displayName}!`, color: 0, tags: [], stock: {} };
    }
  },
  // `forget` is left out on purpose: it must answer UNIMPLEMENTED.
};

async function* paints(...names: string[]) {
  for (const displayName of names) yield { displayName };
}

/** A server stream, a client stream and a bidirectional stream through `client`, errors included. */
async function expectStreams(client: ShopClient): Promise<void> {
  const names: unknown[] = [];
  await expect(
    (async () => {
      for await (const p of client.watch({ prefix: 'red' })) names.push(p['displayName']);
    })(),
  ).rejects.toMatchObject({ name: 'RpcError', code: 'resource_exhausted', message: 'no more paint' });
  expect(names).toEqual(['red-1', 'red-2', 'red-3']);
  expect(await client.upload(paints('ochre', 'umber', 'sienna'))).toMatchObject({ displayName: 'ochre+umber+sienna' });
  const replies: unknown[] = [];
  for await (const p of client.chat(paints('a', 'b'))) replies.push(p['displayName']);
  expect(replies).toEqual(['a!', 'b!']);
  const partial: unknown[] = [];
  await expect(
    (async () => {
      for await (const p of client.chat(paints('c', 'stop', 'd'))) partial.push(p['displayName']);
    })(),
  ).rejects.toMatchObject({ code: 'aborted', message: 'stopped by request' });
  expect(partial).toEqual(['c!']);
}

beforeAll(async () => {
  const generated = await generateInline('shop-e2e', { 'demo/v1/shop.proto': PROTO });
  dir = generated.dir;
  cleanup = generated.cleanup;
  const server = await import(/* @vite-ignore */ join(dir, 'demo/v1/shop.server.ts'));
  serverModule = server;
  clientModule = await import(/* @vite-ignore */ join(dir, 'demo/v1/shop.client.ts'));
  app = new Hono();
  app.route('/', server.shopConnectRoutes(impl));
  grpcServer = new grpc.Server();
  grpcModule = await import(/* @vite-ignore */ join(dir, 'demo/v1/shop.grpc.ts'));
  grpcModule.addShopServiceToGrpc(grpcServer, impl);
  grpcAddress = await bindLoopback(grpcServer);
});

afterAll(() => {
  grpcServer?.forceShutdown();
  cleanup?.();
});

const paint = {
  displayName: 'Ochre',
  color: 1,
  liters: '9007199254740993',
  mixedAt: '2024-05-06T07:08:09.250Z',
  tags: ['warm'],
  stock: { berlin: 3 },
  batch: { id: '18446744073709551615' },
};

describe('shop over Connect and gRPC', () => {
  it('type-checks', async () => {
    expect(await typeCheck(dir)).toBe('');
  });

  it('round-trips int64, optional, Timestamp, map and nested messages over every encoding', async () => {
    const fetchApp: typeof fetch = async (input, init) => app.request(input instanceof Request ? input : String(input), init);
    for (const binary of [undefined, protobufBinary]) {
      const client = clientModule.createShopConnectClient({ baseUrl: 'http://shop', binary, fetch: fetchApp });
      expect(await client.mix(paint)).toEqual({ ...paint, tags: ['warm', 'connect'] });
    }
    const grpcClient = grpcModule.createShopGrpcClient(grpcAddress);
    try {
      expect(await grpcClient.mix(paint)).toEqual({ ...paint, tags: ['warm', 'grpc'] });
      // `optional` keeps an explicit zero; absent stays absent.
      expect(await grpcClient.mix({ liters: '0' })).toEqual({ displayName: '', color: 0, liters: '0', tags: ['grpc'], stock: {} });
    } finally {
      grpcClient.close();
    }
  });

  it('writes canonical JSON for well-known types and 64-bit integers', async () => {
    const response = await app.request('/demo.v1.Shop/Mix', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ display_name: 'Ochre', color: 'COLOR_RED', liters: 5, mixed_at: '2024-05-06T07:08:09Z', batch: { id: '7' } }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(
      '{"displayName":"Ochre","color":"COLOR_RED","liters":"5","mixedAt":"2024-05-06T07:08:09Z","tags":["connect"],"batch":{"id":"7"}}',
    );
    const bad = await app.request('/demo.v1.Shop/Mix', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mixedAt: 'yesterday' }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).code).toBe('invalid_argument');
  });

  it('streams every kind over gRPC, and ends a stream with the thrown status', async () => {
    const client = grpcModule.createShopGrpcClient(grpcAddress);
    try {
      await expectStreams(client);
    } finally {
      client.close();
    }
  });

  it('cancels gRPC calls of every kind whose signal aborted before the call', async () => {
    type WithOptions = {
      mix(request: Paint, options: { signal: AbortSignal }): Promise<Paint>;
      watch(request: Paint, options: { signal: AbortSignal }): AsyncIterable<Paint>;
      chat(requests: AsyncIterable<Paint>, options: { signal: AbortSignal }): AsyncIterable<Paint>;
    };
    const client = grpcModule.createShopGrpcClient(grpcAddress);
    const withOptions = client as unknown as WithOptions;
    const signal = AbortSignal.abort();
    const received: unknown[] = [];
    try {
      await expect(withOptions.mix(paint, { signal })).rejects.toMatchObject({ name: 'RpcError', code: 'canceled' });
      await expect(
        (async () => {
          for await (const p of withOptions.watch({ prefix: 'red' }, { signal })) received.push(p);
        })(),
      ).rejects.toMatchObject({ name: 'RpcError', code: 'canceled' });
      await expect(
        (async () => {
          for await (const p of withOptions.chat(paints('a', 'b'), { signal })) received.push(p);
        })(),
      ).rejects.toMatchObject({ name: 'RpcError', code: 'canceled' });
      expect(received).toEqual([]);
    } finally {
      client.close();
    }
  });

  it('answers methods the implementation lacks with UNIMPLEMENTED on gRPC and Connect', async () => {
    const client = grpcModule.createShopGrpcClient(grpcAddress);
    try {
      await expect(client.forget({})).rejects.toMatchObject({ code: 'unimplemented', message: 'demo.v1.Shop/Forget is not implemented' });
    } finally {
      client.close();
    }
    const response = await app.request('/demo.v1.Shop/Forget', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(501);
    expect(await response.json()).toEqual({ code: 'unimplemented', message: 'demo.v1.Shop/Forget is not implemented' });
  });

  it('streams every kind over Connect, in JSON and binary, and ends a stream with the thrown status', async () => {
    const fetchApp: typeof fetch = async (input, init) => app.request(input instanceof Request ? input : String(input), init);
    for (const binary of [undefined, protobufBinary]) {
      await expectStreams(clientModule.createShopConnectClient({ baseUrl: 'http://shop', binary, fetch: fetchApp }));
    }
  });

  it('cancels Connect streams whose signal aborted before the call', async () => {
    const fetchApp: typeof fetch = async (input, init) => app.request(input instanceof Request ? input : String(input), init);
    const client = clientModule.createShopConnectClient({ baseUrl: 'http://shop', fetch: fetchApp }) as unknown as {
      watch(request: Paint, options: { signal: AbortSignal }): AsyncIterable<Paint>;
      upload(requests: AsyncIterable<Paint>, options: { signal: AbortSignal }): Promise<Paint>;
    };
    const signal = AbortSignal.abort();
    const received: unknown[] = [];
    await expect(
      (async () => {
        for await (const p of client.watch({ prefix: 'red' }, { signal })) received.push(p);
      })(),
    ).rejects.toMatchObject({ name: 'RpcError', code: 'canceled' });
    await expect(client.upload(paints('a'), { signal })).rejects.toMatchObject({ name: 'RpcError', code: 'canceled' });
    expect(received).toEqual([]);
  });

  it('serves the same through the generated routes class on the decorator runtime', async () => {
    const routes = createRestRouter().register(new serverModule.ShopRoutes(impl)).app();
    const fetchRoutes: typeof fetch = async (input, init) => routes.request(input instanceof Request ? input : String(input), init);
    for (const binary of [undefined, protobufBinary]) {
      const client = clientModule.createShopConnectClient({ baseUrl: 'http://shop', binary, fetch: fetchRoutes });
      expect(await client.mix(paint)).toEqual({ ...paint, tags: ['warm', 'connect'] });
    }
    for (const binary of [undefined, protobufBinary]) {
      await expectStreams(clientModule.createShopConnectClient({ baseUrl: 'http://shop', binary, fetch: fetchRoutes }));
    }
    // A streaming method speaks Connect's stream types only.
    const response = await routes.request('/demo.v1.Shop/Watch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(415);
    expect(response.headers.get('accept-post')).toBe('application/connect+json, application/connect+proto');
    expect((await response.json()).code).toBe('invalid_argument');
  });
});
