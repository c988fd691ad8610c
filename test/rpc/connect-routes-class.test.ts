/**
 * The generated Connect routes class (`SystemRoutes` in `generated/system/v1alpha1/system.server.ts`)
 * registered on Loom's decorator runtime beside an HTTP routes class: the generated Connect
 * client (JSON and binary) and plain fetch must see the protocol exactly as `connectRoutes`
 * serves it — canonical JSON, Connect codes and statuses, deadlines, `authorize` before the body
 * is read — and every failure, an unreadable body included, in Connect's error shape.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createSystemConnectClient } from '../../generated/system/v1alpha1/system.client.js';
import { SystemServiceDescriptor } from '../../generated/system/v1alpha1/system.codec.js';
import { SystemRoutes, type SystemService } from '../../generated/system/v1alpha1/system.server.js';
import { createRestRouter, GET, Path } from '../../runtime/rest/index.js';
import type { ConnectRoutesOptions } from '../../runtime/rpc/connect-server.js';
import { RpcError } from '../../runtime/rpc/errors.js';
import { protobufBinary } from '../../runtime/rpc/protobuf-binary.js';
import type { RpcContext } from '../../runtime/rpc/types.js';
import { fakeService } from './fake-service.js';

/** Alpha runs; `slow` answers only when its signal aborts; `crash` throws a plain Error. */
function createSystem(seen: RpcContext[] = []): SystemService {
  return fakeService<SystemService>(SystemServiceDescriptor, {
    async getBIOSSerialNumber() {
      return { serialNumber: 'SN-42' };
    },
    async startService() {
      return {};
    },
    async stopService(request, ctx) {
      if (request.name === 'slow')
        await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }));
      if (request.name === 'crash') throw new Error('disk /dev/sda1 on fire');
      if (!request.force) throw new RpcError('failed_precondition', 'dependent services running: beta');
      return {};
    },
    async getService(request, ctx) {
      seen.push(ctx);
      if (request.name !== 'alpha') throw new RpcError('not_found', `service ${request.name} not found`);
      return { displayName: 'Alpha', startType: 2, status: 4 };
    },
  });
}

@Path('/health')
class Health {
  @GET
  get() {
    return { ok: true };
  }
}

function app(options?: ConnectRoutesOptions, seen?: RpcContext[]) {
  return createRestRouter()
    .register(new Health(), new SystemRoutes(createSystem(seen), options))
    .app();
}

async function post(
  served: ReturnType<typeof app>,
  method: string,
  body: BodyInit,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  const response = await served.request(`/v1alpha1.System/${method}`, { method: 'POST', headers, body });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text(), headers: response.headers };
}

describe('SystemRoutes on the decorator runtime', () => {
  const served = app();
  const fetchApp: typeof fetch = async (input, init) => served.request(input instanceof Request ? input : String(input), init);

  it('answers the generated Connect client in JSON and binary, beside HTTP routes of the same router', async () => {
    for (const binary of [undefined, protobufBinary]) {
      const client = createSystemConnectClient({ baseUrl: 'http://system', binary, fetch: fetchApp });
      expect(await client.getService({ name: 'alpha' })).toEqual({ displayName: 'Alpha', startType: 2, status: 4 });
      expect(await client.getBIOSSerialNumber({})).toEqual({ serialNumber: 'SN-42' });
      await expect(client.getService({ name: 'nope' })).rejects.toMatchObject({ code: 'not_found', message: 'service nope not found' });
    }
    expect(await (await served.request('/health')).json()).toEqual({ ok: true });
  });

  it('speaks canonical proto3 JSON and maps errors to Connect codes and statuses', async () => {
    expect(await post(served, 'GetService', '{"name":"alpha"}')).toMatchObject({
      status: 200,
      type: 'application/json',
      body: '{"displayName":"Alpha","startType":"AUTOMATIC","status":"RUNNING"}',
    });
    expect(
      await post(served, 'StopService', '{"name":"alpha","force":true}', {
        'content-type': 'application/json; charset=utf-8',
        'connect-protocol-version': '1',
      }),
    ).toMatchObject({
      status: 200,
      type: 'application/json',
      body: '{}',
    });
    expect(await post(served, 'StopService', '{"name":"alpha"}')).toMatchObject({
      status: 400,
      body: '{"code":"failed_precondition","message":"dependent services running: beta"}',
    });
    // A plain Error never leaks its message.
    expect(await post(served, 'StopService', '{"name":"crash","force":true}')).toMatchObject({
      status: 500,
      body: '{"code":"internal","message":"internal error"}',
    });
  });

  it('answers unreadable messages and unsupported media types in the protocol shape, and skips unknown fields', async () => {
    const malformed = await post(served, 'GetService', '{"name":');
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('cannot decode message v1alpha1.GetServiceRequest from JSON'),
    });
    // Skipped, as connectRoutes does: only the fields the message has count.
    const unknownField = await post(served, 'GetService', '{"name":"alpha","colour":"red"}');
    expect([unknownField.status, JSON.parse(unknownField.body)]).toEqual([
      200,
      { displayName: 'Alpha', startType: 'AUTOMATIC', status: 'RUNNING' },
    ]);
    const wrongType = await post(served, 'GetService', '{"name":7}');
    expect([wrongType.status, JSON.parse(wrongType.body).code]).toEqual([400, 'invalid_argument']);
    const badBytes = await post(served, 'GetService', new Uint8Array([0x0a, 0x05, 0x61]), { 'content-type': 'application/proto' });
    expect([badBytes.status, JSON.parse(badBytes.body).code]).toEqual([400, 'invalid_argument']);
    const form = await post(served, 'GetService', 'name=alpha', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect(form.headers.get('accept-post')).toBe('application/json, application/proto');
    expect(JSON.parse(form.body)).toMatchObject({ code: 'invalid_argument' });
  });

  it('reads an empty binary body as the message with every field at its default', async () => {
    const empty = await post(served, 'GetService', new Uint8Array(0), { 'content-type': 'application/proto' });
    expect([empty.status, JSON.parse(empty.body)]).toEqual([404, { code: 'not_found', message: 'service  not found' }]);
  });

  it('checks the protocol version and content encoding, and enforces Connect-Timeout-Ms', async () => {
    const version = await post(served, 'GetService', '{"name":"alpha"}', {
      'content-type': 'application/json',
      'connect-protocol-version': '2',
    });
    expect([version.status, JSON.parse(version.body).code]).toEqual([400, 'invalid_argument']);
    const brotli = await post(served, 'GetService', '{"name":"alpha"}', { 'content-type': 'application/json', 'content-encoding': 'br' });
    expect(JSON.parse(brotli.body).code).toBe('unimplemented');
    const gzip = await post(served, 'GetService', gzipSync('{"name":"alpha"}'), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect([gzip.status, JSON.parse(gzip.body)]).toEqual([200, { displayName: 'Alpha', startType: 'AUTOMATIC', status: 'RUNNING' }]);
    const slow = await post(served, 'StopService', '{"name":"slow","force":true}', {
      'content-type': 'application/json',
      'connect-timeout-ms': '30',
    });
    expect([slow.status, JSON.parse(slow.body).code]).toEqual([504, 'deadline_exceeded']);
  });

  it('passes options on: authorize sees the call, requireProtocolVersion wants the header, onError sees hidden errors', async () => {
    const hidden: unknown[] = [];
    const seen: RpcContext[] = [];
    const guarded = app(
      {
        requireProtocolVersion: true,
        onError: (error) => hidden.push(error),
        authorize: (ctx) => {
          if (ctx.headers.get('authorization') !== 'Bearer ok') throw new RpcError('unauthenticated', 'token required');
        },
      },
      seen,
    );
    const headers = { 'content-type': 'application/json', 'connect-protocol-version': '1' };
    expect(JSON.parse((await post(guarded, 'GetService', '{"name":"alpha"}', headers)).body)).toEqual({
      code: 'unauthenticated',
      message: 'token required',
    });
    expect((await post(guarded, 'GetService', '{"name":"alpha"}', { ...headers, authorization: 'Bearer ok' })).status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ protocol: 'connect', method: { name: 'GetService' } });
    expect(
      JSON.parse(
        (await post(guarded, 'GetService', '{"name":"alpha"}', { 'content-type': 'application/json', authorization: 'Bearer ok' })).body,
      ).code,
    ).toBe('invalid_argument');
    await post(guarded, 'StopService', '{"name":"crash","force":true}', { ...headers, authorization: 'Bearer ok' });
    expect(hidden).toEqual([new Error('disk /dev/sda1 on fire')]);
  });

  it('asks authorize before reading a byte of the body, and then reads at most maxBodyBytes', async () => {
    const guarded = app({
      maxBodyBytes: 64,
      authorize: (ctx) => {
        if (ctx.headers.get('authorization') !== 'Bearer ok') throw new RpcError('unauthenticated', 'token required');
      },
    });
    // A body that never ends, pulled only when someone reads it.
    let pulls = 0;
    const endless = () =>
      new ReadableStream<Uint8Array>(
        {
          pull: (controller) => {
            pulls++;
            controller.enqueue(new TextEncoder().encode('{"name":"alpha",'));
          },
        },
        { highWaterMark: 0 },
      );
    const init = (headers: Record<string, string>) =>
      ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: endless(), duplex: 'half' }) as RequestInit;
    const refused = await guarded.request('/v1alpha1.System/GetService', init({}));
    expect([refused.status, await refused.json()]).toEqual([401, { code: 'unauthenticated', message: 'token required' }]);
    expect(pulls).toBe(0);
    const tooLarge = await guarded.request('/v1alpha1.System/GetService', init({ authorization: 'Bearer ok' }));
    expect([tooLarge.status, ((await tooLarge.json()) as { code: string }).code]).toEqual([429, 'resource_exhausted']);
    expect(pulls).toBeGreaterThan(0);
  });
});
