/**
 * @module
 * The `RpcContext` of a gRPC call. Its headers and signal are built on first use:
 * most handlers never read them, and the hot path should not pay for a `Headers`
 * copy of the metadata and an `AbortController` per call. A class rather than an
 * object of closures, so a call allocates one small object. (Connect has both
 * parts at hand already and passes a plain object.)
 */
import type * as grpc from '@grpc/grpc-js';
import { RpcError } from './errors.js';
import { metadataToHeaders } from './grpc-wire.js';
import type { RpcContext, RpcMethodDescriptor } from './types.js';

/** Every shape grpc-js hands a server handler. */
export type AnyServerCall =
  | grpc.ServerUnaryCall<Buffer, unknown>
  | grpc.ServerWritableStream<Buffer, unknown>
  | grpc.ServerReadableStream<Buffer, unknown>
  | grpc.ServerDuplexStream<Buffer, unknown>;

/**
 * The context handed to a handler of one gRPC call.
 *
 * @example
 * ```ts
 * const ctx = new GrpcCallContext(method, call);
 * ctx.headers.get('authorization'); // the call's metadata, read now
 * ```
 */
export class GrpcCallContext implements RpcContext {
  readonly protocol = 'grpc';
  readonly #call: AnyServerCall;
  #headers: Headers | undefined;
  #signal: AbortSignal | undefined;

  constructor(
    readonly method: RpcMethodDescriptor<unknown, unknown>,
    call: AnyServerCall,
  ) {
    this.#call = call;
  }

  get headers(): Headers {
    return (this.#headers ??= metadataToHeaders(this.#call.metadata));
  }

  get signal(): AbortSignal {
    return (this.#signal ??= cancelSignal(this.#call));
  }
}

function cancelSignal(call: AnyServerCall): AbortSignal {
  const controller = new AbortController();
  // grpc-js emits 'cancelled' on client cancel and when the deadline passes.
  if (call.cancelled) controller.abort(new RpcError('canceled', 'call canceled'));
  // Every grpc-js server call is an EventEmitter; the union of their `once` overloads is not callable.
  else
    (call as grpc.ServerUnaryCall<Buffer, unknown>).once('cancelled', () =>
      controller.abort(new RpcError('canceled', 'call canceled or deadline exceeded')),
    );
  return controller.signal;
}
