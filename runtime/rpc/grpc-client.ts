/**
 * @module
 * A typed gRPC client over `@grpc/grpc-js`, built from a service descriptor
 * (`makeGenericClientConstructor`, no proto-loader): promise methods for unary
 * and client-streaming RPCs, async iterables for server and bidirectional
 * streams, `RpcError` for every failure.
 */
import * as grpc from '@grpc/grpc-js';
import { codeFromGrpcStatus, RpcError } from './errors.js';
import { grpcServiceDefinition, keepBytes, metadataToHeaders, requestSerializer } from './grpc-wire.js';
import { protobufBinary } from './protobuf-binary.js';
import type { RpcCallOptions, RpcClient, RpcMethodDescriptor, RpcMethods, RpcServiceDescriptor } from './types.js';

/** Options for {@link createGrpcClient}. */
export interface GrpcClientOptions {
  /** @default grpc.credentials.createInsecure() */
  readonly credentials?: grpc.ChannelCredentials;
  /** Metadata sent with every call (e.g. `authorization`). */
  readonly headers?: HeadersInit;
  /** grpc-js channel options. */
  readonly channelOptions?: grpc.ChannelOptions;
}

/** A typed gRPC client; `close()` releases the channel. */
export type GrpcClient<M extends RpcMethods> = RpcClient<M> & { close(): void };

type AnyMethod = RpcMethodDescriptor<unknown, unknown>;
type GenericClient = grpc.Client & Record<string, (...args: unknown[]) => grpc.ClientUnaryCall & grpc.ClientReadableStream<Buffer>>;

/**
 * A typed gRPC client for a service descriptor. `address` is a grpc-js target:
 * `127.0.0.1:50051`, `dns:host:port`, or `unix:/run/loom/system.sock`.
 *
 * Unix socket targets get `:authority` `localhost`: Node's HTTP/2 server
 * rejects a raw socket path as authority (see system-rpc-notes §8.4).
 *
 * @example
 * ```ts
 * const system = createGrpcClient(SystemServiceDescriptor, 'unix:/run/loom/system.sock');
 * await system.stopService({ name: 'sshd', force: true });
 * system.close();
 * ```
 */
export function createGrpcClient<M extends RpcMethods>(
  descriptor: RpcServiceDescriptor<M>,
  address: string,
  options: GrpcClientOptions | grpc.ChannelCredentials = {},
): GrpcClient<M> {
  const opts: GrpcClientOptions = options instanceof grpc.ChannelCredentials ? { credentials: options } : options;
  const channelOptions: grpc.ChannelOptions = { ...opts.channelOptions };
  if (address.startsWith('unix:') && channelOptions['grpc.default_authority'] === undefined) {
    channelOptions['grpc.default_authority'] = 'localhost';
  }
  const Ctor = grpc.makeGenericClientConstructor(grpcServiceDefinition(descriptor), descriptor.typeName);
  const raw = new Ctor(address, opts.credentials ?? grpc.credentials.createInsecure(), channelOptions) as unknown as GenericClient;
  const metadata = withHeaders(new grpc.Metadata(), opts.headers);
  const client: Record<string, unknown> = { close: () => raw.close() };
  for (const method of Object.values(descriptor.methods) as AnyMethod[]) {
    const target: Target = { raw, method, serialize: requestSerializer(method), metadata };
    if (method.clientStreaming && method.serverStreaming) {
      client[method.localName] = (requests: AsyncIterable<unknown>, callOptions: RpcCallOptions = {}) =>
        bidiStream(target, requests, callOptions);
    } else if (method.clientStreaming) {
      client[method.localName] = (requests: AsyncIterable<unknown>, callOptions: RpcCallOptions = {}) =>
        clientStream(target, requests, callOptions);
    } else if (method.serverStreaming) {
      client[method.localName] = (request: unknown = {}, callOptions: RpcCallOptions = {}) => serverStream(target, request, callOptions);
    } else {
      client[method.localName] = (request: unknown = {}, callOptions: RpcCallOptions = {}) => unary(target, request, callOptions);
    }
  }
  return client as GrpcClient<M>;
}

/** What every call of one method needs, built once per method rather than per call. */
interface Target {
  readonly raw: GenericClient;
  readonly method: AnyMethod;
  readonly serialize: (message: unknown) => Buffer;
  /** The client's own metadata; per-call headers go on a clone. */
  readonly metadata: grpc.Metadata;
}

function unary(t: Target, request: unknown, options: RpcCallOptions): Promise<unknown> {
  return oneResponse(t.method, options.signal, (done) =>
    t.raw.makeUnaryRequest(t.method.path, t.serialize, keepBytes, request, callMetadata(t, options), callOptionsOf(options), done),
  );
}

function clientStream(t: Target, requests: AsyncIterable<unknown>, options: RpcCallOptions): Promise<unknown> {
  return oneResponse(
    t.method,
    options.signal,
    (done) => t.raw.makeClientStreamRequest(t.method.path, t.serialize, keepBytes, callMetadata(t, options), callOptionsOf(options), done),
    (call, reject) =>
      pump(requests, call).catch((error: unknown) => {
        call.cancel();
        reject(error);
      }),
  );
}

async function* serverStream(t: Target, request: unknown, options: RpcCallOptions): AsyncIterable<unknown> {
  const call = t.raw.makeServerStreamRequest(
    t.method.path,
    t.serialize,
    keepBytes,
    request,
    callMetadata(t, options),
    callOptionsOf(options),
  );
  yield* responses(t.method, call, options.signal);
}

async function* bidiStream(t: Target, requests: AsyncIterable<unknown>, options: RpcCallOptions): AsyncIterable<unknown> {
  const call = t.raw.makeBidiStreamRequest(t.method.path, t.serialize, keepBytes, callMetadata(t, options), callOptionsOf(options));
  // Requests are written while responses are read; a failing request iterable cancels the call,
  // and its error, not grpc-js' CANCELLED, is what the caller sees.
  let pumpError: unknown;
  pump(requests, call).catch((error: unknown) => {
    pumpError = error;
    call.cancel();
  });
  yield* responses(t.method, call, options.signal, () => pumpError);
}

/**
 * A call with a single response (unary, client-streaming): grpc-js reports it to a callback, which
 * settles the promise with the decoded message or an `RpcError`. `started` runs once the call exists.
 */
function oneResponse<C extends grpc.ClientUnaryCall | grpc.ClientWritableStream<unknown>>(
  method: AnyMethod,
  signal: AbortSignal | undefined,
  start: (done: grpc.requestCallback<Buffer>) => C,
  started?: (call: C, reject: (error: unknown) => void) => void,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let release = noop;
    const call = start((error, bytes) => {
      release();
      if (error) reject(fromServiceError(error));
      else {
        try {
          resolve(protobufBinary.decode(method.output, bytes!));
        } catch (decodeError) {
          reject(decodeError);
        }
      }
    });
    release = cancelOnAbort(call, signal);
    started?.(call, reject);
  });
}

/** The decoded responses of a streaming call; `failure` names an error that should win over the call's own. */
async function* responses(
  method: AnyMethod,
  call: grpc.ClientReadableStream<Buffer> | grpc.ClientDuplexStream<unknown, Buffer>,
  signal: AbortSignal | undefined,
  failure?: () => unknown,
): AsyncIterable<unknown> {
  const release = cancelOnAbort(call, signal);
  try {
    for await (const bytes of call) yield protobufBinary.decode(method.output, bytes as Buffer);
  } catch (error) {
    const cause = failure?.();
    if (cause !== undefined) throw cause;
    throw isServiceError(error) ? fromServiceError(error) : error;
  } finally {
    release();
  }
}

/** Cancels `call` when `signal` aborts, at once when it already has; returns what removes the listener. */
function cancelOnAbort(call: { cancel(): void }, signal: AbortSignal | undefined): () => void {
  if (!signal) return noop;
  if (signal.aborted) {
    call.cancel();
    return noop;
  }
  const onAbort = () => call.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

function noop(): void {}

/** Writes every request (waiting for 'drain' when grpc-js' buffer is full), then half-closes. */
async function pump(
  requests: AsyncIterable<unknown>,
  call: grpc.ClientWritableStream<unknown> | grpc.ClientDuplexStream<unknown, Buffer>,
): Promise<void> {
  for await (const request of requests) {
    if (!call.write(request)) await new Promise((resolve) => call.once('drain', resolve));
  }
  call.end();
}

function callOptionsOf(options: RpcCallOptions): grpc.CallOptions {
  return options.timeoutMs === undefined ? {} : { deadline: Date.now() + options.timeoutMs };
}

/** The client's metadata, or a copy with the call's own headers on top: the shared one is never mutated. */
function callMetadata(t: Target, options: RpcCallOptions): grpc.Metadata {
  return options.headers ? withHeaders(t.metadata.clone(), options.headers) : t.metadata;
}

function withHeaders(metadata: grpc.Metadata, init: HeadersInit | undefined): grpc.Metadata {
  if (init) for (const [key, value] of new Headers(init)) metadata.set(key, value);
  return metadata;
}

function isServiceError(error: unknown): error is grpc.ServiceError {
  return typeof error === 'object' && error !== null && 'code' in error && typeof (error as { code: unknown }).code === 'number';
}

/** grpc-js `ServiceError` → `RpcError` (the status details as message, trailers as metadata). */
export function fromServiceError(error: grpc.ServiceError): RpcError {
  return new RpcError(codeFromGrpcStatus(error.code), error.details, {
    cause: error,
    metadata: error.metadata ? metadataToHeaders(error.metadata) : undefined,
  });
}
