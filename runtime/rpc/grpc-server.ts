/**
 * @module
 * Serving an RPC service over native gRPC with `@grpc/grpc-js`, from the same
 * descriptor and the same implementation as Connect. The `ServiceDefinition`
 * is built from the descriptor (no proto-loader at run time); requests are
 * decoded inside the handler rather than in grpc-js' deserializer so that bad
 * bytes give `INVALID_ARGUMENT` instead of grpc-js' generic `INTERNAL`.
 */
import type * as grpc from '@grpc/grpc-js';
import { lazyContext } from './context.js';
import { RpcError, toRpcError } from './errors.js';
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
  const definition = grpcServiceDefinition(descriptor);
  const handlers: Record<string, grpc.UntypedHandleCall> = {};
  for (const method of Object.values(descriptor.methods) as AnyMethod[]) {
    const fn = (impl as Record<string, AnyHandler | undefined>)[method.localName]?.bind(impl);
    if (!fn) handlers[method.localName] = unimplementedHandler(method);
    else if (method.clientStreaming && method.serverStreaming) handlers[method.localName] = bidiStreamingHandler(method, fn, options);
    else if (method.clientStreaming) handlers[method.localName] = clientStreamingHandler(method, fn, options);
    else if (method.serverStreaming) handlers[method.localName] = serverStreamingHandler(method, fn, options);
    else handlers[method.localName] = unaryHandler(method, fn, options);
  }
  server.addService(definition, handlers);
}

/**
 * The grpc-js `ServiceDefinition` of a descriptor. Requests stay raw `Buffer`s on
 * the server side (decoded by the handlers); clients decode responses lazily too.
 */
export function grpcServiceDefinition(descriptor: RpcServiceDescriptor): grpc.ServiceDefinition {
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const method of Object.values(descriptor.methods) as AnyMethod[]) {
    definition[method.localName] = {
      path: method.path,
      requestStream: method.clientStreaming,
      responseStream: method.serverStreaming,
      originalName: method.name,
      requestSerialize: (message: unknown) => toBuffer(method.input.encode(message as never)),
      requestDeserialize: (bytes: Buffer) => bytes,
      responseSerialize: (message: unknown) => toBuffer(method.output.encode(message as never)),
      responseDeserialize: (bytes: Buffer) => bytes,
    };
  }
  return definition as grpc.ServiceDefinition;
}

function unaryHandler(method: AnyMethod, fn: AnyHandler, options: GrpcServiceOptions): grpc.handleUnaryCall<Buffer, unknown> {
  const { authorize, onError } = options;
  return (call, callback) => {
    const ctx = callContext(method, call);
    let request: unknown;
    try {
      request = method.input.decode(call.request);
    } catch (error) {
      callback(grpcError(toRpcError(error)));
      return;
    }
    // An async function turns a synchronous throw (in `authorize` or the handler) into a rejection,
    // which grpc-js would otherwise report as UNKNOWN "Unknown error".
    const run = async () => {
      if (authorize) await authorize(ctx);
      return fn(request, ctx);
    };
    run().then(
      (response) => callback(null, response),
      (error: unknown) => {
        const rpc = toRpcError(error);
        if (rpc !== error) onError?.(error, ctx);
        callback(grpcError(rpc));
      },
    );
  };
}

function serverStreamingHandler(method: AnyMethod, fn: AnyHandler, options: GrpcServiceOptions): grpc.handleServerStreamingCall<Buffer, unknown> {
  const { authorize, onError } = options;
  return async (call) => {
    const ctx = callContext(method, call);
    try {
      const request = method.input.decode(call.request);
      if (authorize) await authorize(ctx);
      await writeAll(call, fn(request, ctx) as AsyncIterable<unknown>);
    } catch (error) {
      const rpc = toRpcError(error);
      if (rpc !== error) onError?.(error, ctx);
      call.emit('error', grpcError(rpc));
    }
  };
}

function clientStreamingHandler(method: AnyMethod, fn: AnyHandler, options: GrpcServiceOptions): grpc.handleClientStreamingCall<Buffer, unknown> {
  const { authorize, onError } = options;
  return (call, callback) => {
    const ctx = callContext(method, call);
    const run = async () => {
      if (authorize) await authorize(ctx);
      return fn(decodeAll(method, call), ctx);
    };
    run().then(
      (response) => callback(null, response),
      (error: unknown) => {
        const rpc = toRpcError(error);
        if (rpc !== error) onError?.(error, ctx);
        callback(grpcError(rpc));
      },
    );
  };
}

function bidiStreamingHandler(method: AnyMethod, fn: AnyHandler, options: GrpcServiceOptions): grpc.handleBidiStreamingCall<Buffer, unknown> {
  const { authorize, onError } = options;
  return async (call) => {
    const ctx = callContext(method, call);
    try {
      if (authorize) await authorize(ctx);
      await writeAll(call, fn(decodeAll(method, call), ctx) as AsyncIterable<unknown>);
    } catch (error) {
      const rpc = toRpcError(error);
      if (rpc !== error) onError?.(error, ctx);
      call.emit('error', grpcError(rpc));
    }
  };
}

/** The request stream as decoded messages; a message that does not decode ends it with INVALID_ARGUMENT. */
async function* decodeAll(method: AnyMethod, call: grpc.ServerReadableStream<Buffer, unknown> | grpc.ServerDuplexStream<Buffer, unknown>): AsyncIterable<unknown> {
  // A plain `for await` destroys the stream when the requests end, which would also
  // close a bidirectional call's response side before the handler has answered.
  for await (const bytes of call.iterator({ destroyOnReturn: false })) yield method.input.decode(bytes as Buffer);
}

/** Writes every item, respecting back-pressure, then ends the call. */
async function writeAll(call: grpc.ServerWritableStream<Buffer, unknown> | grpc.ServerDuplexStream<Buffer, unknown>, items: AsyncIterable<unknown>): Promise<void> {
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
  return ((call: grpc.ServerReadableStream<Buffer, unknown> | grpc.ServerDuplexStream<Buffer, unknown>, callback?: grpc.sendUnaryData<unknown>) => {
    if (callback) callback(status);
    else call.emit('error', status);
  }) as grpc.UntypedHandleCall;
}

type AnyServerCall =
  | grpc.ServerUnaryCall<Buffer, unknown>
  | grpc.ServerWritableStream<Buffer, unknown>
  | grpc.ServerReadableStream<Buffer, unknown>
  | grpc.ServerDuplexStream<Buffer, unknown>;

function callContext(method: AnyMethod, call: AnyServerCall): RpcContext {
  return lazyContext(method, 'grpc', () => metadataToHeaders(call.metadata), () => {
    const controller = new AbortController();
    // grpc-js emits 'cancelled' on client cancel and when the deadline passes.
    if (call.cancelled) controller.abort(new RpcError('canceled', 'call canceled'));
    // Every grpc-js server call is an EventEmitter; the union of their `once` overloads is not callable.
    else (call as grpc.ServerUnaryCall<Buffer, unknown>).once('cancelled', () => controller.abort(new RpcError('canceled', 'call canceled or deadline exceeded')));
    return controller.signal;
  });
}

/** gRPC metadata as `Headers`; binary (`-bin`) values as base64, as on the wire. */
export function metadataToHeaders(metadata: grpc.Metadata): Headers {
  const headers = new Headers();
  const map = metadata.getMap();
  for (const key of Object.keys(map)) {
    const value = map[key]!;
    headers.set(key, typeof value === 'string' ? value : value.toString('base64'));
  }
  return headers;
}

/** The object grpc-js sends as a status: `{ code, details }`. */
export function grpcError(error: RpcError): Partial<grpc.StatusObject> {
  return { code: error.grpcStatus, details: error.message };
}

/** The bytes as a `Buffer` without copying (protobufjs already hands out Buffers on Node). */
export function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
