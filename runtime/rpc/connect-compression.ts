/**
 * @module
 * Request compression on Connect unary calls: a body sent with `Content-Encoding: gzip` (as
 * connect-es and connect-go clients send it when told to) is inflated, at most to the call's body
 * limit, so that a small compressed body cannot grow past what an uncompressed one may be. Other
 * encodings are refused with `unimplemented`, naming the supported ones, as the protocol asks.
 * Answers go uncompressed, which the protocol allows whatever the client accepts: this service's
 * messages are a few dozen bytes.
 *
 * Inflating is the web-standard `DecompressionStream` (Node ≥ 18, Deno, Bun, browsers, workers),
 * read chunk by chunk: a decompression bomb is stopped at the first chunk past the limit.
 *
 * @see https://connectrpc.com/docs/protocol#unary-request
 */
import { errorMessage, RpcError } from './errors.js';

/** A request body's encoding that this server reads. */
export type RequestEncoding = 'gzip' | 'identity';

const SUPPORTED = 'gzip, identity';

/**
 * The request's `Content-Encoding`: `identity` when absent; `unimplemented` for one this server
 * cannot read.
 *
 * @example
 * requestEncoding(new Headers({ 'content-encoding': 'gzip' })); // 'gzip'
 */
export function requestEncoding(headers: Headers): RequestEncoding {
  const encoding = headers.get('content-encoding');
  if (encoding === null) return 'identity';
  const name = encoding.trim().toLowerCase();
  if (name === 'gzip' || name === 'identity') return name;
  throw new RpcError('unimplemented', `content-encoding ${encoding} is not supported; supported: ${SUPPORTED}`);
}

/**
 * The body as sent before `encoding`: inflated gzip, at most `limit` bytes (`resource_exhausted`
 * past it); a body that is not gzip is `invalid_argument`.
 *
 * @example
 * const bytes = await decodeBody(await readBody(request, limit), 'gzip', limit);
 */
export async function decodeBody(bytes: Uint8Array, encoding: RequestEncoding, limit: number): Promise<Uint8Array> {
  // An empty body is the empty message in every encoding (connect-go sends it uncompressed).
  if (encoding === 'identity' || bytes.byteLength === 0) return bytes;
  const compressed = new ReadableStream<BufferSource>({
    start(controller) {
      // A request body is never shared memory; the DOM typings only take ArrayBuffer-backed views.
      controller.enqueue(bytes as Uint8Array<ArrayBuffer>);
      controller.close();
    },
  });
  const reader = compressed.pipeThrough(new DecompressionStream('gzip')).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw new RpcError('resource_exhausted', `request body inflates past the limit of ${limit} bytes`);
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof RpcError) throw error;
    throw new RpcError('invalid_argument', `cannot inflate the gzip request body: ${errorMessage(error)}`);
  } finally {
    // Stopped at the limit: the rest is never inflated.
    reader.cancel().catch(() => {});
  }
  return concat(chunks, size);
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
