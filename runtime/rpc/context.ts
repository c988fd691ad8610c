/**
 * @module
 * The `RpcContext` handed to handlers. Its headers and signal are built on first
 * use: most handlers never read them, and the hot path should not pay for a
 * `Headers` copy and an `AbortController` per call.
 */
import type { RpcContext, RpcMethodDescriptor } from './types.js';

/** Builds a context whose `headers` and `signal` come from thunks evaluated at most once. */
export function lazyContext(
  method: RpcMethodDescriptor<unknown, unknown>,
  protocol: 'connect' | 'grpc',
  headers: () => Headers,
  signal: () => AbortSignal,
): RpcContext {
  let h: Headers | undefined;
  let s: AbortSignal | undefined;
  return {
    method,
    protocol,
    get headers() {
      return (h ??= headers());
    },
    get signal() {
      return (s ??= signal());
    },
  };
}
