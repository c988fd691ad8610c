/**
 * @module
 * Serving an RPC service over native gRPC with `@grpc/grpc-js`, from the same
 * descriptor and the same implementation as Connect. The `ServiceDefinition`
 * is built from the descriptor (no proto-loader at run time); requests are
 * decoded inside the handler rather than in grpc-js' deserializer so that bad
 * bytes give `INVALID_ARGUMENT` instead of grpc-js' generic `INTERNAL`.
 */
import type * as grpc from '@grpc/grpc-js';
import { RpcError, toRpcError } from './errors.js';
import { type AnyServerCall, GrpcCallContext } from './grpc-context.js';
import { grpcServiceDefinition } from './grpc-wire.js';
import { protobufBinary } from './protobuf-binary.js';
import type { RpcContext, RpcMethodDescriptor, RpcMethods, RpcServerOptions, RpcServiceDescriptor, RpcServiceImpl } from './types.js';

type AnyMethod = RpcMethodDescriptor<unknown, unknown>;
type AnyHandler = (request: unknown, ctx: RpcContext) => unknown;

/** Options for {@link addGrpcService}. */
export type GrpcServiceOptions = RpcServerOptions;

/**
 * Adds `impl` to a grpc-js server under the descriptor's method paths
 * (`/v1alpha1.System/GetService`): unary, server-streaming, client-streaming
 * and bidirectional methods; methods `impl` lacks answer `UNIMPLEMENTED`.
 *
 * @example
 * ```ts
 * const server = new grpc.Server();
 * addGrpcService(server, SystemServiceDescriptor, new SystemHandler(), { authorize: requireToken });
 * server.bindAsync('127.0.0.1:50051', grpc.ServerCredentials.createInsecure(), () => {});
 * ```
 */
export function addGrpcService<M extends RpcMethods>(
  server: grpc.Server,
  descriptor: RpcServiceDescriptor<M>,
  impl: RpcServiceImpl<M>,
  options: GrpcServiceOptions = {},
): void {
  const handlers: Record<string, grpc.UntypedHandleCall> = {};
  for (const method of Object.values(descriptor.methods) as AnyMethod[]) {
    const fn = (impl as Record<string, AnyHandler | undefined>)[method.localName]?.bind(impl);
    if (!fn) {
      handlers[method.localName] = unimplementedHandler(method);
      continue;
    }
    // A unary request is decoded before `authorize` runs, as on Connect; a request stream is
    // decoded lazily as the handler reads it.
    const requestOf = method.clientStreaming
      ? (call: AnyServerCall) => decodeAll(method, call as grpc.ServerReadableStream<Buffer, unknown>)
      : (call: AnyServerCall) => protobufBinary.decode(method.input, (call as grpc.ServerUnaryCall<Buffer, unknown>).request);
    const invoke = invoker(fn, requestOf, options);
    handlers[method.localName] = method.serverStreaming
      ? streamingResponse(method, invoke, options)
      : singleResponse(method, invoke, options);
  }
  server.addService(grpcServiceDefinition(descriptor), handlers);
}

/** Runs one call: decodes the request, authorizes, calls the handler. Every failure is a rejection. */
type Invoke = (call: AnyServerCall, ctx: RpcContext) => Promise<unknown>;

function invoker(fn: AnyHandler, requestOf: (call: AnyServerCall) => unknown, options: GrpcServiceOptions): Invoke {
  const { authorize } = options;
  // Async, so that a synchronous throw (a bad request, `authorize`, the handler) becomes a
  // rejection rather than grpc-js' UNKNOWN "Unknown error".
  return async (call, ctx) => {
    const request = requestOf(call);
    if (authorize) await authorize(ctx);
    // grpc-js calls the handler even when the deadline has passed already (`grpc-timeout: 0m`),
    // and says so only on a later tick: nothing of such a call may run.
    if (deadlinePassed(call)) throw new RpcError('deadline_exceeded', 'deadline exceeded before the call began');
    if (call.cancelled) throw new RpcError('canceled', 'call canceled before it began');
    return fn(request, ctx);
  };
}

/** Whether the call's deadline (a `Date`, milliseconds, or `Infinity` for none) lies in the past. */
function deadlinePassed(call: AnyServerCall): boolean {
  const deadline = call.getDeadline();
  return (deadline instanceof Date ? deadline.getTime() : deadline) <= Date.now();
}

/** Unary and client-streaming methods: grpc-js hands a callback for the one response. */
function singleResponse(method: AnyMethod, invoke: Invoke, options: GrpcServiceOptions): grpc.handleUnaryCall<Buffer, unknown> {
  return (call, callback) => {
    const ctx = new GrpcCallContext(method, call);
    invoke(call, ctx).then(
      (response) => callback(null, response),
      (error: unknown) => callback(statusOf(error, ctx, options)),
    );
  };
}

/** Server-streaming and bidirectional methods: the handler's async iterable is written to the call. */
function streamingResponse(
  method: AnyMethod,
  invoke: Invoke,
  options: GrpcServiceOptions,
): grpc.handleServerStreamingCall<Buffer, unknown> {
  return async (call) => {
    const ctx = new GrpcCallContext(method, call);
    try {
      await writeAll(call, (await invoke(call, ctx)) as AsyncIterable<unknown>);
    } catch (error) {
      call.emit('error', statusOf(error, ctx, options));
    }
  };
}

/** The status a failed call ends with; errors that are not `RpcError`s go to `onError` first. */
function statusOf(error: unknown, ctx: RpcContext, options: GrpcServiceOptions): Partial<grpc.StatusObject> {
  const rpc = toRpcError(error);
  if (rpc !== error) options.onError?.(error, ctx);
  return grpcError(rpc);
}

/** The request stream as decoded messages; a message that does not decode ends it with INVALID_ARGUMENT. */
async function* decodeAll(
  method: AnyMethod,
  call: grpc.ServerReadableStream<Buffer, unknown> | grpc.ServerDuplexStream<Buffer, unknown>,
): AsyncIterable<unknown> {
  // A plain `for await` destroys the stream when the requests end, which would also
  // close a bidirectional call's response side before the handler has answered.
  for await (const bytes of call.iterator({ destroyOnReturn: false })) yield protobufBinary.decode(method.input, bytes as Buffer);
}

/** Writes every item, respecting back-pressure, then ends the call. */
async function writeAll(
  call: grpc.ServerWritableStream<Buffer, unknown> | grpc.ServerDuplexStream<Buffer, unknown>,
  items: AsyncIterable<unknown>,
): Promise<void> {
  for await (const item of items) {
    if (call.cancelled) return;
    // Wait for 'drain' when grpc-js' buffer is full instead of queueing without bound.
    if (!call.write(item)) await new Promise((resolve) => call.once('drain', resolve));
  }
  call.end();
}

/**
 * A method the implementation lacks: answer UNIMPLEMENTED in whichever shape grpc-js
 * gives the call (with a callback for unary and client-streaming, as a stream otherwise).
 */
function unimplementedHandler(method: AnyMethod): grpc.UntypedHandleCall {
  const status = grpcError(new RpcError('unimplemented', `${method.path.slice(1)} is not implemented`));
  return ((
    call: grpc.ServerReadableStream<Buffer, unknown> | grpc.ServerDuplexStream<Buffer, unknown>,
    callback?: grpc.sendUnaryData<unknown>,
  ) => {
    if (callback) callback(status);
    else call.emit('error', status);
  }) as grpc.UntypedHandleCall;
}

/** The object grpc-js sends as a status: `{ code, details }`. */
export function grpcError(error: RpcError): Partial<grpc.StatusObject> {
  return { code: error.grpcStatus, details: error.message };
}
