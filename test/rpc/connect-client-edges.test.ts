/**
 * The generated Connect client (System) against servers that misbehave, over real sockets: one
 * that accepts the connection and never answers (the client's own deadline must end the call),
 * and ones that answer 200 with messages from a newer schema (unknown fields are skipped) or with
 * messages that do not decode (the client reports `internal`: the caller's input was fine).
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSystemConnectClient } from '../../generated/system/v1alpha1/system.client.js';
import { GetServiceResponseCodec } from '../../generated/system/v1alpha1/system.codec.js';
import { RpcError } from '../../runtime/rpc/errors.js';
import { protobufBinary } from '../../runtime/rpc/protobuf-binary.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A TCP listener that reads requests and never writes a byte back. Keeps what it received. */
async function silentServer(): Promise<{ baseUrl: string; received: () => string }> {
  let received = '';
  const sockets = new Set<Socket>();
  const server: TcpServer = createTcpServer((socket) => {
    sockets.add(socket);
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => received };
}

/** An HTTP server answering every request 200 with `body` in `contentType`. */
async function fixedServer(contentType: string, body: string | Uint8Array): Promise<string> {
  const server: HttpServer = createHttpServer((req, res) => {
    req.resume().on('end', () => res.writeHead(200, { 'content-type': contentType }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Settles `promise`, or says it is still pending after a bound generous enough to mean "hangs". */
async function settleOrHang(promise: Promise<unknown>): Promise<unknown> {
  const hang = new Promise((resolve) => setTimeout(resolve, 15_000, 'still waiting'));
  return Promise.race([
    promise.then(
      () => 'resolved',
      (error: unknown) => error,
    ),
    hang,
  ]);
}

describe('the Connect client against a server that never answers', () => {
  it('ends the call with DEADLINE_EXCEEDED at its own timeoutMs, and sends the deadline in whole milliseconds', async () => {
    const server = await silentServer();
    const client = createSystemConnectClient({ baseUrl: server.baseUrl, timeoutMs: 200.4 });
    const error = await settleOrHang(client.getService({ name: 'db' }));
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: 'deadline_exceeded', message: 'deadline of 200.4 ms exceeded' });
    expect(server.received()).toMatch(/\r\nconnect-timeout-ms: 201\r\n/i);
  });

  it('takes a per-call timeoutMs over the client default', async () => {
    const server = await silentServer();
    const client = createSystemConnectClient({ baseUrl: server.baseUrl, timeoutMs: 600_000 });
    expect(await settleOrHang(client.stopService({ name: 'db' }, { timeoutMs: 50 }))).toMatchObject({ code: 'deadline_exceeded' });
  });

  it("still reports the caller's own cancel as CANCELED when a deadline is set too", async () => {
    const server = await silentServer();
    const client = createSystemConnectClient({ baseUrl: server.baseUrl, timeoutMs: 600_000 });
    const controller = new AbortController();
    const pending = settleOrHang(client.getService({ name: 'db' }, { signal: controller.signal }));
    await expect.poll(() => server.received()).toContain('POST /v1alpha1.System/GetService');
    controller.abort();
    expect(await pending).toMatchObject({ code: 'canceled' });
  });

  it('gives up at once, without sending, when the deadline is not positive', async () => {
    const server = await silentServer();
    const client = createSystemConnectClient({ baseUrl: server.baseUrl });
    expect(await settleOrHang(client.getService({ name: 'db' }, { timeoutMs: 0 }))).toMatchObject({ code: 'deadline_exceeded' });
    expect(server.received()).toBe('');
  });
});

describe('the Connect client reading 200 answers', () => {
  it('skips fields of a newer schema in JSON, as it skips unknown field numbers in binary', async () => {
    const json = await fixedServer(
      'application/json',
      '{"displayName":"Database","status":"RUNNING","startType":"AUTOMATIC","healthScore":97,"extra":{"a":[1]}}',
    );
    expect(await createSystemConnectClient({ baseUrl: json }).getService({ name: 'db' })).toEqual({
      displayName: 'Database',
      startType: 2,
      status: 4,
    });
    // Field 9 (varint 1) is not in GetServiceResponse.
    const bytes = new Uint8Array([
      ...protobufBinary.encode(GetServiceResponseCodec, { displayName: 'Database', startType: 2, status: 4 }),
      0x48,
      0x01,
    ]);
    const binary = await fixedServer('application/proto', bytes);
    expect(await createSystemConnectClient({ baseUrl: binary, binary: protobufBinary }).getService({ name: 'db' })).toEqual({
      displayName: 'Database',
      startType: 2,
      status: 4,
    });
  });

  const CANNOT_DECODE =
    String.raw`^invalid response from http://127\.0\.0\.1:\d+/v1alpha1\.System/GetService: ` +
    String.raw`cannot decode message v1alpha1\.GetServiceResponse from `;
  it.each([
    ['JSON of the wrong type', 'application/json', '{"displayName":5}', false, new RegExp(`${CANNOT_DECODE}JSON`)],
    ['truncated protobuf', 'application/proto', new Uint8Array([0x0a, 0x20, 0x61]), true, new RegExp(`${CANNOT_DECODE}binary`)],
  ])("reports %s as INTERNAL, not as the caller's INVALID_ARGUMENT", async (_label, contentType, body, binary, message) => {
    const baseUrl = await fixedServer(contentType, body);
    const error = await createSystemConnectClient({ baseUrl, binary: binary ? protobufBinary : undefined })
      .getService({ name: 'db' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe('internal');
    expect((error as RpcError).message).toMatch(message);
  });
});
