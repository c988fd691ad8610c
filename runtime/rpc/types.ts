/**
 * @module
 * The shapes shared by the RPC runtime and generated `X.codec.ts` / `X.server.ts` /
 * `X.client.ts` files (contracts.md §5).
 */

/**
 * Reads and writes one protobuf message type as proto3 JSON, and makes its messages. Messages are
 * plain objects in Loom's shape: camelCase keys, proto3 zero values present, enums as numbers,
 * 64-bit integers as decimal strings (map keys too), bytes as `Uint8Array`, well-known types in
 * their JSON form (a `Timestamp` is an RFC 3339 string).
 *
 * Fields with explicit presence (message fields, oneof members, proto3 `optional`, proto2
 * `optional` and `required`) are properties only when set: an unset oneof member is absent,
 * never a zero value, so `order.card !== undefined` tells which member of a oneof is set. Only
 * own properties are read.
 *
 * Protobuf binary is not the codec's: a {@link BinaryFormat} (`protobufBinary`) writes and reads
 * a codec's messages, so that code speaking JSON alone never loads a binary implementation.
 */
export interface MessageCodec<T> {
  /** Fully-qualified protobuf name, e.g. `v1alpha1.GetServiceRequest`. */
  readonly typeName: string;
  /**
   * What a reader assumes for each singular scalar or enum field that is not set: its proto2
   * `[default = …]`, else its type's zero value. Decoded messages leave unset explicit-presence
   * fields absent, so read `account.level ?? AccountCodec.defaults.level`.
   */
  readonly defaults: Readonly<Partial<T>>;
  /**
   * The protobufjs JSON descriptor (`Root.toJSON()` shape) the codec's type is declared in, as
   * given to `createCodecRegistry`: the handle a {@link BinaryFormat} finds the type by (with
   * {@link typeName}). Not part of the message API; not enumerable.
   */
  readonly descriptor: object;
  /**
   * A message with proto3 zero values filled in (and proto2 `required` fields, with their
   * default), overlaid with `init`. Explicit-presence fields stay unset.
   */
  create(init?: MessageInit<T>): T;
  /**
   * Proto3 canonical JSON: camelCase keys, enum names, int64 as strings, zero values omitted.
   * Accepts partial messages. Throws `RpcError('invalid_argument')` for what it cannot write
   * faithfully: two members of one oneof, a missing proto2 `required` field, a map key or 64-bit
   * integer that is no number of its type, a well-known type's value not in its JSON form.
   */
  toJson(message: MessageInit<T>): unknown;
  /**
   * Accepts JSON names and proto names, enum names or numbers, `null` for "not set"; rejects
   * wrong types, two members of one oneof, missing proto2 `required` fields, and unknown fields
   * unless `options.ignoreUnknownFields` (then unknown fields and unknown enum names are
   * skipped, as protojson readers such as connect-es and connect-go do by default).
   */
  fromJson(json: unknown, options?: JsonReadOptions): T;
}

/**
 * A binary encoding of a codec's messages, kept out of {@link MessageCodec} so that JSON-only code
 * (a browser's Connect client) does not load it. `protobufBinary` is protobuf's, over protobufjs.
 *
 * @example
 * ```ts
 * const bytes = protobufBinary.encode(GetServiceRequestCodec, { name: 'sshd' });
 * const request = protobufBinary.decode(GetServiceRequestCodec, bytes);
 * ```
 */
export interface BinaryFormat {
  /**
   * The message's bytes. Accepts partial messages: absent fields are zero values. Throws
   * `RpcError('invalid_argument')` for what it cannot write faithfully: two members of one oneof,
   * a missing proto2 `required` field, a value of the wrong type.
   */
  encode<T>(codec: MessageCodec<T>, message: MessageInit<T>): Uint8Array;
  /** A message of the codec's type from its bytes; `RpcError('invalid_argument')` on bytes that are not one. */
  decode<T>(codec: MessageCodec<T>, bytes: Uint8Array): T;
}

/**
 * A message as a caller may write it: any field may be left out (`Partial<T>`). A field named
 * like a member of `Object.prototype` (`constructor`, `toString`, …) also admits that member's
 * type, because every object literal inherits it: with `Partial<T>`, TypeScript would reject
 * `{ id: 'a' }` for a message with a `string constructor` field ("Type 'Function' is not
 * assignable to type 'string'"). The codec reads own properties only, so the inherited member
 * counts as not set.
 */
// biome-ignore lint/complexity/noBannedTypes: `Object` here is the interface of `Object.prototype`'s members, as explained above.
export type MessageInit<T> = { [K in keyof T]?: T[K] | (K extends keyof Object ? Object[K] : never) };

/** Options of {@link MessageCodec.fromJson}. */
export interface JsonReadOptions {
  /**
   * Skip fields the message does not have (and enum names it does not know) instead of failing,
   * so that a peer built from a newer schema can still be read.
   * @default false
   */
  readonly ignoreUnknownFields?: boolean;
}

/** One RPC of a service. */
export interface RpcMethodDescriptor<I, O> {
  /** `GetService` */
  readonly name: string;
  /** `getService` */
  readonly localName: string;
  /** `/v1alpha1.System/GetService`: the Connect route and the gRPC method path. */
  readonly path: string;
  readonly clientStreaming: boolean;
  readonly serverStreaming: boolean;
  readonly input: MessageCodec<I>;
  readonly output: MessageCodec<O>;
}

// biome-ignore lint/suspicious/noExplicitAny: at this boundary a method table holds methods of different message types.
export type RpcMethods = Readonly<Record<string, RpcMethodDescriptor<any, any>>>;

/** A service: its fully-qualified name and its methods keyed by `localName`. */
export interface RpcServiceDescriptor<M extends RpcMethods = RpcMethods> {
  /** `v1alpha1.System` */
  readonly typeName: string;
  readonly methods: M;
}

/** What a handler learns about the call besides its request message. */
export interface RpcContext {
  readonly method: RpcMethodDescriptor<unknown, unknown>;
  readonly protocol: 'connect' | 'grpc';
  /** Request headers (Connect) or metadata (gRPC), lower-case names. */
  readonly headers: Headers;
  /** Aborted when the client cancels or the deadline passes. */
  readonly signal: AbortSignal;
  /**
   * The connection a Connect call came in on, when it came through a Node socket
   * (`@hono/node-server`). Absent when there is no socket to ask (`app.request()` in tests, other
   * runtimes) and on gRPC.
   */
  readonly peer?: RpcPeer;
}

/** The connection a call came in on (see {@link RpcContext.peer}). */
export interface RpcPeer {
  /**
   * The peer's IP address as Node reports it (`127.0.0.1`, `::1`, `::ffff:192.0.2.7`), or
   * undefined when the socket has none to report: a Unix socket, or a TCP connection that
   * closed before anyone asked.
   */
  readonly address: string | undefined;
  /** The server listens on a Unix socket (the peer is on this machine, its address undefined). */
  readonly unixSocket: boolean;
}

type InputOf<D> = D extends RpcMethodDescriptor<infer I, unknown> ? I : never;
type OutputOf<D> = D extends RpcMethodDescriptor<unknown, infer O> ? O : never;

/**
 * The handler signature of one method: unary methods take a message and resolve
 * to one; streaming sides are `AsyncIterable`s.
 */
export type RpcHandler<D> = D extends { readonly clientStreaming: true }
  ? D extends { readonly serverStreaming: true }
    ? (requests: AsyncIterable<InputOf<D>>, ctx: RpcContext) => AsyncIterable<OutputOf<D>>
    : (requests: AsyncIterable<InputOf<D>>, ctx: RpcContext) => Promise<OutputOf<D>>
  : D extends { readonly serverStreaming: true }
    ? (request: InputOf<D>, ctx: RpcContext) => AsyncIterable<OutputOf<D>>
    : (request: InputOf<D>, ctx: RpcContext) => Promise<OutputOf<D>>;

/** An implementation of every method of a service descriptor. */
export type RpcServiceImpl<M extends RpcMethods> = { [K in keyof M]: RpcHandler<M[K]> };

/**
 * Called before every handler on both transports, e.g. to require a bearer token.
 * Throw an `RpcError` (`unauthenticated`, `permission_denied`) to refuse the call.
 */
export type RpcAuthorize = (ctx: RpcContext) => void | Promise<void>;

/** Options both servers accept. */
export interface RpcServerOptions {
  /** Runs before each handler; throwing refuses the call. */
  readonly authorize?: RpcAuthorize;
  /**
   * Sees every error a handler threw that is not an `RpcError` (callers get
   * `internal` with a fixed message), for logging.
   */
  readonly onError?: (error: unknown, ctx: RpcContext) => void;
}

/** Per-call options of RPC clients. */
export interface RpcCallOptions {
  /** Cancels the call. */
  readonly signal?: AbortSignal;
  /** Extra request headers (Connect) or metadata (gRPC). */
  readonly headers?: HeadersInit;
  /** Deadline in milliseconds: `Connect-Timeout-Ms` on Connect, the call deadline on gRPC. */
  readonly timeoutMs?: number;
}

/** The client-side signature of one method. Requests may omit zero-valued fields. */
export type RpcClientMethod<D> = D extends { readonly clientStreaming: true }
  ? D extends { readonly serverStreaming: true }
    ? (requests: AsyncIterable<MessageInit<InputOf<D>>>, options?: RpcCallOptions) => AsyncIterable<OutputOf<D>>
    : (requests: AsyncIterable<MessageInit<InputOf<D>>>, options?: RpcCallOptions) => Promise<OutputOf<D>>
  : D extends { readonly serverStreaming: true }
    ? (request?: MessageInit<InputOf<D>>, options?: RpcCallOptions) => AsyncIterable<OutputOf<D>>
    : (request?: MessageInit<InputOf<D>>, options?: RpcCallOptions) => Promise<OutputOf<D>>;

/** A typed client: one method per RPC, named by `localName`. */
export type RpcClient<M extends RpcMethods> = { readonly [K in keyof M]: RpcClientMethod<M[K]> };
