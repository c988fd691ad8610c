/**
 * @module
 * The Connect protocol (unary) on Hono, without `@connectrpc/connect`: one
 * `POST /<package>.<Service>/<Method>` route per RPC that reads
 * `application/json` or `application/proto`, calls the handler and answers in
 * the same encoding, or with a Connect error (`{ "code", "message" }` and the
 * protocol's HTTP status).
 *
 * @see https://connectrpc.com/docs/protocol
 */
import { Hono } from 'hono';
import { RpcError, errorMessage, toRpcError } from './errors.js';
import type { RpcContext, RpcMethodDescriptor, RpcMethods, RpcServerOptions, RpcServiceDescriptor, RpcServiceImpl } from './types.js';

/** Options for {@link connectRoutes}. */
export interface ConnectRoutesOptions extends RpcServerOptions {
  /**
   * Refuse requests without `Connect-Protocol-Version: 1`. Connect clients send it;
   * requiring it keeps plain `fetch` and form posts out.
   * @default false
   */
  readonly requireProtocolVersion?: boolean;
}

type AnyMethod = RpcMethodDescriptor<unknown, unknown>;
type UnaryHandler = (request: unknown, ctx: RpcContext) => Promise<unknown>;

const JSON_HEADERS: HeadersInit = { 'content-type': 'application/json' };
const PROTO_HEADERS: HeadersInit = { 'content-type': 'application/proto' };

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
    app.post(method.path, (c) => handler(c.req.raw));
    // Connect unary GET needs `idempotency_level = NO_SIDE_EFFECTS`; without it only POST is allowed.
    app.on(['GET', 'PUT', 'PATCH', 'DELETE'], method.path, () =>
      new Response(null, { status: 405, headers: { allow: 'POST' } }),
    );
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
): (request: Request) => Promise<Response> {
  const { requireProtocolVersion = false } = options;
  const input = method.input;
  // Known at registration: such a method answers every request with the same error.
  if (method.clientStreaming || method.serverStreaming) return refuse(new RpcError('unimplemented', `${method.path.slice(1)} is a streaming method; use gRPC`));
  if (!fn) return refuse(new RpcError('unimplemented', `${method.path.slice(1)} is not implemented`));
  const bound = fn.bind(self);
  return async function connectUnary(request: Request): Promise<Response> {
    try {
      const headers = request.headers;
      const binary = encodingOf(headers.get('content-type'));
      if (binary === undefined) return unsupportedContentType(headers.get('content-type'));
      checkProtocolHeaders(headers, requireProtocolVersion);
      const message = binary ? input.decode(new Uint8Array(await request.arrayBuffer())) : decodeJson(input, await request.text());
      return await runUnary(method, bound, message, binary, headers, request.signal, options);
    } catch (error) {
      return errorResponse(toRpcError(error));
    }
  };
}

/**
 * One unary call after its message is decoded: the deadline of `Connect-Timeout-Ms`, `authorize`,
 * the handler, and the answer in the request's encoding. Throws an `RpcError` for anything that
 * went wrong (an unexpected error is reported to `onError` first, and becomes `internal`).
 */
export async function runUnary(
  method: AnyMethod,
  call: UnaryHandler,
  message: unknown,
  binary: boolean,
  headers: Headers,
  requestSignal: AbortSignal,
  options: RpcServerOptions,
): Promise<Response> {
  const timeout = parseTimeout(headers.get('connect-timeout-ms'));
  let signal = requestSignal;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let deadline: Promise<never> | undefined;
  if (timeout !== undefined) {
    const controller = new AbortController();
    signal = AbortSignal.any([requestSignal, controller.signal]);
    deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new RpcError('deadline_exceeded', `deadline of ${timeout} ms exceeded`);
        controller.abort(error);
        reject(error);
      }, timeout);
    });
  }
  // Both parts exist already, so a plain object (gRPC builds them lazily: `GrpcCallContext`).
  const ctx: RpcContext = { method, protocol: 'connect', headers, signal };
  try {
    if (options.authorize) await options.authorize(ctx);
    const pending = call(message, ctx);
    const result = deadline ? await Promise.race([pending, deadline]) : await pending;
    const output = method.output;
    if (binary) return new Response(output.encode(result as never) as Uint8Array<ArrayBuffer>, { status: 200, headers: PROTO_HEADERS });
    return new Response(JSON.stringify(output.toJson(result as never)), { status: 200, headers: JSON_HEADERS });
  } catch (error) {
    const rpc = toRpcError(error);
    if (rpc !== error && options.onError) options.onError(error, ctx);
    throw rpc;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** `Connect-Protocol-Version` (when sent, or when required) and `Content-Encoding` (identity only). */
export function checkProtocolHeaders(headers: Headers, requireProtocolVersion: boolean): void {
  const version = headers.get('connect-protocol-version');
  if (version !== null ? version !== '1' : requireProtocolVersion) {
    throw new RpcError('invalid_argument', `connect-protocol-version must be "1", got ${version === null ? 'none' : JSON.stringify(version)}`);
  }
  const encoding = headers.get('content-encoding');
  if (encoding !== null && encoding !== 'identity') {
    throw new RpcError('unimplemented', `content-encoding ${encoding} is not supported`);
  }
}

/** The 415 a request that is neither JSON nor binary protobuf gets. */
export function unsupportedContentType(contentType: string | null): Response {
  return errorResponse(
    new RpcError('invalid_argument', `unsupported content type ${contentType ?? '(none)'}; use application/json or application/proto`),
    415,
    { 'accept-post': 'application/json, application/proto' },
  );
}

/** A message from its JSON text; malformed JSON is `invalid_argument`. */
export function decodeJson(input: AnyMethod['input'], text: string): unknown {
  return input.fromJson(parseJson(text, input.typeName));
}

/** A handler that answers every request with `error`, for methods Connect cannot serve. */
function refuse(error: RpcError): (request: Request) => Promise<Response> {
  return async function connectRefused() {
    return errorResponse(error);
  };
}

/** `true` for binary, `false` for JSON, `undefined` for anything else. */
export function encodingOf(contentType: string | null): boolean | undefined {
  if (contentType === null) return undefined;
  const semi = contentType.indexOf(';');
  const mime = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  if (mime === 'application/json') return false;
  if (mime === 'application/proto') return true;
  return undefined;
}

function parseJson(text: string, typeName: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RpcError('invalid_argument', `cannot decode message ${typeName} from JSON: ${errorMessage(error)}`);
  }
}

/** `Connect-Timeout-Ms`: up to 10 positive digits, per the protocol. */
function parseTimeout(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (!/^\d{1,10}$/.test(value)) throw new RpcError('invalid_argument', `invalid connect-timeout-ms ${JSON.stringify(value)}`);
  return Number(value);
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
