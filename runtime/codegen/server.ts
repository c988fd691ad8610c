/**
 * @module
 * The runtime entry generated servers import (`loom/runtime/server`): the
 * decorator runtime's names (contracts.md §4) and the RPC servers (§5).
 */
import type { Context as HonoContext } from 'hono';
import { Context as ContextDecorator } from '../rest/index.js';

export type {
  FormBodyOptions,
  FormField,
  FormFields,
  FormFieldType,
  FormSeparator,
  HandlerResult,
  ValidateFunction,
} from '../rest/index.js';
export {
  BadRequestError,
  BeanParam,
  BodyParam,
  CatchWith,
  Consumes,
  CookieParam,
  createRestRouter,
  DELETE,
  DefaultValue,
  FormParam,
  formBody,
  GET,
  HEAD,
  Header,
  HeaderParam,
  HttpError,
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
  Response,
  RestResponse,
  RouteOrder,
  Status,
  TRACE,
} from '../rest/index.js';

/**
 * `@Context()` injects Hono's `Context`; the same name is its type, so generated
 * code reads `@Context() ctx: Context` with one import.
 */
export const Context = ContextDecorator;
export type Context = HonoContext;

export type {
  ConnectApp,
  ConnectRoutesOptions,
  GrpcServer,
  GrpcServiceOptions,
  RpcContext,
  RpcServiceDescriptor,
  RpcServiceImpl,
} from '../rpc/index.js';
export { addGrpcService, CONNECT_ERRORS, connectCall, connectRoutes, connectStream, RpcError } from '../rpc/index.js';
