/**
 * @module
 * The Connect protocol on Hono, without `@connectrpc/connect`: one
 * `POST /<package>.<Service>/<Method>` route per RPC. A unary one reads `application/json` or
 * `application/proto`, calls the handler and answers in the same encoding, or with a Connect error
 * (`{ "code", "message" }` and the protocol's HTTP status); a streaming one speaks Connect's
 * enveloped streams (`connect-stream.ts`).
 *
 * A call is checked in the order that costs least to a server under abuse: headers first
 * (content type, protocol version, deadline), then `authorize` (which sees headers and the peer
 * only), then the body, read at most `maxBodyBytes` bytes, then the handler.
 *
 * @see https://connectrpc.com/docs/protocol
 */
import { Hono } from 'hono';
import { decodeBody, type RequestEncoding, requestEncoding } from './connect-compression.js';
import { connectPeer, DEFAULT_MAX_BODY_BYTES, mediaTypeOf, readBody } from './connect-request.js';
import { parseJson, type StreamHandler, serveConnectStream, streamEncodingOf } from './connect-stream.js';
import { armDeadline } from './connect-timeout.js';
import { RpcError, toRpcError } from './errors.js';
import { protobufBinary } from './protobuf-binary.js';
import type {
  RpcContext,
  RpcMethodDescriptor,
  RpcMethods,
  RpcPeer,
  RpcServerOptions,
  RpcServiceDescriptor,
  RpcServiceImpl,
} from './types.js';

/** Options for {@link connectRoutes}. */
export interface ConnectRoutesOptions extends RpcServerOptions {
  /**
   * Refuse requests without `Connect-Protocol-Version: 1`. Connect clients send it;
   * requiring it keeps plain `fetch` and form posts out.
   * @default false
   */
  readonly requireProtocolVersion?: boolean;
  /**
   * The largest request body accepted, in bytes. A larger one is refused with
   * `resource_exhausted` (HTTP 429): at once when `Content-Length` declares it, otherwise as
   * soon as that many bytes have arrived, without reading the rest.
   * @default 4194304 (4 MiB, grpc-js' default receive limit, so both transports take the same messages)
   */
  readonly maxBodyBytes?: number;
}

type AnyMethod = RpcMethodDescriptor<unknown, unknown>;
type UnaryHandler = (request: unknown, ctx: RpcContext) => Promise<unknown>;

const JSON_HEADERS: HeadersInit = { 'content-type': 'application/json' };
const PROTO_HEADERS: HeadersInit = { 'content-type': 'application/proto' };
// Not fatal, as `Request.text()` was: a stray byte becomes U+FFFD, which name validation refuses.
const TEXT = new TextDecoder();

/**
 * A Hono app serving `impl` over the Connect protocol. Mount it with `app.route('/', …)`.
 *
 * @example
 * ```ts
 * const app = new Hono();
 * app.route('/', connectRoutes(SystemServiceDescriptor, new SystemHandler(), { authorize: requireToken }));
 * // curl -H 'content-type: application/json' -d '{"name":"sshd"}' localhost:3000/v1alpha1.System/GetService
 * ```
 */
export function connectRoutes<M extends RpcMethods>(
  descriptor: RpcServiceDescriptor<M>,
  impl: RpcServiceImpl<M>,
  options: ConnectRoutesOptions = {},
): Hono {
  const app = new Hono();
  for (const method of Object.values(descriptor.methods) as AnyMethod[]) {
    const handler = connectHandler(method, (impl as Record<string, UnaryHandler>)[method.localName], impl, options);
    app.post(method.path, (c) => handler(c.req.raw, connectPeer(c)));
    // Every other verb on a method that exists (GET, OPTIONS, PUT, …) is 405, not the 404 of an
    // unknown method: Connect unary GET needs `idempotency_level = NO_SIDE_EFFECTS`, which these
    // methods lack, so only POST is allowed.
    app.all(method.path, () => new Response(null, { status: 405, headers: { allow: 'POST' } }));
  }
  // Connect clients read a 404 as `unimplemented`; say so in the protocol's own shape.
  app.all(`/${descriptor.typeName}/*`, (c) =>
    errorResponse(new RpcError('unimplemented', `${new URL(c.req.url).pathname.slice(1)} is not implemented`), 404),
  );
  return app;
}

/**
 * The fetch-style handler for one Connect unary method: `Request` in, `Response` out.
 * Exposed so that other routers (or the decorator runtime) can mount it.
 */
export function connectHandler(
  method: AnyMethod,
  fn: UnaryHandler | undefined,
  self: unknown,
  options: ConnectRoutesOptions = {},
): (request: Request, peer?: RpcPeer) => Promise<Response> {
  const maxBodyBytes = bodyLimitOf(options);
  // Known at registration: such a method answers every request with the same error.
  if (!fn) return refuse(new RpcError('unimplemented', `${method.path.slice(1)} is not implemented`));
  if (method.clientStreaming || method.serverStreaming) {
    const stream = fn.bind(self) as StreamHandler;
    return async function connectStreamed(request: Request, peer?: RpcPeer): Promise<Response> {
      return streamOrRefuse(method, stream, request, peer, options, maxBodyBytes);
    };
  }
  const bound = fn.bind(self);
  return async function connectUnary(request: Request, peer?: RpcPeer): Promise<Response> {
    try {
      return await serveConnectRequest(method, bound, request, peer, options, maxBodyBytes);
    } catch (error) {
      return errorResponse(toRpcError(error));
    }
  };
}

/**
 * One Connect unary request, for {@link connectHandler} and the decorator runtime's routes class
 * (`connectCall`): the Content-Type (415 for one Connect does not speak), `Connect-Protocol-Version`
 * and `Content-Encoding`, then the deadline and `authorize`, and only then the body, at most
 * `maxBodyBytes` sent and as many inflated, decoded as protobuf or proto3 JSON (an empty binary
 * body is the message with every field at its default). Throws an `RpcError` for anything that
 * went wrong.
 */
export async function serveConnectRequest(
  method: AnyMethod,
  call: UnaryHandler,
  request: Request,
  peer: RpcPeer | undefined,
  options: ConnectRoutesOptions,
  maxBodyBytes: number,
): Promise<Response> {
  const headers = request.headers;
  const binary = encodingOf(headers.get('content-type'));
  if (binary === undefined) return unsupportedContentType(headers.get('content-type'));
  const encoding = checkProtocolHeaders(headers, options.requireProtocolVersion ?? false);
  const input = method.input;
  const readMessage = async () => {
    const bytes = await decodeBody(await readBody(request, maxBodyBytes), encoding, maxBodyBytes);
    return binary ? protobufBinary.decode(input, bytes) : decodeJson(input, TEXT.decode(bytes));
  };
  return serveUnary(method, call, readMessage, binary, headers, request.signal, peer, options);
}

/**
 * The deadline, then `authorize` (headers and peer only), then `readMessage` (the body), then the
 * handler, and the answer in the request's encoding.
 */
async function serveUnary(
  method: AnyMethod,
  call: UnaryHandler,
  readMessage: () => Promise<unknown>,
  binary: boolean,
  headers: Headers,
  requestSignal: AbortSignal,
  peer: RpcPeer | undefined,
  options: RpcServerOptions,
): Promise<Response> {
  const { signal, expired: deadline, deadlineSignal, clear } = armDeadline(headers.get('connect-timeout-ms'), requestSignal);
  // Every part exists already, so a plain object (gRPC builds them lazily: `GrpcCallContext`).
  const ctx: RpcContext =
    peer === undefined ? { method, protocol: 'connect', headers, signal } : { method, protocol: 'connect', headers, signal, peer };
  try {
    if (options.authorize) await options.authorize(ctx);
    const message = deadline ? await Promise.race([readMessage(), deadline]) : await readMessage();
    // The deadline may have passed while the message arrived, its rejection not yet seen.
    deadlineSignal?.throwIfAborted();
    const pending = call(message, ctx);
    const result = deadline ? await Promise.race([pending, deadline]) : await pending;
    return answer(method, result, binary, ctx, options);
  } catch (error) {
    const rpc = toRpcError(error);
    if (rpc !== error && options.onError) options.onError(error, ctx);
    throw rpc;
  } finally {
    clear();
  }
}

/**
 * The handler's result in the request's encoding. A result the codec refuses (two members of one
 * oneof, a missing proto2 `required` field) is the server's fault, so the client gets `internal`,
 * not the codec's `invalid_argument`, and `onError` hears of it.
 */
function answer(method: AnyMethod, result: unknown, binary: boolean, ctx: RpcContext, options: RpcServerOptions): Response {
  let body: BodyInit;
  try {
    body = binary
      ? (protobufBinary.encode(method.output, result as never) as Uint8Array<ArrayBuffer>)
      : JSON.stringify(method.output.toJson(result as never));
  } catch (error) {
    options.onError?.(error, ctx);
    throw new RpcError('internal', `the answer of ${method.path.slice(1)} cannot be encoded`, { cause: error });
  }
  return new Response(body, { status: 200, headers: binary ? PROTO_HEADERS : JSON_HEADERS });
}

/**
 * Checks `Connect-Protocol-Version` (when sent, or when required) and `Content-Encoding`, and
 * returns the body's encoding (`connect-compression.ts`).
 */
function checkProtocolHeaders(headers: Headers, requireProtocolVersion: boolean): RequestEncoding {
  const version = headers.get('connect-protocol-version');
  if (version !== null ? version !== '1' : requireProtocolVersion) {
    throw new RpcError(
      'invalid_argument',
      `connect-protocol-version must be "1", got ${version === null ? 'none' : JSON.stringify(version)}`,
    );
  }
  return requestEncoding(headers);
}

/**
 * One Connect streaming call (`connect-stream.ts`), or the 415 its Content-Type earns when it is
 * not one of Connect's two stream types; for {@link connectHandler} and the routes class alike.
 */
export function streamOrRefuse(
  method: AnyMethod,
  handler: StreamHandler,
  request: Request,
  peer: RpcPeer | undefined,
  options: ConnectRoutesOptions,
  maxBodyBytes: number,
): Response {
  const contentType = request.headers.get('content-type');
  if (streamEncodingOf(contentType) === undefined) return unsupportedStreamContentType(contentType);
  return serveConnectStream(method, handler, request, peer, options, maxBodyBytes);
}

/** The 415 a streaming method answers to a Content-Type other than Connect's two stream types. */
function unsupportedStreamContentType(contentType: string | null): Response {
  return errorResponse(
    new RpcError(
      'invalid_argument',
      `unsupported content type ${contentType ?? '(none)'} for a streaming method; ` +
        `use application/connect+json or application/connect+proto`,
    ),
    415,
    { 'accept-post': 'application/connect+json, application/connect+proto' },
  );
}

/** The 415 a request that is neither JSON nor binary protobuf gets. */
export function unsupportedContentType(contentType: string | null): Response {
  return errorResponse(
    new RpcError('invalid_argument', `unsupported content type ${contentType ?? '(none)'}; use application/json or application/proto`),
    415,
    { 'accept-post': 'application/json, application/proto' },
  );
}

/**
 * A message from its JSON text; malformed JSON is `invalid_argument`. Unknown fields are skipped,
 * as the binary decoder skips unknown field numbers and as other Connect servers (connect-go,
 * connect-es) read JSON: a client built from a newer schema still gets through.
 */
function decodeJson(input: AnyMethod['input'], text: string): unknown {
  return input.fromJson(parseJson(text, input.typeName), { ignoreUnknownFields: true });
}

/** `maxBodyBytes` of the options, or the default; a `RangeError` for a value that is no byte count. */
export function bodyLimitOf(options: ConnectRoutesOptions): number {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`maxBodyBytes must be a non-negative integer, got ${limit}`);
  return limit;
}

/** A handler that answers every request with `error`, for methods Connect cannot serve. */
function refuse(error: RpcError): (request: Request) => Promise<Response> {
  return async function connectRefused() {
    return errorResponse(error);
  };
}

/** `true` for binary, `false` for JSON, `undefined` for anything else. */
function encodingOf(contentType: string | null): boolean | undefined {
  const mime = mediaTypeOf(contentType);
  if (mime === 'application/json') return false;
  if (mime === 'application/proto') return true;
  return undefined;
}

/** A Connect error response: JSON body `{ code, message }` and the code's HTTP status. */
export function errorResponse(error: RpcError, status = error.httpStatus, extraHeaders?: Record<string, string>): Response {
  return new Response(JSON.stringify(error.toJSON()), {
    status,
    headers: extraHeaders ? { 'content-type': 'application/json', ...extraHeaders } : JSON_HEADERS,
  });
}

/** The Hono app {@link connectRoutes} returns; named so generated code need not import Hono. */
export type ConnectApp = Hono;
