/**
 * @module
 * Reading a Connect request beyond its headers: its body, within a size limit, and the peer it
 * came from, read from the Node socket under `@hono/node-server`. Apart from the protocol
 * (`connect-server.ts`) because both concern the HTTP server underneath, not Connect.
 */
import type { Context } from 'hono';
import { readWithin } from '../rest/io/bounded-read.js';
import { errorMessage, RpcError } from './errors.js';
import type { RpcPeer } from './types.js';

/**
 * The media type of a Content-Type, lower-case and without parameters; `''` when there is none.
 *
 * @example
 * mediaTypeOf('Application/JSON; charset=utf-8'); // 'application/json'
 */
export function mediaTypeOf(contentType: string | null): string {
  if (contentType === null) return '';
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

/** The default of `ConnectRoutesOptions.maxBodyBytes`: 4 MiB, as grpc-js' `grpc.max_receive_message_length`. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The whole body of `request`, at most `limit` bytes: a larger `Content-Length` is refused before
 * anything is read, and a body without one (chunked) is read as a stream and refused as soon as it
 * passes the limit.
 * Either way the error is `resource_exhausted`; what is left unread is left to the HTTP server
 * (`@hono/node-server` drains or closes the connection after the answer).
 */
export async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit, `of ${declared} bytes`);
  let bytes: Uint8Array | undefined;
  try {
    // A declared length within the limit bounds the body already (the HTTP parser delivers no
    // more than it), and `arrayBuffer()` is `@hono/node-server`'s direct path, not a web stream.
    if (declared !== null) return new Uint8Array(await request.arrayBuffer());
    if (request.body === null) return new Uint8Array(0);
    bytes = await readWithin(request.body, limit);
  } catch (error) {
    throw unreadable(request, error);
  }
  if (bytes === undefined) throw tooLarge(limit);
  return bytes;
}

/** The client went away (or broke the framing) while sending: nothing to decode. */
function unreadable(request: Request, error: unknown): RpcError {
  return new RpcError(request.signal.aborted ? 'canceled' : 'invalid_argument', `cannot read the request body: ${errorMessage(error)}`, {
    cause: error,
  });
}

function tooLarge(limit: number, size?: string): RpcError {
  return new RpcError(
    'resource_exhausted',
    `request body ${size === undefined ? '' : `${size} `}is larger than the limit of ${limit} bytes`,
  );
}

/**
 * Where a request came from, read from the Node socket `@hono/node-server` puts in the context's
 * bindings (`c.env.incoming`, or `c.env.server.incoming` when nested); undefined when the request
 * came some other way (`app.request()`, another runtime).
 */
export function connectPeer(c: Context): RpcPeer | undefined {
  const env = c.env as NodeBindings | undefined;
  const socket = (env?.server ?? env)?.incoming?.socket;
  if (socket === undefined || socket === null) return undefined;
  const address = socket.remoteAddress;
  // A Unix socket has no peer address; a TCP socket closed before this read has lost its own.
  const unixSocket = address === undefined && typeof socket.server?.address?.() === 'string';
  return { address, unixSocket };
}

/** The parts of `@hono/node-server`'s bindings {@link connectPeer} reads. */
interface NodeBindings {
  readonly server?: NodeBindings;
  readonly incoming?: {
    readonly socket?: {
      readonly remoteAddress?: string;
      readonly server?: { address?(): unknown } | null;
    } | null;
  };
}
