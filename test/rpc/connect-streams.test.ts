/**
 * Connect streaming on the wire: requests built by hand as enveloped messages against
 * `connectRoutes` served on a real port, so that what a connect-es or connect-go peer would see
 * is checked byte for byte — the stream's Content-Type, each message's envelope as the handler
 * yields it (before the handler finishes), the end-of-stream message with `{}` or the call's
 * error, and every refusal (a bad header, `authorize`, the deadline, a malformed, compressed or
 * oversized message) ending the stream in that shape under HTTP 200. The client's side is
 * checked against servers that break the protocol.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, FLAG_COMPRESSED } from '../../runtime/rpc/connect-envelope.js';
import { RpcError } from '../../runtime/rpc/errors.js';
import { protobufBinary } from '../../runtime/rpc/protobuf-binary.js';
import type { BinaryFormat, MessageCodec, RpcContext } from '../../runtime/rpc/types.js';
import { generateInline } from '../support/generate-inline.js';

const PROTO = `syntax = "proto3";
package demo.v1;
message TickRequest { int32 count = 1; bool hang = 2; bool crash = 3; bool gate = 4; }
message Tick { int32 n = 1; }
service Ticker {
  rpc Tick(TickRequest) returns (stream Tick);
  rpc Sum(stream Tick) returns (Tick);
}
`;

interface Frame {
  readonly flags: number;
  readonly text: string;
  readonly bytes: Uint8Array;
}

let cleanup: () => void;
let server: ServerType;
let base: string;
let codecs: { TickCodec: MessageCodec<{ n: number }> };
let clientModule: {
  createTickerConnectClient(options: { baseUrl: string; binary?: BinaryFormat; fetch?: typeof fetch }): {
    tick(r: object, o?: object): AsyncIterable<{ n: number }>;
    sum(r: AsyncIterable<object>): Promise<{ n: number }>;
  };
};
/**
 * A gate the handler waits at after its first message when the request asks (`gate`), so that a
 * test can see that message arrive while the handler is still running; `release` opens it, before
 * or after the handler reaches it.
 */
let opened = 0;
let waiting: (() => void) | undefined;
function release(): void {
  if (waiting) {
    waiting();
    waiting = undefined;
  } else opened++;
}
function gate(): Promise<void> {
  if (opened > 0) {
    opened--;
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => (waiting = resolve));
}
const cleanups: string[] = [];
const errors: unknown[] = [];

const impl = {
  async *tick(request: { count: number; hang: boolean; crash: boolean; gate: boolean }, ctx: RpcContext) {
    try {
      for (let n = 1; n <= request.count; n++) {
        yield { n };
        if (n === 1 && request.gate) await gate();
      }
      if (request.crash) throw new Error('disk on fire');
      if (request.hang) await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
    } finally {
      cleanups.push(`tick ${request.count}`);
    }
  },
  async sum(ticks: AsyncIterable<{ n: number }>) {
    let n = 0;
    for await (const t of ticks) n += t.n;
    return { n };
  },
};

beforeAll(async () => {
  const generated = await generateInline('connect-streams', { 'demo/v1/ticker.proto': PROTO });
  cleanup = generated.cleanup;
  const routes = await import(/* @vite-ignore */ join(generated.dir, 'demo/v1/ticker.server.ts'));
  codecs = await import(/* @vite-ignore */ join(generated.dir, 'demo/v1/ticker.codec.ts'));
  clientModule = await import(/* @vite-ignore */ join(generated.dir, 'demo/v1/ticker.client.ts'));
  const app = routes.tickerConnectRoutes(impl, {
    maxBodyBytes: 64,
    onError: (error: unknown) => errors.push(error),
    authorize: (ctx: RpcContext) => {
      if (ctx.headers.get('authorization') === 'Bearer nope') throw new RpcError('unauthenticated', 'bad token');
    },
  });
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  cleanup?.();
});

const json = (value: unknown) => envelope(0, new TextEncoder().encode(JSON.stringify(value)));

function post(method: string, body: BodyInit, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(`${base}/demo.v1.Ticker/${method}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/connect+json', ...headers },
    signal,
  });
}

/** Splits a response body into envelopes as they arrive; `onFrame` sees each one at once. */
async function frames(response: Response, onFrame: (frame: Frame) => void = () => {}): Promise<Frame[]> {
  const out: Frame[] = [];
  let buffered = new Uint8Array(0);
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    const joined = new Uint8Array(buffered.length + chunk.length);
    joined.set(buffered);
    joined.set(chunk, buffered.length);
    buffered = joined;
    while (buffered.length >= 5) {
      const length = new DataView(buffered.buffer, buffered.byteOffset).getUint32(1);
      if (buffered.length < 5 + length) break;
      const bytes = buffered.slice(5, 5 + length);
      const frame = { flags: buffered[0]!, text: new TextDecoder().decode(bytes), bytes };
      out.push(frame);
      onFrame(frame);
      buffered = buffered.slice(5 + length);
    }
  }
  expect(buffered.length).toBe(0);
  return out;
}

/** The end-of-stream JSON of a stream that must end with exactly that message. */
async function endOnly(response: Response): Promise<unknown> {
  expect(response.status).toBe(200);
  const all = await frames(response);
  expect(all.map((f) => f.flags)).toEqual([2]);
  return JSON.parse(all[0]!.text);
}

describe('Connect server streams on the wire', () => {
  it('sends each message in its envelope as the handler yields it, then the end-of-stream message', async () => {
    const response = await post('Tick', json({ count: 3, gate: true }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/connect+json');
    let firstBeforeRest = false;
    const all = await frames(response, (frame) => {
      // The handler waits after its first message: the client has that message while it waits.
      if (frame.text === '{"n":1}') {
        firstBeforeRest = true;
        release();
      }
    });
    expect(firstBeforeRest).toBe(true);
    expect(all.map((f) => [f.flags, f.text])).toEqual([
      [0, '{"n":1}'],
      [0, '{"n":2}'],
      [0, '{"n":3}'],
      [2, '{}'],
    ]);
  });

  it('speaks binary protobuf as application/connect+proto', async () => {
    const body = envelope(0, new Uint8Array([0x08, 0x02])); // TickRequest { count: 2 }
    const response = await post('Tick', body, { 'content-type': 'application/connect+proto' });
    expect(response.headers.get('content-type')).toBe('application/connect+proto');
    const all = await frames(response);
    expect(all.slice(0, 2).map((f) => protobufBinary.decode(codecs.TickCodec, f.bytes).n)).toEqual([1, 2]);
    expect([all[2]!.flags, all[2]!.text]).toEqual([2, '{}']);
  });

  it('ends with the error in the end-of-stream message when authorize refuses, before reading the body', async () => {
    expect(await endOnly(await post('Tick', json({ count: 1 }), { authorization: 'Bearer nope' }))).toEqual({
      error: { code: 'unauthenticated', message: 'bad token' },
    });
  });

  it('refuses a server stream of no request, or of two', async () => {
    expect(await endOnly(await post('Tick', new Uint8Array(0)))).toEqual({
      error: { code: 'invalid_argument', message: 'the request stream holds no message; this method takes one' },
    });
    const two = new Uint8Array([...json({ count: 1 }), ...json({ count: 1 })]);
    expect(await endOnly(await post('Tick', two))).toEqual({
      error: { code: 'invalid_argument', message: 'the request stream holds more than one message; this method takes one' },
    });
  });

  it('refuses malformed, truncated, oversized and wrongly flagged messages', async () => {
    const bad = await endOnly(await post('Tick', envelope(0, new TextEncoder().encode('{"count":'))));
    expect(bad).toMatchObject({ error: { code: 'invalid_argument' } });
    expect(await endOnly(await post('Tick', json({ count: 1 }).slice(0, 7)))).toEqual({
      error: { code: 'invalid_argument', message: 'the stream ended inside a message' },
    });
    const big = json({ count: 1, padding: 'x'.repeat(100) });
    expect(await endOnly(await post('Tick', big))).toEqual({
      error: { code: 'resource_exhausted', message: `message of ${big.length - 5} bytes is larger than the limit of 64 bytes` },
    });
    const endFlagged = envelope(2, new TextEncoder().encode('{}'));
    expect(await endOnly(await post('Tick', endFlagged))).toMatchObject({ error: { code: 'invalid_argument' } });
  });

  it('inflates gzip messages when connect-content-encoding says gzip, within the message limit', async () => {
    const packed = envelope(FLAG_COMPRESSED, gzipSync(JSON.stringify({ count: 1 })));
    const all = await frames(await post('Tick', packed, { 'connect-content-encoding': 'gzip' }));
    expect(all.map((f) => f.text)).toEqual(['{"n":1}', '{}']);
    expect(await endOnly(await post('Tick', packed))).toMatchObject({
      error: { code: 'invalid_argument', message: expect.stringContaining('flagged compressed') },
    });
    expect(await endOnly(await post('Tick', json({ count: 1 }), { 'connect-content-encoding': 'br' }))).toEqual({
      error: { code: 'unimplemented', message: 'connect-content-encoding br is not supported; supported: gzip, identity' },
    });
    const bomb = envelope(FLAG_COMPRESSED, gzipSync(JSON.stringify({ count: 1, padding: 'x'.repeat(10_000) })));
    expect(await endOnly(await post('Tick', bomb, { 'connect-content-encoding': 'gzip' }))).toMatchObject({
      error: { code: 'resource_exhausted' },
    });
  });

  it('ends the stream with deadline_exceeded when the deadline passes mid-stream, and lets the handler clean up', async () => {
    const before = cleanups.length;
    const response = await post('Tick', json({ count: 1, hang: true }), { 'connect-timeout-ms': '100' });
    const all = await frames(response);
    expect(all.map((f) => [f.flags, f.text])).toEqual([
      [0, '{"n":1}'],
      [2, '{"error":{"code":"deadline_exceeded","message":"deadline of 100 ms exceeded"}}'],
    ]);
    await expect.poll(() => cleanups.slice(before)).toEqual(['tick 1']);
  });

  it('reports a handler crash as internal, its message withheld, and hands the error to onError', async () => {
    const all = await frames(await post('Tick', json({ count: 1, crash: true })));
    expect(all.map((f) => f.text)).toEqual(['{"n":1}', expect.stringContaining('"code":"internal"')]);
    expect(all[1]!.text).not.toContain('disk on fire');
    expect(errors.some((e) => e instanceof Error && e.message === 'disk on fire')).toBe(true);
  });

  it('stops the handler when the client goes away mid-stream', async () => {
    const before = cleanups.length;
    const controller = new AbortController();
    const response = await post('Tick', json({ count: 5, gate: true }), {}, controller.signal);
    const reader = response.body!.getReader();
    await reader.read(); // the first message; the handler now waits
    controller.abort();
    release();
    await expect.poll(() => cleanups.slice(before)).toEqual(['tick 5']);
  });

  it('reads a client stream as it arrives, whatever the chunking', async () => {
    const body = new Uint8Array([...json({ n: 2 }), ...json({ n: 3 }), ...json({ n: 4 })]);
    // Sent a few bytes at a time: envelopes straddle the chunks.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < body.length; i += 3) controller.enqueue(body.slice(i, i + 3));
        controller.close();
      },
    });
    const response = await fetch(`${base}/demo.v1.Ticker/Sum`, {
      method: 'POST',
      body: chunks,
      headers: { 'content-type': 'application/connect+json' },
      duplex: 'half',
    } as RequestInit);
    expect((await frames(response)).map((f) => f.text)).toEqual(['{"n":9}', '{}']);
  });
});

describe('the Connect client on streams', () => {
  it('streams from the server over a real socket in both encodings, and sends client streams', async () => {
    for (const binary of [undefined, protobufBinary]) {
      const client = clientModule.createTickerConnectClient({ baseUrl: base, binary });
      const seen: number[] = [];
      for await (const t of client.tick({ count: 2 })) seen.push(t.n);
      expect(seen).toEqual([1, 2]);
      async function* ticks() {
        for (const n of [5, 6, 7]) yield { n };
      }
      expect(await client.sum(ticks())).toEqual({ n: 18 });
    }
  });

  it('throws the end-of-stream error, and names a stream cut short or without its end', async () => {
    const client = (body: Uint8Array<ArrayBuffer>) =>
      clientModule.createTickerConnectClient({
        baseUrl: 'http://ticker',
        fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'application/connect+json' } }),
      });
    const drain = async (body: Uint8Array<ArrayBuffer>) => {
      for await (const _ of client(body).tick({ count: 1 })) void _;
    };
    const end = (value: unknown) => envelope(2, new TextEncoder().encode(JSON.stringify(value)));
    await expect(drain(end({ error: { code: 'permission_denied', message: 'no' } }))).rejects.toMatchObject({
      name: 'RpcError',
      code: 'permission_denied',
      message: 'no',
    });
    await expect(drain(json({ n: 1 }))).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('without its end-of-stream message'),
    });
    await expect(drain(json({ n: 1 }).slice(0, 6))).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('ended inside a message'),
    });
    await expect(drain(envelope(FLAG_COMPRESSED, new Uint8Array([1])))).rejects.toMatchObject({ code: 'internal' });
    await expect(drain(new Uint8Array([...json({ n: 'x' }), ...end({})]))).rejects.toMatchObject({ code: 'internal' });
    const proxyPage = clientModule.createTickerConnectClient({
      baseUrl: 'http://ticker',
      fetch: async () => new Response('<html>maintenance</html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    });
    await expect(
      (async () => {
        for await (const _ of proxyPage.tick({ count: 1 })) void _;
      })(),
    ).rejects.toMatchObject({
      code: 'internal',
      message: 'http://ticker/demo.v1.Ticker/Tick answered a stream with content type text/html',
    });
  });
});
