/**
 * The RPC emitters on small inline protos: exact generated lines of
 * `X.codec.ts`, `X.server.ts` and `X.client.ts`.
 */
import { describe, expect, it } from 'vitest';
import { clientEmitter } from '../../generator/emitters/client.js';
import { rpcCodecEmitter } from '../../generator/emitters/rpc/codec.js';
import { grpcEmitter } from '../../generator/emitters/rpc/grpc.js';
import { serverEmitter } from '../../generator/emitters/server.js';
import { emitInline } from '../support/generate-inline.js';

const PROTO = `syntax = "proto3";
package demo.v1;

import "google/protobuf/timestamp.proto";

enum Color {
  COLOR_UNSPECIFIED = 0;
  COLOR_RED = 1;
}

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

// Paint shop.
service Shop {
  // Mixes one paint.
  rpc Mix(Paint) returns (Paint);
  rpc Watch(ListPaintsRequest) returns (stream Paint);
}
`;

async function generate(): Promise<Map<string, string>> {
  return emitInline({ 'demo/v1/shop.proto': PROTO }, [rpcCodecEmitter, serverEmitter, clientEmitter, grpcEmitter]);
}

describe('rpc-codec emitter', () => {
  it('embeds only the reachable types, sorted, with absolute type names', async () => {
    const codec = (await generate()).get('demo/v1/shop.codec.ts')!;
    expect(codec).toContain(`const descriptor = {
  nested: {
    demo: {
      nested: {
        v1: {
          nested: {
            Color: { values: { COLOR_UNSPECIFIED: 0, COLOR_RED: 1 } },
            ListPaintsRequest: { fields: { prefix: { type: 'string', id: 1 } } },
            Paint: {
              oneofs: { _liters: { oneof: ['liters'] } },
              fields: {
                displayName: { type: 'string', id: 1, protoName: 'display_name' },
                color: { type: '.demo.v1.Color', id: 2 },
                liters: { type: 'int64', id: 3, options: { proto3_optional: true } },
                mixedAt: { type: '.google.protobuf.Timestamp', id: 4, protoName: 'mixed_at' },
                tags: { rule: 'repeated', type: 'string', id: 5 },
                stock: { keyType: 'string', type: 'int32', id: 6 },
                batch: { type: '.demo.v1.Paint.Batch', id: 7 },
              },
              nested: { Batch: { fields: { id: { type: 'uint64', id: 1 } } } },
            },
          },
        },
      },
    },
    google: {
      nested: {
        protobuf: {
          nested: {
            Timestamp: {
              fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } },
            },
          },
        },
      },
    },
  },
};`);
  });

  it('exports a codec per message and a typed service descriptor', async () => {
    const codec = (await generate()).get('demo/v1/shop.codec.ts')!;
    const lines = codec.split('\n');
    expect(lines).toContain("import { createCodecRegistry } from '../../../runtime/entries/connect.js';");
    expect(codec).toContain(
      "import type {\n  MessageCodec,\n  RpcMethodDescriptor,\n  RpcServiceDescriptor,\n} from '../../../runtime/entries/connect.js';",
    );
    expect(lines).toContain("export const PaintCodec: MessageCodec<Paint> = registry.codec('demo.v1.Paint');");
    expect(lines).toContain("export const Paint_BatchCodec: MessageCodec<Paint_Batch> = registry.codec('demo.v1.Paint.Batch');");
    expect(codec).toContain(`export type ShopMethods = {
  readonly mix: RpcMethodDescriptor<Paint, Paint>;
  readonly watch: RpcMethodDescriptor<ListPaintsRequest, Paint> & { readonly serverStreaming: true };
};`);
    expect(codec).toContain(`export const ShopServiceDescriptor: RpcServiceDescriptor<ShopMethods> = {
  typeName: 'demo.v1.Shop',
  methods: {
    /**
     * Mixes one paint.
     *
     * @generated from rpc demo.v1.Shop.Mix
     */
    mix: {
      name: 'Mix',
      localName: 'mix',
      path: '/demo.v1.Shop/Mix',
      clientStreaming: false,
      serverStreaming: false,
      input: PaintCodec,
      output: PaintCodec,
    },`);
  });
});

describe('server emitter (RPC)', () => {
  it('prints the service interface with streaming methods as AsyncIterable, and both binders', async () => {
    const server = (await generate()).get('demo/v1/shop.server.ts')!;
    expect(server).toContain(`/**
 * Paint shop.
 *
 * @generated from service demo.v1.Shop
 */
export interface ShopService {
  /**
   * Mixes one paint.
   *
   * @generated from rpc demo.v1.Shop.Mix
   */
  mix(request: Paint, ctx: RpcContext): Promise<Paint>;
  /**
   * @generated from rpc demo.v1.Shop.Watch
   */
  watch(request: ListPaintsRequest, ctx: RpcContext): AsyncIterable<Paint>;
}`);
    expect(server).toContain(`export function shopConnectRoutes(impl: ShopService, options?: ConnectRoutesOptions): ConnectApp {
  return connectRoutes(ShopServiceDescriptor, impl, options);
}`);
    expect(server.split('\n')).toContain("import type { ListPaintsRequest, Paint } from './shop.types.js';");
    // gRPC lives in its own file: loading the server stubs never loads grpc-js.
    expect(server).not.toContain('Grpc');
  });
});

describe('grpc emitter', () => {
  it('prints the gRPC binder and client in X.grpc.ts, the only file importing loom/grpc', async () => {
    const files = await generate();
    const grpc = files.get('demo/v1/shop.grpc.ts')!;
    expect(
      grpc,
    ).toContain(`export function addShopServiceToGrpc(server: GrpcServer, impl: ShopService, options?: GrpcServiceOptions): void {
  addGrpcService(server, ShopServiceDescriptor, impl, options);
}`);
    expect(
      grpc,
    ).toContain(`export function createShopGrpcClient(address: string, options?: GrpcClientOptions): ShopClient & { close(): void } {
  return createGrpcClient<ShopMethods>(ShopServiceDescriptor, address, options);
}`);
    expect(grpc.split('\n')).toEqual(
      expect.arrayContaining([
        "import { addGrpcService, createGrpcClient } from '../../../runtime/entries/grpc.js';",
        "import type { ShopClient } from './shop.client.js';",
        "import type { ShopService } from './shop.server.js';",
      ]),
    );
    const others = [...files].filter(([path]) => path !== 'demo/v1/shop.grpc.ts');
    for (const [path, text] of others) expect(text, path).not.toContain('entries/grpc.js');
  });
});

describe('client emitter (RPC)', () => {
  it('prints the client interface and the Connect factory', async () => {
    const client = (await generate()).get('demo/v1/shop.client.ts')!;
    const lines = client.split('\n');
    expect(lines).toContain('  mix(request?: Partial<Paint>, options?: RpcCallOptions): Promise<Paint>;');
    expect(lines).toContain('  watch(request?: Partial<ListPaintsRequest>, options?: RpcCallOptions): AsyncIterable<Paint>;');
    expect(client).toContain(`export function createShopConnectClient(options: ConnectClientOptions): ShopClient {
  return createConnectClient(ShopServiceDescriptor, options);
}`);
    expect(client).not.toContain('Grpc');
  });

  it('is deterministic', async () => {
    const [a, b] = await Promise.all([generate(), generate()]);
    expect([...a.entries()]).toEqual([...b.entries()]);
  });
});
