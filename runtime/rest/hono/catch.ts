/**
 * @module
 * The exception pipeline: the method's `@CatchWith` handlers, then the class's, then the router's;
 * the first whose `catches` matches wins; otherwise the default JSON error answer.
 */
import type { Context } from 'hono';
import type { RouterState } from '../config.js';
import { ConversionError } from '../convert/convert.js';
import { BadRequestError, errorResponse, HttpError, toErrorBody } from '../errors.js';
import { RestResponse } from '../response.js';
import type { ErrorClass, ExceptionHandler } from '../types.js';

/** The status an error maps to before any handler runs. */
export function statusOf(error: unknown): number {
  if (error instanceof HttpError) return error.status;
  if (error instanceof ConversionError) return 400;
  return 500;
}

/** The error classes a handler catches: `catches` may name one or several. */
export function caughtClasses(handler: ExceptionHandler): readonly ErrorClass[] {
  const { catches } = handler;
  return isList(catches) ? catches : [catches];
}

// `Array.isArray` does not narrow a readonly array out of a union.
function isList(catches: ErrorClass | readonly ErrorClass[]): catches is readonly ErrorClass[] {
  return Array.isArray(catches);
}

function matches(handler: ExceptionHandler, error: unknown): boolean {
  return caughtClasses(handler).some((cls) => error instanceof cls);
}

/**
 * The default answer: `{"status","message"}` JSON (plus `violations`), never a stack trace, with
 * the router's default headers.
 */
export function defaultErrorResponse(error: unknown, state: RouterState, c: Context | undefined): Response {
  if (error instanceof ConversionError)
    return errorResponse(new BadRequestError([], error.message).toJSON(), state.jsonType, state.defaultHeaders);
  if (!(error instanceof HttpError)) (state.options.onError ?? defaultOnError)(error, c);
  return errorResponse(toErrorBody(error), state.jsonType, state.defaultHeaders);
}

function defaultOnError(error: unknown): void {
  console.error('[loom/rest] unhandled error:', error);
}

/**
 * Finds the handler for an error and produces the answer.
 *
 * @param useGlobal - false when the method opted out with `@CatchWith()`
 * @param write - writes a `RestResponse` a handler returned (with the route's writers)
 */
export async function handleError(
  error: unknown,
  c: Context,
  handlers: readonly ExceptionHandler[],
  useGlobal: boolean,
  state: RouterState,
  write: (r: RestResponse) => Promise<Response>,
): Promise<Response> {
  const handler =
    handlers.find((h) => matches(h, error)) ?? (useGlobal ? state.exceptionHandlers.find((h) => matches(h, error)) : undefined);
  if (!handler) return defaultErrorResponse(error, state, c);
  try {
    const out = await handler.handle(error, c);
    if (out instanceof globalThis.Response) return out;
    if (out instanceof RestResponse) return await write(out);
    const status = statusOf(error);
    if (out === undefined) return new Response(null, { status });
    return await write(RestResponse.status(status).entity(out));
  } catch (again) {
    return defaultErrorResponse(again, state, c);
  }
}

/**
 * Builds an exception handler for one error class.
 *
 * @example
 * ```ts
 * router.exceptionHandlers(catching(ConflictError, (e) => Response.error(409, e.message)));
 * ```
 */
export function catching<E>(catches: abstract new (...args: never[]) => E, handle: (error: E, c: Context) => unknown): ExceptionHandler<E> {
  return { catches, handle };
}
