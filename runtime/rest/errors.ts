/**
 * @module
 * The runtime's error classes and the one JSON shape every default error answer uses:
 * `{"status":404,"message":"Not Found"}`, plus `violations` for 400s caused by bad input.
 */

/** Where a rejected value came from. */
export type ViolationLocation = 'path' | 'query' | 'header' | 'cookie' | 'form' | 'matrix' | 'body' | 'context' | 'bean' | 'result';

/** One reason a request (or a result) was rejected. */
export interface Violation {
  readonly location: ViolationLocation;
  /** Parameter name; for body violations the JSON pointer of the offending value (`/title`). */
  readonly name: string;
  readonly message: string;
}

/** The body every default error answer carries. */
export interface ErrorBody {
  readonly status: number;
  readonly message: string;
  readonly violations?: readonly Violation[];
  readonly details?: unknown;
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/** The standard reason phrase of a status, or `HTTP <code>`. */
export function reasonPhrase(status: number): string {
  return REASONS[status] ?? `HTTP ${status}`;
}

/**
 * An error that maps to an HTTP status. Throw it (or a subclass) from a handler.
 *
 * @example
 * ```ts
 * if (!issue) throw new HttpError(404, `Issue ${index} not found`);
 * ```
 */
export class HttpError extends Error {
  override readonly name: string = 'HttpError';
  constructor(
    readonly status: number,
    message: string = reasonPhrase(status),
    readonly details?: unknown,
  ) {
    super(message);
  }

  /** The JSON body the default exception handler sends. */
  toJSON(): ErrorBody {
    return this.details === undefined
      ? { status: this.status, message: this.message }
      : { status: this.status, message: this.message, details: this.details };
  }
}

/**
 * 400: a value could not be read, converted or validated. Lists every violation, not just the first.
 *
 * @example
 * ```ts
 * throw new BadRequestError([{ location: 'query', name: 'limit', message: 'must be an integer' }]);
 * ```
 */
export class BadRequestError extends HttpError {
  override readonly name: string = 'BadRequestError';
  readonly violations: readonly Violation[];
  constructor(violations: readonly Violation[], message?: string) {
    super(400, message ?? summarize(violations));
    this.violations = violations;
  }

  override toJSON(): ErrorBody {
    return { status: this.status, message: this.message, violations: this.violations };
  }
}

/** 401: no user could be identified. */
export class UnauthorizedError extends HttpError {
  override readonly name: string = 'UnauthorizedError';
  constructor(message = 'Unauthorized') {
    super(401, message);
  }
}

/** 403: the user is known but not allowed. */
export class ForbiddenError extends HttpError {
  override readonly name: string = 'ForbiddenError';
  constructor(message = 'Forbidden') {
    super(403, message);
  }
}

/** 404. */
export class NotFoundError extends HttpError {
  override readonly name: string = 'NotFoundError';
  constructor(message = 'Not Found') {
    super(404, message);
  }
}

/**
 * Thrown at registration time when decorators are used in a way that cannot work.
 * The message always names the class and, where it applies, the method.
 */
export class RegistrationError extends Error {
  override readonly name = 'RegistrationError';
}

function summarize(violations: readonly Violation[]): string {
  if (violations.length === 0) return 'Bad Request';
  return violations.length === 1 ? describe(violations[0]!) : `${describe(violations[0]!)} (and ${violations.length - 1} more)`;
}

function describe(v: Violation): string {
  return v.location === v.name ? `${v.location}: ${v.message}` : `${v.location} ${v.name}: ${v.message}`;
}

/**
 * The 400 of a request's violations, listing at most `max`: a list that went past it (the runtime
 * stops collecting one past `max`) says that more were found.
 *
 * @example
 * ```ts
 * throw violationsError(violations, state.maxViolations);
 * ```
 */
export function violationsError(violations: readonly Violation[], max: number): BadRequestError {
  if (violations.length <= max) return new BadRequestError(violations);
  const listed = violations.slice(0, max);
  return new BadRequestError(listed, `${describe(listed[0]!)} (and more: the first ${max} violations are listed)`);
}

/** Turns any thrown value into the default error body and status (no stack traces, ever). */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof HttpError) return error.toJSON();
  return { status: 500, message: reasonPhrase(500) };
}

/** The text of anything thrown, for messages that quote a cause (`String(value)` when it is not an `Error`). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Builds the default JSON error answer, labelled `contentType` (a router's `jsonContentType`), with
 * `headers` first (a router's default headers). A 400 listing violations says so in
 * `X-Status-Reason: Validation failed`, as rest.vertx does.
 */
export function errorResponse(
  body: ErrorBody,
  contentType = 'application/json',
  headers: readonly (readonly [string, string])[] = [],
): Response {
  const out: Record<string, string> = {};
  for (const [n, v] of headers) out[n] = v;
  out['content-type'] = contentType;
  if (body.violations !== undefined && body.violations.length > 0) out['x-status-reason'] = 'Validation failed';
  return new Response(JSON.stringify(body), { status: body.status, headers: out });
}
