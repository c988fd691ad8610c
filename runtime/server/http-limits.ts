/**
 * @module
 * The limits of the HTTP server and their defaults, apart from the server itself so that the
 * option table (`options.ts`, read by `--help`) names the same defaults without loading it.
 */

/** The limits of `listenHttp`; every one has a default ({@link DEFAULT_HTTP_LIMITS}). */
export interface HttpLimits {
  /** Time for a request's headers to arrive, in milliseconds. */
  readonly headersTimeoutMs: number;
  /** Time for a whole request, headers and body, to arrive, in milliseconds; 0 for none. */
  readonly requestTimeoutMs: number;
  /** Time a request body may send nothing before it is answered 408, in milliseconds; 0 for none. */
  readonly bodyIdleTimeoutMs: number;
  /** Time an idle keep-alive connection is kept, in milliseconds. */
  readonly keepAliveTimeoutMs: number;
  /** Request body bytes all requests together may hold. */
  readonly bodyBudgetBytes: number;
  /** During a drain, how long an idle keep-alive connection may still bring one request, in milliseconds. */
  readonly drainGraceMs: number;
}

/**
 * The defaults: a request of the largest body a route takes (4 MiB) at 1 Mbit/s arrives within
 * the whole-request bound; 64 MiB of bodies are sixteen such requests, or 64 of the Issues API's.
 *
 * @example
 * DEFAULT_HTTP_LIMITS.requestTimeoutMs; // 30000
 */
export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  bodyIdleTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  bodyBudgetBytes: 64 * 1024 * 1024,
  drainGraceMs: 1_000,
};
