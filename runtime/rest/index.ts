/**
 * @module
 * Loom's decorator runtime on Hono: decorated classes become routes with typed parameters,
 * conversions, validation, content negotiation, security, events and a fluent response builder.
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

export type { Context as HonoContext } from 'hono';
export type { RestApiEntry } from './builder.js';
export { RestBuilder, restApi } from './builder.js';
export type { CorsOptions, RestRouterOptions, SchemaCompiler, WorkerPoolOptions } from './config.js';
export { conversion, Matrix, SeparatedBy } from './convert/conversions.js';
export { ConversionError } from './convert/convert.js';
export { CatchWith } from './decorators/errors.js';
export { ANY_STATUS, Event, Events } from './decorators/events.js';
export { Blocking, NoCache } from './decorators/lifecycle.js';
export type { ParamDecorator } from './decorators/params.js';
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
  HONO_CONTEXT,
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
export { Authenticate, Authorize, DenyAll, PermitAll, RolesAllowed } from './decorators/security.js';
export type { ErrorBody, Violation, ViolationLocation } from './errors.js';
export {
  BadRequestError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  RegistrationError,
  reasonPhrase,
  UnauthorizedError,
} from './errors.js';
export type { FormBodyOptions, FormField, FormFields, FormFieldType, FormSeparator } from './form-coercion.js';
export { formBody } from './form-coercion.js';
export { restGetPath } from './hono/bind.js';
export { catching } from './hono/catch.js';
export { negotiate } from './io/negotiate.js';
export { JSON_READER, JSON_WRITER, TEXT_WRITER } from './io/registry.js';
export type { BlockingOptions, EventBinding } from './metadata/raw.js';
export { requirePermissions } from './permissions.js';
export type { CookieOptions, HandlerResult, ResponseBody } from './response.js';
export { Response, RestResponse } from './response.js';
export { createRestRouter, pushContext, RestRouter } from './router.js';
export { contentTypeOf, fileWriter } from './static-files.js';
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
  ObjectQuery,
  ParamOptions,
  ParamType,
  RestEvent,
  RestUser,
  RouteInfo,
  TypeKey,
  TypeRef,
  ValidateFunction,
  ValidationErrorObject,
  ValueReader,
  WriterOutput,
} from './types.js';
export { createDefaultAjv, validationViolations } from './validation.js';
export { WorkerPool } from './worker/pool.js';
