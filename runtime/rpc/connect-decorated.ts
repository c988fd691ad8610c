/**
 * @module
 * The Connect protocol (unary) through Loom's decorator runtime, for the routes class the
 * generator prints beside each proto service (`SystemRoutes`): the same protocol as
 * {@link connectRoutes}, with the route, the verb, the accepted media types and the request
 * message spelled as decorators, so that the class sits in a `RestRouter` beside HTTP routes and
 * takes the runtime's own decorators (`@RolesAllowed`, `@Events`, `@CatchWith` of a method).
 *
 * - {@link connectMessage}: `@BodyParam` options reading the request message, binary
 *   (`application/proto`) or JSON, by its Content-Type.
 * - {@link connectCall}: the call itself, as `connectRoutes` makes it (protocol headers, deadline,
 *   `authorize`), answered in the request's encoding.
 * - {@link CONNECT_ERRORS}: the class's `@CatchWith`, answering every failure (an unreadable
 *   message, an unsupported Content-Type, an error of the handler) in Connect's error shape.
 *
 * @see https://connectrpc.com/docs/protocol
 */
import type { Context } from 'hono';
import { BadRequestError, HttpError } from '../rest/errors.js';
import type { ExceptionHandler, ParamOptions, ValueReader } from '../rest/types.js';
import { connectPeer } from './connect-request.js';
import { checkProtocolHeaders, decodeJson, encodingOf, errorResponse, runUnary, unsupportedContentType } from './connect-server.js';
import type { ConnectRoutesOptions } from './connect-server.js';
import { RpcError, toRpcError } from './errors.js';
import type { RpcContext, RpcMethodDescriptor } from './types.js';

type AnyMethod = RpcMethodDescriptor<unknown, unknown>;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `@BodyParam` options for the request message of `method`: the body is taken as bytes (an
 * empty binary body is the message with every field at its default, as protobuf says) and
 * decoded as protobuf or as JSON by the request's Content-Type.
 *
 * @example
 * getService(@BodyParam(connectMessage(SystemServiceDescriptor.methods.getService)) request: GetServiceRequest, …)
 */
export function connectMessage<I>(method: RpcMethodDescriptor<I, unknown>): ParamOptions {
  const input = method.input;
  const reader: ValueReader<I> = {
    read: (text) => decodeJson(input as AnyMethod['input'], text) as I,
    readBytes: (bytes, c) => {
      if (encodingOf(c.req.header('content-type') ?? null)) return input.decode(bytes);
      let text: string;
      try {
        text = UTF8.decode(bytes);
      } catch {
        throw new RpcError('invalid_argument', `cannot decode message ${input.typeName} from JSON: not UTF-8`);
      }
      return decodeJson(input as AnyMethod['input'], text) as I;
    },
  };
  return { reader, required: true };
}

/**
 * Runs one Connect unary call of a routes class method: checks `Connect-Protocol-Version` and
 * `Content-Encoding`, applies `Connect-Timeout-Ms` and `authorize`, calls `call` and answers in
 * the request's encoding. Failures are thrown as `RpcError`s for {@link CONNECT_ERRORS}.
 *
 * Unlike {@link connectRoutes}, this runs after the decorator runtime has read and decoded the
 * body (`@BodyParam`), so `authorize` comes after the body and `maxBodyBytes` does not apply: put
 * `connectRoutes` where unauthenticated callers or large bodies are a concern.
 *
 * @example
 * return connectCall(SystemServiceDescriptor.methods.getService, c, request, this.options, (m, ctx) => this.api.getService(m, ctx));
 */
export function connectCall<I, O>(
  method: RpcMethodDescriptor<I, O>,
  c: Context,
  message: I,
  options: ConnectRoutesOptions,
  call: (message: I, ctx: RpcContext) => Promise<O>,
): Promise<Response> {
  const request = c.req.raw;
  checkProtocolHeaders(request.headers, options.requireProtocolVersion ?? false);
  const binary = encodingOf(request.headers.get('content-type')) === true;
  return runUnary(method as AnyMethod, call as (message: unknown, ctx: RpcContext) => Promise<unknown>, message, binary, request.headers, request.signal, options, connectPeer(c));
}

/**
 * The answer of a streaming method on Connect, which serves unary calls only.
 *
 * @example
 * return connectUnimplemented(ShopServiceDescriptor.methods.watchOrders);
 */
export function connectUnimplemented(method: RpcMethodDescriptor<unknown, unknown>): never {
  throw new RpcError('unimplemented', `${method.path.slice(1)} is a streaming method; use gRPC`);
}

/**
 * The exception handler of a Connect routes class: `RpcError`s as they are; a message that
 * cannot be read is `invalid_argument`; an unsupported Content-Type is 415; other HTTP errors of
 * the runtime (401 and 403 from its security decorators) keep their status with the matching
 * code; anything else is `internal`, its message withheld.
 */
export const CONNECT_ERRORS: ExceptionHandler = {
  catches: Error,
  handle(error: unknown, c: Context): Response {
    if (error instanceof HttpError && error.status === 415) return unsupportedContentType(c.req.header('content-type') ?? null);
    if (error instanceof BadRequestError) {
      return errorResponse(new RpcError('invalid_argument', error.violations.map((v) => v.message).join('; ') || error.message));
    }
    if (error instanceof HttpError) return errorResponse(new RpcError(codeOfStatus(error.status), error.message), error.status);
    return errorResponse(toRpcError(error));
  },
};

/**
 * The Connect code a server answers for an HTTP error of the decorator runtime. Not
 * `codeFromHttpStatus`: that is a client's reading of a status without a Connect body, which
 * takes a 400 for `internal` (a broken proxy), where the runtime's 400 means bad input.
 */
function codeOfStatus(status: number): RpcError['code'] {
  switch (status) {
    case 400: return 'invalid_argument';
    case 401: return 'unauthenticated';
    case 403: return 'permission_denied';
    case 404: return 'not_found';
    case 405: case 406: return 'unimplemented';
    case 408: return 'deadline_exceeded';
    case 409: return 'aborted';
    case 413: case 429: return 'resource_exhausted';
    case 501: return 'unimplemented';
    case 503: return 'unavailable';
    case 504: return 'deadline_exceeded';
    default: return status >= 500 ? 'internal' : 'unknown';
  }
}
