/**
 * @module
 * A typed gRPC client over `@grpc/grpc-js`, built from a service descriptor
 * (`makeGenericClientConstructor`, no proto-loader): promise methods for unary
 * and client-streaming RPCs, async iterables for server and bidirectional
 * streams, `RpcError` for every failure.
 */
import * as grpc from '@grpc/grpc-js';
import { RpcError, codeFromGrpcStatus } from './errors.js';
import { grpcServiceDefinition, metadataToHeaders, toBuffer } from './grpc-server.js';
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
  const baseMetadata = headersToMetadata(opts.headers);
  const client: Record<string, unknown> = { close: () => raw.close() };
  for (const method of Object.values(descriptor.methods) as AnyMethod[]) {
    if (method.clientStreaming && method.serverStreaming) {
      client[method.localName] = (requests: AsyncIterable<unknown>, callOptions: RpcCallOptions = {}) =>
        bidiStream(raw, method, requests, baseMetadata, callOptions);
    } else if (method.clientStreaming) {
      client[method.localName] = (requests: AsyncIterable<unknown>, callOptions: RpcCallOptions = {}) =>
        clientStream(raw, method, requests, baseMetadata, callOptions);
    } else if (method.serverStreaming) {
      client[method.localName] = (request: unknown = {}, callOptions: RpcCallOptions = {}) =>
        serverStream(raw, method, request, baseMetadata, callOptions);
    } else {
      client[method.localName] = (request: unknown = {}, callOptions: RpcCallOptions = {}) =>
        unary(raw, method, request, baseMetadata, callOptions);
    }
  }
  return client as GrpcClient<M>;
}

function unary(raw: GenericClient, method: AnyMethod, request: unknown, base: grpc.Metadata, options: RpcCallOptions): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const metadata = options.headers ? mergeMetadata(base, options.headers) : base;
    const signal = options.signal;
    const onAbort = () => call.cancel();
    const call = raw.makeUnaryRequest<unknown, Buffer>(
      method.path,
      (message: unknown) => toBuffer(method.input.encode(message as never)),
      (bytes: Buffer) => bytes,
      request,
      metadata,
      callOptionsOf(options),
      (error, bytes) => {
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(fromServiceError(error));
        else {
          try {
            resolve(method.output.decode(bytes!));
          } catch (decodeError) {
            reject(decodeError);
          }
        }
      },
    );
    if (signal) {
      if (signal.aborted) call.cancel();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}

async function* serverStream(raw: GenericClient, method: AnyMethod, request: unknown, base: grpc.Metadata, options: RpcCallOptions): AsyncIterable<unknown> {
  const metadata = options.headers ? mergeMetadata(base, options.headers) : base;
  const stream = raw.makeServerStreamRequest<unknown, Buffer>(
    method.path,
    (message: unknown) => toBuffer(method.input.encode(message as never)),
    (bytes: Buffer) => bytes,
    request,
    metadata,
    callOptionsOf(options),
  );
  const onAbort = () => stream.cancel();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const bytes of stream) yield method.output.decode(bytes as Buffer);
  } catch (error) {
    throw isServiceError(error) ? fromServiceError(error) : error;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

function clientStream(raw: GenericClient, method: AnyMethod, requests: AsyncIterable<unknown>, base: grpc.Metadata, options: RpcCallOptions): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const metadata = options.headers ? mergeMetadata(base, options.headers) : base;
    const signal = options.signal;
    const onAbort = () => call.cancel();
    const call = raw.makeClientStreamRequest<unknown, Buffer>(
      method.path,
      (message: unknown) => toBuffer(method.input.encode(message as never)),
      (bytes: Buffer) => bytes,
      metadata,
      callOptionsOf(options),
      (error, bytes) => {
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(fromServiceError(error));
        else {
          try {
            resolve(method.output.decode(bytes!));
          } catch (decodeError) {
            reject(decodeError);
          }
        }
      },
    );
    if (signal) {
      if (signal.aborted) call.cancel();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    pump(requests, call).catch((error: unknown) => {
      call.cancel();
      reject(error);
    });
  });
}

async function* bidiStream(raw: GenericClient, method: AnyMethod, requests: AsyncIterable<unknown>, base: grpc.Metadata, options: RpcCallOptions): AsyncIterable<unknown> {
  const metadata = options.headers ? mergeMetadata(base, options.headers) : base;
  const call = raw.makeBidiStreamRequest<unknown, Buffer>(
    method.path,
    (message: unknown) => toBuffer(method.input.encode(message as never)),
    (bytes: Buffer) => bytes,
    metadata,
    callOptionsOf(options),
  );
  const onAbort = () => call.cancel();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // Requests are written while responses are read; a failing request iterable cancels the call.
  let pumpError: unknown;
  pump(requests, call).catch((error: unknown) => {
    pumpError = error;
    call.cancel();
  });
  try {
    for await (const bytes of call) yield method.output.decode(bytes as Buffer);
  } catch (error) {
    if (pumpError !== undefined) throw pumpError;
    throw isServiceError(error) ? fromServiceError(error) : error;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** Writes every request (waiting for 'drain' when grpc-js' buffer is full), then half-closes. */
async function pump(requests: AsyncIterable<unknown>, call: grpc.ClientWritableStream<unknown> | grpc.ClientDuplexStream<unknown, Buffer>): Promise<void> {
  for await (const request of requests) {
    if (!call.write(request)) await new Promise((resolve) => call.once('drain', resolve));
  }
  call.end();
}

function callOptionsOf(options: RpcCallOptions): grpc.CallOptions {
  return options.timeoutMs === undefined ? {} : { deadline: Date.now() + options.timeoutMs };
}

function isServiceError(error: unknown): error is grpc.ServiceError {
  return typeof error === 'object' && error !== null && 'code' in error && typeof (error as { code: unknown }).code === 'number';
}

/** grpc-js `ServiceError` → `RpcError` (the status details as message, trailers as metadata). */
export function fromServiceError(error: grpc.ServiceError): RpcError {
  return new RpcError(codeFromGrpcStatus(error.code), error.details, { cause: error, metadata: error.metadata ? metadataToHeaders(error.metadata) : undefined });
}

function headersToMetadata(init: HeadersInit | undefined): grpc.Metadata {
  const metadata = new grpc.Metadata();
  if (init) new Headers(init).forEach((value, key) => metadata.set(key, value));
  return metadata;
}

function mergeMetadata(base: grpc.Metadata, init: HeadersInit): grpc.Metadata {
  const metadata = base.clone();
  new Headers(init).forEach((value, key) => metadata.set(key, value));
  return metadata;
}
