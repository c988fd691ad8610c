/**
 * What the proto-specific parts of the generator print, checked where a user would notice:
 * RPCs named like members the generated classes and clients already have (`Api`, `Options`,
 * `Close`, `Constructor`, `Then`) still type-check and are served and called under their wire
 * names; streaming stubs and generated prose read as written by hand; the codec descriptor
 * keeps proto2 groups and defaults and custom JSON names, byte for byte as protobufjs reads the
 * `.proto` itself.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withArticle } from '../../generator/emitters/rpc/service-view.js';
import { createRestRouter } from '../../runtime/rest/index.js';
import { protobufBinary } from '../../runtime/rpc/protobuf-binary.js';
import type { MessageCodec } from '../../runtime/rpc/types.js';
import { generateInline, REPO_ROOT } from '../support/generate-inline.js';
import { bindLoopback } from '../support/rpc-loopback.js';
import { typeCheck } from '../support/tsc-check.js';

const NAMES = `syntax = "proto3";
package names.v1;
message Req { string id = 1; string constructor = 2; }
message Res { string id = 1; string via = 2; }
service Api {
  rpc Api(Req) returns (Res);
  rpc Options(Req) returns (Res);
  rpc Constructor(Req) returns (Res);
  rpc Close(Req) returns (Res);
  rpc Then(Req) returns (Res);
  rpc ToString(Req) returns (Res);
  rpc Delete(Req) returns (Res);
  rpc Watch(Req) returns (stream Res);
}
service Lower { rpc close(Req) returns (Res); rpc getChannel(Req) returns (Res); }
service OrderService { rpc Get(Req) returns (Res); }
service Upload { rpc Get(Req) returns (Res); }
service HTTPProxy { rpc Get(Req) returns (Res); }
`;

const JSON_NAMES = `syntax = "proto3";
package j;
message Named { string json_named = 1 [json_name = "customJson"]; string plain_name = 2; }
`;

const LEGACY_PATH = join(REPO_ROOT, 'test/fixtures/schemas/proto/legacy/legacy.proto');

const UNARY = ['api$', 'options$', 'constructor$', 'close$', 'then$', 'toString$', 'delete$'] as const;

type Res = { id: string; via: string };
type Call = (request: { id: string }) => Promise<Res>;

let dir: string;
let cleanup: () => void;
let grpcServer: grpc.Server;
let address: string;
let server: Record<string, unknown>;
let grpcModule: Record<string, unknown>;
let codec: Record<string, unknown>;

/** Answers every unary RPC with its own local name, so a test sees which method was called. */
const impl = Object.fromEntries(UNARY.map((name) => [name, async (request: { id: string }) => ({ id: request.id, via: name })]));

beforeAll(async () => {
  const generated = await generateInline('proto-rpc-output', {
    'names/v1/names.proto': NAMES,
    'j/named.proto': JSON_NAMES,
    'legacy/legacy.proto': readFileSync(LEGACY_PATH, 'utf8'),
  });
  dir = generated.dir;
  cleanup = generated.cleanup;
  server = await import(/* @vite-ignore */ join(dir, 'names/v1/names.server.ts'));
  codec = await import(/* @vite-ignore */ join(dir, 'names/v1/names.codec.ts'));
  grpcModule = await import(/* @vite-ignore */ join(dir, 'names/v1/names.grpc.ts'));
  grpcServer = new grpc.Server();
  (grpcModule['addApiServiceToGrpc'] as (s: grpc.Server, i: object) => void)(grpcServer, impl);
  (grpcModule['addLowerServiceToGrpc'] as (s: grpc.Server, i: object) => void)(grpcServer, {
    close$: async (request: { id: string }) => ({ id: request.id, via: 'close$' }),
    getChannel$: async (request: { id: string }) => ({ id: request.id, via: 'getChannel$' }),
  });
  address = await bindLoopback(grpcServer);
});

afterAll(() => {
  grpcServer?.forceShutdown();
  cleanup?.();
});

describe('RPCs named like generated members', () => {
  it('get local names with a `$` suffix, in the descriptor, the interfaces and the routes class', () => {
    const descriptor = codec['ApiServiceDescriptor'] as { methods: Record<string, { name: string; path: string }> };
    expect(Object.entries(descriptor.methods).map(([key, m]) => [key, m.name, m.path])).toEqual([
      ['api$', 'Api', '/names.v1.Api/Api'],
      ['options$', 'Options', '/names.v1.Api/Options'],
      ['constructor$', 'Constructor', '/names.v1.Api/Constructor'],
      ['close$', 'Close', '/names.v1.Api/Close'],
      ['then$', 'Then', '/names.v1.Api/Then'],
      ['toString$', 'ToString', '/names.v1.Api/ToString'],
      ['delete$', 'Delete', '/names.v1.Api/Delete'],
      ['watch', 'Watch', '/names.v1.Api/Watch'],
    ]);
    const routes = readFileSync(join(dir, 'names/v1/names.server.ts'), 'utf8');
    expect(routes).toContain('    private readonly api: ApiService,\n    private readonly options: ConnectRoutesOptions = {},\n');
    expect(routes).toContain('  options$(\n');
    expect(routes).toContain('(message, rpc) => this.api.options$(message, rpc));');
  });

  it('type-check, with a handler class and calls a user would write', async () => {
    writeFileSync(
      join(dir, 'names/v1/user.ts'),
      `import type { ApiService } from './names.server.js';
import { protobufBinary } from '../../../../runtime/rpc/protobuf-binary.js';
import { createApiGrpcClient } from './names.grpc.js';
import { ReqCodec } from './names.codec.js';
import type { Req, Res } from './names.types.js';

export class Handler implements ApiService {
  constructor(private readonly prefix: string) {}
  async api$(request: Req): Promise<Res> { return { id: this.prefix + request.id, via: 'api$' }; }
  async options$(request: Req): Promise<Res> { return { id: request.id, via: 'options$' }; }
  async constructor$(request: Req): Promise<Res> { return { id: request.id, via: 'constructor$' }; }
  async close$(request: Req): Promise<Res> { return { id: request.id, via: 'close$' }; }
  async then$(request: Req): Promise<Res> { return { id: request.id, via: 'then$' }; }
  async toString$(request: Req): Promise<Res> { return { id: request.id, via: 'toString$' }; }
  async delete$(request: Req): Promise<Res> { return { id: request.id, via: 'delete$' }; }
  async *watch(request: Req): AsyncIterable<Res> { yield { id: request.id, via: 'watch' }; }
}

export async function use(): Promise<string> {
  const client = createApiGrpcClient('127.0.0.1:1');
  // \`Req\` has a field named \`constructor\`: a literal without it is still a request.
  const res = await client.options$({ id: 'a' });
  client.close();
  return res.via + protobufBinary.encode(ReqCodec, ReqCodec.create({ id: 'a' })).length;
}
`,
    );
    expect(await typeCheck(dir)).toBe('');
  });

  it('are served and called under their wire names over gRPC, and close() still closes the client', async () => {
    const grpcClient = (grpcModule['createApiGrpcClient'] as (a: string) => Record<string, Call> & { close(): void })(address);
    try {
      for (const name of UNARY) expect(await grpcClient[name]!({ id: 'x' })).toEqual({ id: 'x', via: name });
    } finally {
      grpcClient.close();
    }
    // close() closed the channel rather than calling the RPC named Close.
    await expect(grpcClient['close$']!({ id: 'x' })).rejects.toThrow(/Channel has been shut down/);

    // A peer that knows only the .proto: the method names on the wire are the declared ones.
    const definition = protoLoader.fromJSON(protobuf.parse(NAMES).root.toJSON(), {});
    const pkg = grpc.loadPackageDefinition(definition) as unknown as { names: { v1: { Api: grpc.ServiceClientConstructor } } };
    const dynamic = new pkg.names.v1.Api(address, grpc.credentials.createInsecure()) as unknown as Record<
      string,
      (r: object, cb: (e: Error | null, r?: Res) => void) => void
    > &
      grpc.Client;
    try {
      const options = await new Promise<Res | undefined>((resolve, reject) =>
        dynamic['Options']!({ id: 'y' }, (e, r) => (e ? reject(e) : resolve(r))),
      );
      expect(options).toMatchObject({ id: 'y', via: 'options$' });
    } finally {
      // proto-loader also names methods in lower camel case, so on this client `close` is the RPC.
      grpc.Client.prototype.close.call(dynamic);
    }
  });

  it('a lower-case rpc named like a grpc-js client method leaves that method alone', async () => {
    // The generated client closes its grpc-js client, whose `close` an alias `close` would replace.
    const lower = (grpcModule['createLowerGrpcClient'] as (a: string) => Record<string, Call> & { close(): void })(address);
    try {
      expect(await lower['close$']!({ id: 'l' })).toEqual({ id: 'l', via: 'close$' });
      expect(await lower['getChannel$']!({ id: 'g' })).toEqual({ id: 'g', via: 'getChannel$' });
    } finally {
      lower.close();
    }
    await expect(lower['close$']!({ id: 'x' })).rejects.toThrow(/Channel has been shut down/);
  });

  it('are served under their wire names by the Connect routes class', async () => {
    const Routes = server['ApiRoutes'] as new (api: object) => object;
    const app = createRestRouter().register(new Routes(impl)).app();
    for (const [method, via] of [
      ['Options', 'options$'],
      ['Api', 'api$'],
      ['Constructor', 'constructor$'],
      ['Then', 'then$'],
    ]) {
      const response = await app.request(`/names.v1.Api/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"id":"z"}',
      });
      expect([response.status, await response.json()]).toEqual([200, { id: 'z', via }]);
    }
  });
});

describe('generated prose and layout', () => {
  it('prints streaming routes through connectStream, without an empty parameter list across lines', () => {
    const routes = readFileSync(join(dir, 'names/v1/names.server.ts'), 'utf8');
    expect(routes).toContain(
      "  @POST\n  @Path('/Watch')\n  watch(\n    @Context() ctx: Context,\n  ): Response {\n" +
        '    const method = ApiServiceDescriptor.methods.watch;\n' +
        '    return connectStream(method, ctx, this.options, (input, rpc) => this.api.watch(input, rpc));\n  }\n',
    );
    expect(routes).not.toMatch(/\(\n\s*\):/);
  });

  it('puts "an" before names read with a vowel sound', () => {
    const routes = readFileSync(join(dir, 'names/v1/names.server.ts'), 'utf8');
    const clients = readFileSync(join(dir, 'names/v1/names.client.ts'), 'utf8');
    const grpc = readFileSync(join(dir, 'names/v1/names.grpc.ts'), 'utf8');
    expect(routes).toContain(' * Binds an ApiService to Connect routes');
    expect(routes).toContain(' * Serves an OrderService over the Connect protocol');
    expect(grpc).toContain(' * Adds an UploadService to a grpc-js server');
    expect(routes).toContain(' * Serves an HTTPProxyService over the Connect protocol');
    expect(clients).toContain(' * An OrderService client over the Connect protocol');
    expect(grpc).toContain(' * An HTTPProxy client over gRPC;');
    expect(`${routes}${clients}${grpc}`).not.toMatch(/\ba [AEIOU]/);
  });

  it.each([
    ['SystemService', 'a SystemService'],
    ['OrderService', 'an OrderService'],
    ['UserService', 'a UserService'],
    ['UnitService', 'a UnitService'],
    ['UpdateService', 'an UpdateService'],
    ['EuroService', 'a EuroService'],
    ['OneService', 'a OneService'],
    ['HTTPProxy', 'an HTTPProxy'],
    ['SMBShares', 'an SMBShares'],
    ['URLShortener', 'a URLShortener'],
    ['HourService', 'an HourService'],
  ])('withArticle(%s)', (name, expected) => {
    expect(withArticle(name)).toBe(expected);
  });
});

describe('the codec descriptor', () => {
  it('writes a custom json_name as the JSON key, whatever the property is called', async () => {
    const { NamedCodec } = await import(/* @vite-ignore */ join(dir, 'j/named.codec.ts'));
    expect(NamedCodec.toJson({ customJson: 'a', plainName: 'b' })).toEqual({ customJson: 'a', plainName: 'b' });
    expect(NamedCodec.fromJson({ customJson: 'a' })).toEqual({ customJson: 'a', plainName: '' });
    expect(NamedCodec.fromJson({ json_named: 'a' })).toEqual({ customJson: 'a', plainName: '' });
  });

  it('keeps proto2 groups, defaults and required fields (legacy fixture), as protobufjs reads the .proto', async () => {
    const { AccountCodec } = (await import(/* @vite-ignore */ join(dir, 'legacy/legacy.codec.ts'))) as {
      AccountCodec: MessageCodec<{ id?: string; tags: string[]; level?: number }>;
    };
    const reference = protobuf.loadSync(LEGACY_PATH).lookupType('legacy.Account');
    const message = { id: 'a', tags: ['t'], extra: { note: 'n' } };
    expect(protobufBinary.encode(AccountCodec, message)).toEqual(reference.encode(message).finish());
    expect(protobufBinary.decode(AccountCodec, reference.encode(message).finish())).toStrictEqual(message);
    // An unset `optional int32 level = 2 [default = 3]` is absent; its default is on the codec.
    expect('level' in protobufBinary.decode(AccountCodec, reference.encode({ id: 'a' }).finish())).toBe(false);
    expect(AccountCodec.defaults.level).toBe(3);
    expect(() => protobufBinary.encode(AccountCodec, { tags: [] })).toThrow(
      /^cannot encode message legacy\.Account to binary: legacy\.Account\.id: required field is not set$/,
    );
  });
});
