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

export type { RestApiEntry } from './builder.js';
export { RestBuilder, restApi } from './builder.js';
export type { CorsOptions, RestRouterOptions, SchemaCompiler } from './config.js';
export { conversion, Matrix, SeparatedBy } from './convert/conversions.js';
export { ConversionError } from './convert/convert.js';
export { CatchWith } from './decorators/errors.js';
export { ANY_STATUS, Event, Events } from './decorators/events.js';
export { Annotate, InterceptWith } from './decorators/interceptors.js';
export { NoCache } from './decorators/lifecycle.js';
export type { ContextReaderOptions, ParamDecorator } from './decorators/params.js';
export {
  BeanParam,
  BodyParam,
  Context,
  ContextReader,
  Convert,
  CookieParam,
  DefaultValue,
  FormParam,
  HeaderParam,
  MatrixParam,
  PathParam,
  QueryParam,
  Raw,
} from './decorators/params.js';
export { RequestReader, ResponseWriter, SuppressCheck, ValidateResult } from './decorators/response.js';
export type { ClassOrMethodDecorator, VerbShorthandOptions } from './decorators/route.js';
export {
  Consumes,
  DELETE,
  Delete,
  GET,
  Get,
  HEAD,
  Head,
  Header,
  OPTIONS,
  Options,
  PATCH,
  Patch,
  Path,
  POST,
  Post,
  Produces,
  PUT,
  Put,
  Returns,
  RouteOrder,
  Status,
  TRACE,
  Trace,
} from './decorators/route.js';
export { Authenticate, Authorize, DenyAll, PermitAll, RolesAllowed, Security } from './decorators/security.js';
export type { ErrorBody, Violation, ViolationLocation } from './errors.js';
export { BadRequestError, ForbiddenError, HttpError, NotFoundError, RegistrationError, UnauthorizedError } from './errors.js';
export type { FormBodyOptions, FormField, FormFields, FormFieldType, FormSeparator } from './form-coercion.js';
export { formBody } from './form-coercion.js';
export { restGetPath } from './hono/bind.js';
export { catching } from './hono/catch.js';
export type { EventBinding } from './metadata/raw.js';
export type { NodeSupport } from './node-support.js';
export type { PaginateOptions, PagingOptions } from './paging.js';
export { Pagination, Paging } from './paging.js';
export { requirePermissions } from './permissions.js';
export type { CookieOptions, HandlerResult } from './response.js';
export { RestResponse } from './response.js';
export type { RestRouter } from './router.js';
export { createRestRouter } from './router.js';
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
  SecurityRequirements,
  TypeKey,
  TypeRef,
  UploadedFile,
  ValidateFunction,
  ValidationErrorObject,
  ValueReader,
  WriterOutput,
} from './types.js';
