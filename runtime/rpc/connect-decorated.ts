/**
 * @module
 * The Connect protocol through Loom's decorator runtime, for the routes class the
 * generator prints beside each proto service (`SystemRoutes`): the same protocol as
 * {@link connectRoutes}, with the route, the verb and the accepted media types spelled as
 * decorators, so that the class sits in a `RestRouter` beside HTTP routes and takes the
 * runtime's own decorators (`@RolesAllowed`, `@Events`, `@CatchWith` of a method).
 *
 * - {@link connectCall}: the call itself, as `connectRoutes` makes it, in the same order: the
 *   headers (Content-Type, protocol version, encoding), the deadline and `authorize`, and only
 *   then the body, read at most `maxBodyBytes` bytes, answered in the request's encoding.
 * - {@link CONNECT_ERRORS}: the class's `@CatchWith`, answering every failure (an unreadable
 *   message, an unsupported Content-Type, an error of the handler) in Connect's error shape.
 *
 * The message is not a `@BodyParam`: the runtime reads a body before the method runs, and so
 * before `authorize`, which must see an unauthenticated caller before any of its bytes.
 *
 * @see https://connectrpc.com/docs/protocol
 */
import type { Context } from 'hono';
import { BadRequestError, HttpError } from '../rest/errors.js';
import type { ExceptionHandler } from '../rest/types.js';
import { connectPeer } from './connect-request.js';
import type { ConnectRoutesOptions } from './connect-server.js';
import { bodyLimitOf, errorResponse, serveConnectRequest, streamOrRefuse, unsupportedContentType } from './connect-server.js';
import type { StreamHandler } from './connect-stream.js';
import { RpcError, toRpcError } from './errors.js';
import type { RpcContext, RpcHandler, RpcMethodDescriptor } from './types.js';

type AnyMethod = RpcMethodDescriptor<unknown, unknown>;

/**
 * Runs one Connect unary call of a routes class method: refuses a Content-Type Connect does not
 * speak (415), checks `Connect-Protocol-Version` and `Content-Encoding`, applies
 * `Connect-Timeout-Ms` and `authorize`, then reads and decodes the message (at most
 * `maxBodyBytes`), calls `call` and answers in the request's encoding. Failures are thrown as
 * `RpcError`s for {@link CONNECT_ERRORS}.
 *
 * @example
 * return connectCall(SystemServiceDescriptor.methods.getService, c, this.options, (m, ctx) => this.api.getService(m, ctx));
 */
export function connectCall<I, O>(
  method: RpcMethodDescriptor<I, O>,
  c: Context,
  options: ConnectRoutesOptions,
  call: (message: I, ctx: RpcContext) => Promise<O>,
): Promise<Response> {
  const unary = call as (message: unknown, ctx: RpcContext) => Promise<unknown>;
  return serveConnectRequest(method as AnyMethod, unary, c.req.raw, connectPeer(c), options, bodyLimitOf(options));
}

/**
 * Runs one Connect streaming call of a routes class method (server, client or bidirectional):
 * refuses a Content-Type other than `application/connect+json` or `application/connect+proto`
 * (415), then answers with the stream of `connect-stream.ts`, in which the deadline, `authorize`,
 * the requests and `call`'s responses follow, and any failure ends the stream in Connect's shape.
 *
 * @example
 * return connectStream(ShopServiceDescriptor.methods.watch, c, this.options, (request, ctx) => this.api.watch(request, ctx));
 */
// biome-ignore lint/suspicious/noExplicitAny: any method of any service (as in `RpcMethods`): codecs make the message types invariant.
export function connectStream<D extends RpcMethodDescriptor<any, any>>(
  method: D,
  c: Context,
  options: ConnectRoutesOptions,
  call: RpcHandler<D>,
): Response {
  return streamOrRefuse(method as AnyMethod, call as StreamHandler, c.req.raw, connectPeer(c), options, bodyLimitOf(options));
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
    case 400:
      return 'invalid_argument';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'permission_denied';
    case 404:
      return 'not_found';
    case 405:
    case 406:
      return 'unimplemented';
    case 408:
      return 'deadline_exceeded';
    case 409:
      return 'aborted';
    case 413:
    case 429:
      return 'resource_exhausted';
    case 501:
      return 'unimplemented';
    case 503:
      return 'unavailable';
    case 504:
      return 'deadline_exceeded';
    default:
      return status >= 500 ? 'internal' : 'unknown';
  }
}
