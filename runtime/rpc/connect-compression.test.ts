/** Request bodies sent gzip: inflated through the web-standard DecompressionStream, never past the call's limit. */
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeBody, requestEncoding } from './connect-compression.js';
import { RpcError } from './errors.js';

/** How many inflated bytes a DecompressionStream handed out, counted at its readable side. */
let inflated = 0;
const NativeDecompressionStream = globalThis.DecompressionStream;

class CountingDecompressionStream {
  readonly writable: WritableStream<BufferSource>;
  readonly readable: ReadableStream<Uint8Array>;

  constructor(format: CompressionFormat) {
    const native = new NativeDecompressionStream(format);
    this.writable = native.writable;
    this.readable = native.readable.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          inflated += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  inflated = 0;
});

async function errorOf(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

describe('decodeBody', () => {
  it('inflates gzip, and passes identity and empty bodies through', async () => {
    const text = '{"name":"db"}';
    expect(new TextDecoder().decode(await decodeBody(gzipSync(text), 'gzip', 100))).toBe(text);
    const plain = new TextEncoder().encode(text);
    expect(await decodeBody(plain, 'identity', 100)).toBe(plain);
    expect((await decodeBody(new Uint8Array(0), 'gzip', 100)).byteLength).toBe(0);
    expect((await decodeBody(gzipSync(''), 'gzip', 0)).byteLength).toBe(0);
  });

  it('refuses a body that is not gzip, or is cut short, with invalid_argument', async () => {
    const notGzip = await errorOf(decodeBody(new TextEncoder().encode('{"name":"db"}'), 'gzip', 100));
    expect([notGzip.code, notGzip.message]).toEqual(['invalid_argument', 'cannot inflate the gzip request body: incorrect header check']);
    const truncated = await errorOf(decodeBody(gzipSync('x'.repeat(100)).subarray(0, 10), 'gzip', 1000));
    expect([truncated.code, truncated.message]).toEqual([
      'invalid_argument',
      'cannot inflate the gzip request body: unexpected end of file',
    ]);
  });

  it('stops a decompression bomb at the limit, inflating no more than one chunk past it', async () => {
    vi.stubGlobal('DecompressionStream', CountingDecompressionStream);
    const limit = 1024 * 1024;
    // 64 MiB of zeros: about 64 KiB of gzip.
    const bomb = gzipSync(new Uint8Array(64 * 1024 * 1024));
    const error = await errorOf(decodeBody(bomb, 'gzip', limit));
    expect([error.code, error.message]).toEqual(['resource_exhausted', `request body inflates past the limit of ${limit} bytes`]);
    expect(inflated).toBeGreaterThan(limit);
    expect(inflated).toBeLessThanOrEqual(limit + 64 * 1024);
  });
});

describe('requestEncoding', () => {
  it('reads gzip and identity, and refuses any other with unimplemented', () => {
    expect(requestEncoding(new Headers())).toBe('identity');
    expect(requestEncoding(new Headers({ 'content-encoding': ' GZIP ' }))).toBe('gzip');
    expect(() => requestEncoding(new Headers({ 'content-encoding': 'br' }))).toThrow(
      'content-encoding br is not supported; supported: gzip, identity',
    );
  });
});
