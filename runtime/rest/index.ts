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
  HONO_CONTEXT,
} from './decorators/params.js';
export type { ParamDecorator } from './decorators/params.js';
export { RequestReader, ResponseWriter, SuppressCheck, ValidateResult } from './decorators/response.js';
export { CatchWith } from './decorators/errors.js';
export { Authenticate, Authorize, RolesAllowed, PermitAll, DenyAll, Security } from './decorators/security.js';
export { Events, Event, ANY_STATUS } from './decorators/events.js';
export { NoCache, Blocking } from './decorators/lifecycle.js';
export type { BlockingOptions, EventBinding } from './metadata/raw.js';
export { RestResponse, Response } from './response.js';
export type { CookieOptions } from './response.js';
export type { HandlerResult, ResponseBody } from './response.js';
export {
  HttpError,
  BadRequestError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  RegistrationError,
  reasonPhrase,
} from './errors.js';
export type { ErrorBody, Violation, ViolationLocation } from './errors.js';
export { SeparatedBy, Matrix, conversion } from './convert/conversions.js';
export { ConversionError } from './convert/convert.js';
export { formBody } from './form-coercion.js';
export type { FormBodyOptions, FormField, FormFields, FormFieldType, FormSeparator } from './form-coercion.js';
export { catching } from './hono/catch.js';
export { restGetPath } from './hono/bind.js';
export { RestRouter, createRestRouter, pushContext } from './router.js';
export { RestBuilder, restApi } from './builder.js';
export type { RestApiEntry } from './builder.js';
export { requirePermissions } from './permissions.js';
export { fileWriter, contentTypeOf } from './static-files.js';
export { WorkerPool } from './worker/pool.js';
export { JSON_WRITER, TEXT_WRITER, JSON_READER } from './io/registry.js';
export { negotiate } from './io/negotiate.js';
export { createDefaultAjv, validationViolations } from './validation.js';
export type { RestRouterOptions, CorsOptions, WorkerPoolOptions, SchemaCompiler } from './config.js';
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
  SecurityRequirements,
  TypeKey,
  TypeRef,
  ValidateFunction,
  ValidationErrorObject,
  ValueReader,
  WriterOutput,
} from './types.js';
export type { Context as HonoContext } from 'hono';
