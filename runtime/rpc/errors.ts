/**
 * @module
 * `RpcError` and the code tables shared by Connect and gRPC: one error type
 * for handlers to throw, mapped to the HTTP status of the Connect protocol or
 * the numeric status of gRPC at the edge.
 */

/** Connect error codes (lower snake case, as on the Connect wire). */
export type RpcCode =
  | 'canceled'
  | 'unknown'
  | 'invalid_argument'
  | 'deadline_exceeded'
  | 'not_found'
  | 'already_exists'
  | 'permission_denied'
  | 'resource_exhausted'
  | 'failed_precondition'
  | 'aborted'
  | 'out_of_range'
  | 'unimplemented'
  | 'internal'
  | 'unavailable'
  | 'data_loss'
  | 'unauthenticated';

/**
 * gRPC status numbers by Connect code. Connect codes are the gRPC codes spelled
 * in snake case, so one table serves both protocols.
 * @see https://connectrpc.com/docs/protocol#error-codes
 */
export const GRPC_STATUS: Readonly<Record<RpcCode, number>> = {
  canceled: 1,
  unknown: 2,
  invalid_argument: 3,
  deadline_exceeded: 4,
  not_found: 5,
  already_exists: 6,
  permission_denied: 7,
  resource_exhausted: 8,
  failed_precondition: 9,
  aborted: 10,
  out_of_range: 11,
  unimplemented: 12,
  internal: 13,
  unavailable: 14,
  data_loss: 15,
  unauthenticated: 16,
};

/** HTTP status of a Connect unary error response, per the Connect protocol. */
export const CONNECT_HTTP_STATUS: Readonly<Record<RpcCode, number>> = {
  canceled: 499,
  unknown: 500,
  invalid_argument: 400,
  deadline_exceeded: 504,
  not_found: 404,
  already_exists: 409,
  permission_denied: 403,
  resource_exhausted: 429,
  failed_precondition: 400,
  aborted: 409,
  out_of_range: 400,
  unimplemented: 501,
  internal: 500,
  unavailable: 503,
  data_loss: 500,
  unauthenticated: 401,
};

const CODE_BY_GRPC_STATUS: readonly RpcCode[] = (() => {
  const out: RpcCode[] = [];
  for (const [code, n] of Object.entries(GRPC_STATUS)) out[n] = code as RpcCode;
  return out;
})();

const RPC_CODES: ReadonlySet<string> = new Set(Object.keys(GRPC_STATUS));

/** True when `value` is one of the sixteen Connect codes. */
export function isRpcCode(value: unknown): value is RpcCode {
  return typeof value === 'string' && RPC_CODES.has(value);
}

/** The Connect code for a gRPC status number; unknown numbers (and OK) give `unknown`. */
export function codeFromGrpcStatus(status: number): RpcCode {
  return CODE_BY_GRPC_STATUS[status] ?? 'unknown';
}

/**
 * The code a Connect client infers from an HTTP status when the body is not a
 * Connect error (a proxy's 502 page, a 404 for an unknown route).
 * @see https://connectrpc.com/docs/protocol#http-to-error-code
 */
export function codeFromHttpStatus(status: number): RpcCode {
  switch (status) {
    case 400:
      return 'internal';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'permission_denied';
    case 404:
      return 'unimplemented';
    case 429:
    case 502:
    case 503:
    case 504:
      return 'unavailable';
    default:
      return 'unknown';
  }
}

/**
 * The error RPC handlers throw and RPC clients reject with.
 *
 * @example
 * ```ts
 * async getService(request) {
 *   const found = services.get(request.name);
 *   if (!found) throw new RpcError('not_found', `service ${request.name} not found`);
 *   return found;
 * }
 * ```
 */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  readonly code: RpcCode;
  /** Response metadata from the peer (Connect headers, gRPC trailers), on the client side. */
  readonly metadata: Headers | undefined;

  constructor(code: RpcCode, message: string, options: { cause?: unknown; metadata?: Headers } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.metadata = options.metadata;
  }

  /** HTTP status for this error on the Connect protocol. */
  get httpStatus(): number {
    return CONNECT_HTTP_STATUS[this.code];
  }

  /** gRPC status number for this error. */
  get grpcStatus(): number {
    return GRPC_STATUS[this.code];
  }

  /** The Connect error body: `{ "code": "not_found", "message": "…" }`. */
  toJSON(): { code: RpcCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

/**
 * Turns anything a handler threw into an `RpcError`. Errors that are not
 * `RpcError`s become `internal` with a fixed message: their text may hold
 * paths or SQL that callers should not see (log them through `onError`).
 */
export function toRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  return new RpcError('internal', 'internal error', { cause: error });
}

/** The text of anything thrown, for messages that quote a cause (`String(value)` when it is not an `Error`). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
