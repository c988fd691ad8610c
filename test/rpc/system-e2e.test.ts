/**
 * End to end: code generated from system.proto, served over Connect (Hono on
 * @hono/node-server) and gRPC (grpc-js), called through the generated clients,
 * plain fetch, and an independent proto-loader client of the csi-proxy proto.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ServerType } from '@hono/node-server';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectClientOptions } from '../../runtime/rpc/connect-client.js';
import type { ConnectApp, ConnectRoutesOptions } from '../../runtime/rpc/connect-server.js';
import { RpcError } from '../../runtime/rpc/errors.js';
import type { GrpcClientOptions } from '../../runtime/rpc/grpc-client.js';
import type { GrpcServiceOptions } from '../../runtime/rpc/grpc-server.js';
import { protobufBinary } from '../../runtime/rpc/protobuf-binary.js';
import type { RpcCallOptions, RpcContext } from '../../runtime/rpc/types.js';
import { generateSystem, typeCheck } from '../support/generate-system.js';
import { bindLoopback } from '../support/rpc-loopback.js';

const CSI_PROXY_PROTO = fileURLToPath(new URL('../fixtures/reference/csi-proxy-system-v1alpha1.proto', import.meta.url));

type Client = Record<string, (request?: object, options?: RpcCallOptions) => Promise<unknown>>;

/** The generated modules as this test uses them (they are imported from a fresh folder at run time). */
interface Generated {
  server: {
    systemConnectRoutes(impl: object, options?: ConnectRoutesOptions): ConnectApp;
  };
  client: {
    createSystemConnectClient(options: ConnectClientOptions): Client;
  };
  grpc: {
    addSystemServiceToGrpc(server: grpc.Server, impl: object, options?: GrpcServiceOptions): void;
    createSystemGrpcClient(address: string, options?: GrpcClientOptions): Client & { close(): void };
  };
}

/** An in-memory System: alpha runs, boot is all zero values, slow never answers before its deadline. */
function createHandler() {
  const services = new Map([
    ['alpha', { displayName: 'Alpha', startType: 2, status: 4 }],
    ['boot', { displayName: 'Boot', startType: 0, status: 0 }],
  ]);
  const seen: { protocol: string; traceId: string | null }[] = [];
  /** Protocols whose slow call saw its signal abort. */
  const aborted: string[] = [];
  const hooks: { onSlowCall?: () => void } = {};
  return {
    seen,
    aborted,
    hooks,
    async getBIOSSerialNumber() {
      return { serialNumber: 'SN-42' };
    },
    async startService(request: { name: string }) {
      const found = services.get(request.name);
      if (!found) throw new RpcError('not_found', `service ${request.name} not found`);
      return {};
    },
    async stopService(request: { name: string; force: boolean }, ctx: RpcContext) {
      if (request.name === 'slow') {
        hooks.onSlowCall?.();
        // Resolves only when the deadline (or a cancel) aborts the call.
        await new Promise((_, reject) =>
          ctx.signal.addEventListener(
            'abort',
            () => {
              aborted.push(ctx.protocol);
              reject(ctx.signal.reason);
            },
            { once: true },
          ),
        );
      }
      if (request.name === 'crash') throw new Error('disk /dev/sda1 on fire');
      const found = services.get(request.name);
      if (!found) throw new RpcError('not_found', `service ${request.name} not found`);
      if (!request.force) throw new RpcError('failed_precondition', 'dependent services running: beta');
      return {};
    },
    async getService(request: { name: string }, ctx: RpcContext) {
      seen.push({ protocol: ctx.protocol, traceId: ctx.headers.get('x-trace-id') });
      const found = services.get(request.name);
      if (!found) throw new RpcError('not_found', `service ${request.name} not found`);
      return { ...found };
    },
  };
}

let gen: Generated;
let genDir: string;
let cleanup: () => void;
let http: ServerType;
let baseUrl: string;
let grpcServer: grpc.Server;
let grpcAddress: string;
let socketDir: string;
let handler: ReturnType<typeof createHandler>;

beforeAll(async () => {
  const generated = await generateSystem('rpc-e2e');
  cleanup = generated.cleanup;
  genDir = generated.dir;
  const base = join(generated.dir, 'system/v1alpha1');
  gen = {
    server: await import(/* @vite-ignore */ join(base, 'system.server.ts')),
    client: await import(/* @vite-ignore */ join(base, 'system.client.ts')),
    grpc: await import(/* @vite-ignore */ join(base, 'system.grpc.ts')),
  };
  handler = createHandler();
  const app = new Hono();
  app.route('/', gen.server.systemConnectRoutes(handler));
  http = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  grpcServer = new grpc.Server();
  gen.grpc.addSystemServiceToGrpc(grpcServer, handler);
  socketDir = mkdtempSync(join(tmpdir(), 'loom-rpc-'));
  grpcAddress = await bindLoopback(grpcServer);
  await new Promise<void>((resolve, reject) =>
    grpcServer.bindAsync(`unix:${join(socketDir, 'system.sock')}`, grpc.ServerCredentials.createInsecure(), (error) =>
      error ? reject(error) : resolve(),
    ),
  );
});

afterAll(async () => {
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
  grpcServer?.forceShutdown();
  if (socketDir) rmSync(socketDir, { recursive: true, force: true });
  cleanup?.();
});

async function post(path: string, body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('generated code', () => {
  it('type-checks under the repository settings (strict, verbatimModuleSyntax)', async () => {
    expect(await typeCheck(genDir)).toBe('');
  });
});

describe('Connect over Hono', () => {
  it('answers the generated JSON and binary clients', async () => {
    for (const binary of [undefined, protobufBinary]) {
      const encoding = binary ? 'binary' : 'json';
      const client = gen.client.createSystemConnectClient({ baseUrl, binary, headers: { 'x-trace-id': `t-${encoding}` } });
      expect(await client.getService({ name: 'alpha' })).toEqual({ displayName: 'Alpha', startType: 2, status: 4 });
      expect(await client.getService({ name: 'boot' })).toEqual({ displayName: 'Boot', startType: 0, status: 0 });
      expect(await client.getBIOSSerialNumber()).toEqual({ serialNumber: 'SN-42' });
      expect(handler.seen).toContainEqual({ protocol: 'connect', traceId: `t-${encoding}` });
    }
  });

  it('speaks canonical proto3 JSON to plain fetch', async () => {
    expect(await post('/v1alpha1.System/GetService', '{"name":"alpha"}')).toEqual({
      status: 200,
      type: 'application/json',
      text: '{"displayName":"Alpha","startType":"AUTOMATIC","status":"RUNNING"}',
    });
    // Zero values are omitted; original field names and enum numbers are accepted on input.
    expect((await post('/v1alpha1.System/GetService', '{"name":"boot"}')).text).toBe('{"displayName":"Boot"}');
    expect(
      await post('/v1alpha1.System/StopService', '{"name":"alpha","force":true}', {
        'content-type': 'application/json; charset=utf-8',
        'connect-protocol-version': '1',
      }),
    ).toEqual({ status: 200, type: 'application/json', text: '{}' });
  });

  it('maps handler errors to Connect codes and HTTP statuses', async () => {
    expect(await post('/v1alpha1.System/GetService', '{"name":"nope"}')).toEqual({
      status: 404,
      type: 'application/json',
      text: '{"code":"not_found","message":"service nope not found"}',
    });
    expect(await post('/v1alpha1.System/StopService', '{"name":"alpha"}')).toEqual({
      status: 400,
      type: 'application/json',
      text: '{"code":"failed_precondition","message":"dependent services running: beta"}',
    });
    // Errors that are not RpcErrors never leak their message.
    expect(await post('/v1alpha1.System/StopService', '{"name":"crash"}')).toEqual({
      status: 500,
      type: 'application/json',
      text: '{"code":"internal","message":"internal error"}',
    });
    const client = gen.client.createSystemConnectClient({ baseUrl });
    const error = await client.getService({ name: 'nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: 'not_found', message: 'service nope not found' });
  });

  it('rejects bad input in the protocol shape', async () => {
    const malformed = await post('/v1alpha1.System/GetService', '{"name":');
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.text)).toMatchObject({ code: 'invalid_argument' });
    expect(JSON.parse(malformed.text).message).toMatch(/^cannot decode message v1alpha1\.GetServiceRequest from JSON/);

    // Unknown fields are skipped (as in binary, and as connect-go and connect-es read JSON); wrong types are not.
    const unknownField = await post('/v1alpha1.System/GetService', '{"name":"alpha","colour":"red"}');
    expect(unknownField).toEqual({
      status: 200,
      type: 'application/json',
      text: '{"displayName":"Alpha","startType":"AUTOMATIC","status":"RUNNING"}',
    });

    const wrongType = await post('/v1alpha1.System/StopService', '{"name":"alpha","force":"yes"}');
    expect(wrongType.status).toBe(400);
    expect(JSON.parse(wrongType.text).code).toBe('invalid_argument');

    const empty = await post('/v1alpha1.System/GetService', '');
    expect(empty.status).toBe(400);

    const textPlain = await post('/v1alpha1.System/GetService', '{"name":"alpha"}', { 'content-type': 'text/plain' });
    expect(textPlain.status).toBe(415);

    // A length-delimited field that claims 20 bytes but carries 3.
    const truncated = await post('/v1alpha1.System/GetService', new Uint8Array([10, 20, 97, 98, 99]), {
      'content-type': 'application/proto',
    });
    expect(truncated.status).toBe(400);
    expect(JSON.parse(truncated.text).code).toBe('invalid_argument');

    const unknownMethod = await post('/v1alpha1.System/Reboot', '{}');
    expect(unknownMethod).toEqual({
      status: 404,
      type: 'application/json',
      text: '{"code":"unimplemented","message":"v1alpha1.System/Reboot is not implemented"}',
    });

    const badVersion = await post('/v1alpha1.System/GetService', '{}', {
      'content-type': 'application/json',
      'connect-protocol-version': '2',
    });
    expect(badVersion.status).toBe(400);

    for (const verb of ['GET', 'OPTIONS']) {
      const other = await fetch(`${baseUrl}/v1alpha1.System/GetService`, { method: verb });
      expect([verb, other.status, other.headers.get('allow')]).toEqual([verb, 405, 'POST']);
    }
  });

  it('ends a call at its Connect-Timeout-Ms deadline', async () => {
    const expired = await post('/v1alpha1.System/StopService', '{"name":"slow"}', {
      'content-type': 'application/json',
      'connect-timeout-ms': '30',
    });
    expect(expired.status).toBe(504);
    expect(JSON.parse(expired.text).code).toBe('deadline_exceeded');
    const client = gen.client.createSystemConnectClient({ baseUrl, binary: protobufBinary });
    await expect(client.stopService({ name: 'slow' }, { timeoutMs: 30 })).rejects.toMatchObject({ code: 'deadline_exceeded' });
  });
});

describe('gRPC over grpc-js', () => {
  it('answers the generated gRPC client over TCP and a Unix socket', async () => {
    for (const address of [grpcAddress, `unix:${join(socketDir, 'system.sock')}`]) {
      const client = gen.grpc.createSystemGrpcClient(address, { headers: { 'x-trace-id': 'grpc-1' } });
      try {
        expect(await client.getService({ name: 'alpha' })).toEqual({ displayName: 'Alpha', startType: 2, status: 4 });
        expect(await client.getService({ name: 'boot' })).toEqual({ displayName: 'Boot', startType: 0, status: 0 });
        expect(await client.getBIOSSerialNumber({})).toEqual({ serialNumber: 'SN-42' });
        expect(await client.stopService({ name: 'alpha', force: true })).toEqual({});
        expect(handler.seen).toContainEqual({ protocol: 'grpc', traceId: 'grpc-1' });
      } finally {
        client.close();
      }
    }
  });

  it('maps errors to gRPC status codes and back to RpcError', async () => {
    const client = gen.grpc.createSystemGrpcClient(grpcAddress);
    try {
      await expect(client.getService({ name: 'nope' })).rejects.toMatchObject({ code: 'not_found', message: 'service nope not found' });
      await expect(client.stopService({ name: 'alpha' })).rejects.toMatchObject({ code: 'failed_precondition' });
      await expect(client.stopService({ name: 'crash' })).rejects.toMatchObject({ code: 'internal', message: 'internal error' });
      await expect(client.stopService({ name: 'slow' }, { timeoutMs: 30 })).rejects.toMatchObject({ code: 'deadline_exceeded' });
    } finally {
      client.close();
    }
  });

  it('answers INVALID_ARGUMENT to bytes that are not the request message', async () => {
    const raw = new grpc.Client(grpcAddress, grpc.credentials.createInsecure());
    try {
      const error = await new Promise<grpc.ServiceError>((resolve) => {
        raw.makeUnaryRequest(
          '/v1alpha1.System/GetService',
          () => Buffer.from([10, 20, 97]),
          (b: Buffer) => b,
          {},
          (e) => resolve(e!),
        );
      });
      expect(error.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(error.details).toMatch(/^cannot decode message v1alpha1\.GetServiceRequest from binary/);
    } finally {
      raw.close();
    }
  });

  it('interoperates with a proto-loader client of the verbatim csi-proxy proto', async () => {
    for (const keepCase of [true, false]) {
      const definition = protoLoader.loadSync(CSI_PROXY_PROTO, { keepCase, enums: String, defaults: true });
      const pkg = grpc.loadPackageDefinition(definition) as unknown as {
        v1alpha1: { System: grpc.ServiceClientConstructor };
      };
      const client = new pkg.v1alpha1.System(grpcAddress, grpc.credentials.createInsecure());
      const call = (method: string, request: object) =>
        new Promise<Record<string, unknown>>((resolve, reject) =>
          client[method]!(request, (error: grpc.ServiceError | null, response: Record<string, unknown>) =>
            error ? reject(error) : resolve(response),
          ),
        );
      try {
        const alpha = await call('GetService', { name: 'alpha' });
        expect(alpha).toEqual(
          keepCase
            ? { display_name: 'Alpha', start_type: 'AUTOMATIC', status: 'RUNNING' }
            : { displayName: 'Alpha', startType: 'AUTOMATIC', status: 'RUNNING' },
        );
        expect(await call('GetBIOSSerialNumber', {})).toEqual(keepCase ? { serial_number: 'SN-42' } : { serialNumber: 'SN-42' });
        await expect(call('GetService', { name: 'nope' })).rejects.toMatchObject({
          code: grpc.status.NOT_FOUND,
          details: 'service nope not found',
        });
      } finally {
        client.close();
      }
    }
  });
});

describe('cancellation', () => {
  it('cancels calls from an AbortSignal and aborts the handler signal on both transports', async () => {
    handler.aborted.length = 0; // the deadline tests abort slow calls too
    const connect = gen.client.createSystemConnectClient({ baseUrl });
    const grpcClient = gen.grpc.createSystemGrpcClient(grpcAddress);
    try {
      for (const client of [connect, grpcClient]) {
        const controller = new AbortController();
        // Abort only once the handler runs, so the server has a call to cancel.
        const started = new Promise<void>((resolve) => (handler.hooks.onSlowCall = resolve));
        const pending = client.stopService!({ name: 'slow' }, { signal: controller.signal });
        await started;
        controller.abort();
        await expect(pending).rejects.toMatchObject({ code: 'canceled' });
      }
      // The server learns of the cancel asynchronously (connection close, RST_STREAM).
      await expect.poll(() => [...handler.aborted].sort()).toEqual(['connect', 'grpc']);
    } finally {
      grpcClient.close();
    }
  });
});

describe('authorization hook', () => {
  it('refuses calls without the bearer token on both transports', async () => {
    const authorize = (ctx: RpcContext) => {
      if (ctx.headers.get('authorization') !== 'Bearer s3cret') throw new RpcError('unauthenticated', 'missing or wrong bearer token');
    };
    const app = new Hono();
    app.route('/', gen.server.systemConnectRoutes(createHandler() as never, { authorize }));
    const server = new grpc.Server();
    gen.grpc.addSystemServiceToGrpc(server, createHandler() as never, { authorize });
    const address = await bindLoopback(server);
    const fetchApp: typeof fetch = async (input, init) => app.request(input instanceof Request ? input : String(input), init);
    try {
      const anonymous = gen.client.createSystemConnectClient({ baseUrl: 'http://local', fetch: fetchApp });
      await expect(anonymous.getService({ name: 'alpha' })).rejects.toMatchObject({ code: 'unauthenticated' });
      const response = await app.request('/v1alpha1.System/GetService', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(401);
      const authed = gen.client.createSystemConnectClient({
        baseUrl: 'http://local',
        fetch: fetchApp,
        headers: { authorization: 'Bearer s3cret' },
      });
      expect(await authed.getService({ name: 'alpha' })).toMatchObject({ displayName: 'Alpha' });

      const anonymousGrpc = gen.grpc.createSystemGrpcClient(address);
      const authedGrpc = gen.grpc.createSystemGrpcClient(address, { headers: { authorization: 'Bearer s3cret' } });
      try {
        await expect(anonymousGrpc.getService({ name: 'alpha' })).rejects.toMatchObject({ code: 'unauthenticated' });
        expect(await authedGrpc.getService({ name: 'alpha' })).toMatchObject({ displayName: 'Alpha' });
      } finally {
        anonymousGrpc.close();
        authedGrpc.close();
      }
    } finally {
      server.forceShutdown();
    }
  });
});
