/**
 * @module
 * Loom's decorator runtime on Hono, as `loom/rest` publishes it: decorated classes become routes
 * with typed parameters, conversions, validation, content negotiation, security, events,
 * interceptors and a fluent response builder. It imports no `node:` module, so it runs on every
 * runtime Hono runs on; the Node-only parts (`@Blocking`, the file writer, the upload folder,
 * Node streams, `resourcesIn`) come from `loom/rest/node`.
 *
 * One spelling is canonical for each concept; the other libraries' vocabulary is kept beside it
 * where their users expect it:
 * - build an app with `createRestRouter()`; `RestBuilder` is rest.vertx's fluent builder,
 *   `restApi({...})` xp-forge's `routes()` map;
 * - verbs are `@GET @Path('/x')` (JAX-RS, rest.vertx, what the generator writes); `@Get('/x')` is
 *   the shorthand of rest.vertx and xp-forge;
 * - the response builder is `RestResponse` (no value named `Response`, which would hide the
 *   Fetch API's).
 *
 * @example
 * ```ts
 * @Path('/users')
 * class Users {
 *   @GET @Path('/{id}')
 *   get(@PathParam('id', { type: 'integer' }) id: number) { return { id }; }
 * }
 * const app = createRestRouter().register(new Users()).app();
 * ```
 */
export {
  Path,
  GET,
  POST,
  PUT,
  PATCH,
  DELETE,
  HEAD,
  OPTIONS,
  TRACE,
  Get,
  Post,
  Put,
  Patch,
  Delete,
  Head,
  Options,
  Trace,
  Consumes,
  Produces,
  Status,
  Header,
  RouteOrder,
  Returns,
} from './decorators/route.js';
export type { ClassOrMethodDecorator, VerbShorthandOptions } from './decorators/route.js';
export {
  PathParam,
  QueryParam,
  HeaderParam,
  CookieParam,
  FormParam,
  MatrixParam,
  BodyParam,
  BeanParam,
  Context,
  DefaultValue,
  Raw,
  Convert,
  ContextReader,
} from './decorators/params.js';
export type { ContextReaderOptions, ParamDecorator } from './decorators/params.js';
export { RequestReader, ResponseWriter, SuppressCheck, ValidateResult } from './decorators/response.js';
export { CatchWith } from './decorators/errors.js';
export { Authenticate, Authorize, RolesAllowed, PermitAll, DenyAll } from './decorators/security.js';
export { Events, Event, ANY_STATUS } from './decorators/events.js';
export { NoCache } from './decorators/lifecycle.js';
export { InterceptWith, Annotate } from './decorators/interceptors.js';
export type { EventBinding } from './metadata/raw.js';
export { RestResponse } from './response.js';
export type { CookieOptions, HandlerResult } from './response.js';
export { HttpError, BadRequestError, UnauthorizedError, ForbiddenError, NotFoundError, RegistrationError } from './errors.js';
export type { ErrorBody, Violation, ViolationLocation } from './errors.js';
export { SeparatedBy, Matrix, conversion } from './convert/conversions.js';
export { ConversionError } from './convert/convert.js';
export { formBody } from './form-coercion.js';
export type { FormBodyOptions, FormField, FormFields, FormFieldType, FormSeparator } from './form-coercion.js';
export { catching } from './hono/catch.js';
export { restGetPath } from './hono/bind.js';
export { createRestRouter } from './router.js';
export type { RestRouter } from './router.js';
export { RestBuilder, restApi } from './builder.js';
export type { RestApiEntry } from './builder.js';
export { requirePermissions } from './permissions.js';
export { Paging, Pagination } from './paging.js';
export type { PagingOptions, PaginateOptions } from './paging.js';
export type { RestRouterOptions, CorsOptions, SchemaCompiler } from './config.js';
export type { NodeSupport } from './node-support.js';
export type {
  AuthenticationProvider,
  AuthorizationProvider,
  Class,
  ContextProvider,
  Conversion,
  Converter,
  EnumValues,
  ErrorClass,
  ExceptionHandler,
  HttpVerb,
  InjectionProvider,
  Interceptor,
  Invocation,
  InvocationTarget,
  ObjectQuery,
  ParamOptions,
  ParamType,
  RestEvent,
  RestUser,
  RouteInfo,
  TypeKey,
  TypeRef,
  UploadedFile,
  ValidateFunction,
  ValidationErrorObject,
  ValueReader,
  WriterOutput,
} from './types.js';
