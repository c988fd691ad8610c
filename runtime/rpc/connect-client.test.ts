/** The Connect client against stubbed fetch responses, and the error code tables. */
import { describe, expect, it } from 'vitest';
import { createCodecRegistry } from './codec.js';
import { createConnectClient } from './connect-client.js';
import { CONNECT_HTTP_STATUS, codeFromGrpcStatus, GRPC_STATUS, RpcError } from './errors.js';
import type { RpcMethodDescriptor, RpcServiceDescriptor } from './types.js';

const registry = createCodecRegistry({
  nested: { t: { nested: { Ping: { fields: { text: { type: 'string', id: 1 } } } } } },
});
const Ping = registry.codec<{ text: string }>('t.Ping');
const service: RpcServiceDescriptor<{ readonly ping: RpcMethodDescriptor<{ text: string }, { text: string }> }> = {
  typeName: 't.Echo',
  methods: {
    ping: {
      name: 'Ping',
      localName: 'ping',
      path: '/t.Echo/Ping',
      clientStreaming: false,
      serverStreaming: false,
      input: Ping,
      output: Ping,
    },
  },
};

function stub(response: Response) {
  const seen: { url: string; headers: Headers; body: string }[] = [];
  const fetchStub: typeof fetch = async (input, init) => {
    seen.push({ url: String(input), headers: new Headers(init?.headers), body: String(init?.body) });
    return response;
  };
  return { seen, fetch: fetchStub };
}

describe('createConnectClient', () => {
  it('posts canonical JSON with the Connect headers and per-call overrides', async () => {
    const s = stub(Response.json({ text: 'pong' }));
    const client = createConnectClient(service, { baseUrl: 'http://h/rpc/', fetch: s.fetch, headers: { authorization: 'Bearer t' } });
    expect(await client.ping({ text: 'hi' }, { timeoutMs: 250, headers: { 'x-trace': '1' } })).toEqual({ text: 'pong' });
    expect(s.seen[0]!.url).toBe('http://h/rpc/t.Echo/Ping');
    expect(s.seen[0]!.body).toBe('{"text":"hi"}');
    expect(Object.fromEntries(s.seen[0]!.headers)).toEqual({
      authorization: 'Bearer t',
      'connect-protocol-version': '1',
      'connect-timeout-ms': '250',
      'content-type': 'application/json',
      'x-trace': '1',
    });
  });

  it("sends Connect-Timeout-Ms as whole milliseconds of at most ten digits, and arms no timer beyond Node's longest", async () => {
    const seen: { header: string | null; abortedAfterATick: boolean }[] = [];
    const client = createConnectClient(service, {
      baseUrl: 'http://h',
      fetch: async (_input, init) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push({ header: new Headers(init?.headers).get('connect-timeout-ms'), abortedAfterATick: init?.signal?.aborted ?? false });
        return Response.json({ text: 'pong' });
      },
    });
    for (const timeoutMs of [250.2, 99.01, 3e9, 1e12, Infinity]) await client.ping({}, { timeoutMs });
    expect(seen).toEqual([
      { header: '251', abortedAfterATick: false },
      { header: '100', abortedAfterATick: false },
      { header: '3000000000', abortedAfterATick: false },
      { header: '9999999999', abortedAfterATick: false },
      { header: '9999999999', abortedAfterATick: false },
    ]);
  });

  it('reads Connect error bodies into RpcError', async () => {
    const s = stub(Response.json({ code: 'permission_denied', message: 'no' }, { status: 403 }));
    const client = createConnectClient(service, { baseUrl: 'http://h', fetch: s.fetch });
    await expect(client.ping({ text: 'x' })).rejects.toMatchObject({ name: 'RpcError', code: 'permission_denied', message: 'no' });
  });

  it('infers the code from the HTTP status when a proxy answered', async () => {
    const s = stub(new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    const client = createConnectClient(service, { baseUrl: 'http://h', fetch: s.fetch });
    await expect(client.ping()).rejects.toMatchObject({ code: 'unavailable', message: 'HTTP 502: <html>bad gateway</html>' });
  });

  it('rejects a 200 that is not JSON with an RpcError, not a SyntaxError', async () => {
    const s = stub(new Response('<html>captive portal</html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    const client = createConnectClient(service, { baseUrl: 'http://h', fetch: s.fetch });
    await expect(client.ping()).rejects.toMatchObject({
      name: 'RpcError',
      code: 'internal',
      message: 'invalid JSON in the response of http://h/t.Echo/Ping: <html>captive portal</html>',
    });
  });

  it('reports an unreachable server as unavailable', async () => {
    const client = createConnectClient(service, {
      baseUrl: 'http://h',
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(client.ping()).rejects.toMatchObject({ code: 'unavailable', message: 'cannot reach http://h/t.Echo/Ping: fetch failed' });
  });
});

describe('error codes', () => {
  it('map to the Connect HTTP statuses and gRPC numbers of the protocol tables', () => {
    expect(new RpcError('not_found', 'x').httpStatus).toBe(404);
    expect(CONNECT_HTTP_STATUS.failed_precondition).toBe(400);
    expect(CONNECT_HTTP_STATUS.canceled).toBe(499);
    expect(GRPC_STATUS.unauthenticated).toBe(16);
    expect(codeFromGrpcStatus(9)).toBe('failed_precondition');
    expect(codeFromGrpcStatus(99)).toBe('unknown');
    expect(JSON.stringify(new RpcError('aborted', 'retry'))).toBe('{"code":"aborted","message":"retry"}');
  });
});
