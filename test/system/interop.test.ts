/**
 * Clients that are not Loom's: a grpc-js client that loads csi-proxy's own proto file at run
 * time with @grpc/proto-loader (as democratic-csi does), and plain HTTP speaking the Connect
 * protocol by hand (as curl would).
 */

import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailingHost } from './support/failing-host.js';
import { type RunningSystem, startSystem } from './support/system-server.js';

const CSI_PROXY_PROTO = fileURLToPath(new URL('../fixtures/reference/csi-proxy-system-v1alpha1.proto', import.meta.url));

type Callback = (error: grpc.ServiceError | null, response?: Record<string, unknown>) => void;
type DynamicClient = grpc.Client &
  Record<string, (request: object, metadata: grpc.Metadata, options: grpc.CallOptions, callback: Callback) => void>;

function loadCsiProxyClient(address: string, keepCase: boolean): DynamicClient {
  // democratic-csi's options: keepCase, longs as strings, enums as names, defaults filled in.
  const definition = protoLoader.loadSync(CSI_PROXY_PROTO, { keepCase, longs: String, enums: String, defaults: true, oneofs: true });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as { v1alpha1: { System: grpc.ServiceClientConstructor } };
  const options = address.startsWith('unix:') ? { 'grpc.default_authority': 'localhost' } : {};
  return new pkg.v1alpha1.System(address, grpc.credentials.createInsecure(), options) as unknown as DynamicClient;
}

function call(client: DynamicClient, method: string, request: object, metadata = new grpc.Metadata()): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    client[method]!(request, metadata, { deadline: Date.now() + 30_000 }, (error, response) =>
      error ? reject(error) : resolve(response!),
    );
  });
}

async function grpcFailure(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as grpc.ServiceError;
}

let system: RunningSystem;
beforeAll(async () => {
  system = await startSystem(new FailingHost({ startDelayMs: 5, stopDelayMs: 5 }));
});
afterAll(() => system.close());

describe.each([
  ['TCP', false, () => system.grpcAddress],
  ['TCP, keepCase (snake_case fields)', true, () => system.grpcAddress],
  ['the Unix socket', true, () => `unix:${system.socketPath}`],
])("a grpc-js client built from csi-proxy's proto over %s", (_label, keepCase, address) => {
  let client: DynamicClient;
  beforeAll(() => {
    client = loadCsiProxyClient(address(), keepCase);
  });
  afterAll(() => client.close());

  const displayName = keepCase ? 'display_name' : 'displayName';
  const startType = keepCase ? 'start_type' : 'startType';
  const serial = keepCase ? 'serial_number' : 'serialNumber';

  it('calls all four RPCs', async () => {
    expect(await call(client, 'GetBIOSSerialNumber', {})).toEqual({ [serial]: 'SIM-0001' });
    expect(await call(client, 'GetService', { name: 'db' })).toEqual({
      [displayName]: 'Database',
      [startType]: 'AUTOMATIC',
      status: 'RUNNING',
    });
    expect(await call(client, 'StartService', { name: 'cache' })).toEqual({});
    expect(await call(client, 'GetService', { name: 'cache' })).toEqual({
      [displayName]: 'Cache',
      [startType]: 'MANUAL',
      status: 'RUNNING',
    });
    expect(await call(client, 'StopService', { name: 'cache', force: false })).toEqual({});
    expect((await call(client, 'GetService', { name: 'cache' })).status).toBe('STOPPED');
  });

  it('gets real status codes where csi-proxy sends UNKNOWN', async () => {
    const missing = await grpcFailure(call(client, 'GetService', { name: 'nope' }));
    expect([missing.code, missing.details]).toEqual([grpc.status.NOT_FOUND, 'service "nope" does not exist']);
    const bad = await grpcFailure(call(client, 'StopService', { name: '../../etc/passwd', force: true }));
    expect(bad.code).toBe(grpc.status.INVALID_ARGUMENT);
    const refused = await grpcFailure(call(client, 'StopService', { name: 'db', force: false }));
    expect([refused.code, refused.details]).toEqual([
      grpc.status.FAILED_PRECONDITION,
      'cannot stop db: dependent services are running: web (use force to stop them too)',
    ]);
    expect((await grpcFailure(call(client, 'GetService', { name: 'fail-unavailable' }))).code).toBe(grpc.status.UNAVAILABLE);
    expect((await grpcFailure(call(client, 'GetService', { name: 'fail-command_failed' }))).code).toBe(grpc.status.INTERNAL);
    expect((await grpcFailure(call(client, 'GetService', { name: 'fail-permission_denied' }))).code).toBe(grpc.status.PERMISSION_DENIED);
    expect((await grpcFailure(call(client, 'GetService', { name: 'fail-timeout' }))).code).toBe(grpc.status.DEADLINE_EXCEEDED);
  });
});

describe('plain HTTP speaking the Connect protocol', () => {
  const post = (method: string, body: BodyInit, contentType = 'application/json', headers: Record<string, string> = {}) =>
    fetch(`${system.baseUrl}/v1alpha1.System/${method}`, {
      method: 'POST',
      body,
      headers: { 'content-type': contentType, 'connect-protocol-version': '1', ...headers },
    });

  it('answers canonical proto3 JSON: camelCase, enum names, zero values omitted', async () => {
    const res = await post('GetService', '{"name":"db"}');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.text()).toBe('{"displayName":"Database","startType":"AUTOMATIC","status":"RUNNING"}');
    const empty = await post('StartService', '{"name":"db"}');
    expect([empty.status, await empty.text()]).toEqual([200, '{}']);
  });

  it('accepts a JSON bool for force', async () => {
    const res = await post('StopService', '{"name":"cache","force":true}');
    expect([res.status, await res.text()]).toEqual([200, '{}']);
  });

  it('speaks application/proto with bytes from another encoder', async () => {
    const root = protobuf.loadSync(CSI_PROXY_PROTO);
    const Request = root.lookupType('v1alpha1.GetServiceRequest');
    const Response = root.lookupType('v1alpha1.GetServiceResponse');
    const res = await post('GetService', new Uint8Array(Request.encode({ name: 'web' }).finish()), 'application/proto');
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/proto']);
    const decoded = Response.toObject(Response.decode(new Uint8Array(await res.arrayBuffer())), { enums: String });
    expect(decoded).toEqual({ displayName: 'Web Server', startType: 'AUTOMATIC', status: 'RUNNING' });
  });

  it.each([
    ['GetService', '{"name":"nope"}', 404, { code: 'not_found', message: 'service "nope" does not exist' }],
    [
      'StopService',
      '{"name":"db"}',
      400,
      { code: 'failed_precondition', message: 'cannot stop db: dependent services are running: web (use force to stop them too)' },
    ],
    [
      'StartService',
      '{"name":"a/b"}',
      400,
      {
        code: 'invalid_argument',
        message: 'invalid service name "a/b": "/" at position 1 is not allowed (allowed: letters, digits and : _ . @ -)',
      },
    ],
    ['GetService', '{"name":"fail-unavailable"}', 503, { code: 'unavailable', message: 'simulated unavailable for fail-unavailable' }],
    [
      'GetService',
      '{"name":"fail-permission_denied"}',
      403,
      { code: 'permission_denied', message: 'simulated permission_denied for fail-permission_denied' },
    ],
    ['GetService', '{"name":"fail-timeout"}', 504, { code: 'deadline_exceeded', message: 'simulated timeout for fail-timeout' }],
    [
      'GetService',
      '{"name":"fail-command_failed"}',
      500,
      { code: 'internal', message: 'simulated command_failed for fail-command_failed' },
    ],
  ])('%s %s answers %i with a Connect error body', async (method, body, status, expected) => {
    const res = await post(method, body);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(expected);
  });

  it('handles hostile names strictly as data', async () => {
    for (const name of ['$(reboot)', '`id`', 'db\u0000', 'ｄｂ', '😀', '..\\..\\windows', 'x'.repeat(10_240)]) {
      const res = await post('StopService', JSON.stringify({ name, force: true }));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('invalid_argument');
    }
    // Nothing was stopped.
    expect(await (await post('GetService', '{"name":"db"}')).text()).toBe(
      '{"displayName":"Database","startType":"AUTOMATIC","status":"RUNNING"}',
    );
  });
});
