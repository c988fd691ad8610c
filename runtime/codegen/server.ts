/**
 * @module
 * The runtime entry generated servers import (`loom/runtime/server`): the
 * decorator runtime's names (contracts.md §4) and the RPC servers (§5), the latter re-exported
 * from `runtime/entries/` (`connect/server.ts`, `grpc.ts`) until generated code imports those.
 */
import type { Context as HonoContext } from 'hono';
import { Context as ContextDecorator } from '../rest/index.js';

export {
  BeanParam,
  BodyParam,
  Consumes,
  CookieParam,
  DefaultValue,
  DELETE,
  FormParam,
  GET,
  HEAD,
  Header,
  HeaderParam,
  MatrixParam,
  OPTIONS,
  PATCH,
  Path,
  PathParam,
  POST,
  Produces,
  PUT,
  QueryParam,
  Raw,
  RouteOrder,
  Status,
  TRACE,
  BadRequestError,
  CatchWith,
  HttpError,
  Response,
  RestResponse,
  createRestRouter,
} from '../rest/index.js';
export type { HandlerResult, ValidateFunction } from '../rest/index.js';
export { formBody } from '../rest/index.js';
export type { FormBodyOptions, FormField, FormFields, FormFieldType, FormSeparator } from '../rest/index.js';

/**
 * `@Context()` injects Hono's `Context`; the same name is its type, so generated
 * code reads `@Context() ctx: Context` with one import.
 */
export const Context = ContextDecorator;
export type Context = HonoContext;

export { CONNECT_ERRORS, connectCall, connectRoutes, connectStream, RpcError } from '../entries/connect/server.js';
export type { ConnectApp, ConnectRoutesOptions, RpcContext, RpcServiceDescriptor, RpcServiceImpl } from '../entries/connect/server.js';
export { addGrpcService } from '../entries/grpc.js';
export type { GrpcServer, GrpcServiceOptions } from '../entries/grpc.js';
