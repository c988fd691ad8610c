/**
 * @module
 * Request compression on Connect unary calls: a body sent with `Content-Encoding: gzip` (as
 * connect-es and connect-go clients send it when told to) is inflated, at most to the call's body
 * limit, so that a small compressed body cannot grow past what an uncompressed one may be. Other
 * encodings are refused with `unimplemented`, naming the supported ones, as the protocol asks.
 * Answers go uncompressed, which the protocol allows whatever the client accepts: this service's
 * messages are a few dozen bytes.
 *
 * @see https://connectrpc.com/docs/protocol#unary-request
 */

import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { errorMessage, RpcError } from './errors.js';

/** A request body's encoding that this server reads. */
export type RequestEncoding = 'gzip' | 'identity';

const SUPPORTED = 'gzip, identity';
const inflate = promisify(gunzip);

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
  try {
    return await inflate(bytes, { maxOutputLength: Math.max(limit, 1) });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new RpcError('resource_exhausted', `request body inflates past the limit of ${limit} bytes`);
    }
    throw new RpcError('invalid_argument', `cannot inflate the gzip request body: ${errorMessage(error)}`);
  }
}
