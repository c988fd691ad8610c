/**
 * @module
 * Streaming RPCs over the Connect protocol (server, client and bidirectional streams), beside the
 * unary calls of `connect-server.ts`. A request is `application/connect+proto` or
 * `application/connect+json`; its body is enveloped messages (`connect-envelope.ts`), each
 * compressed or not as `Connect-Content-Encoding` says. The answer is always HTTP 200 once the
 * Content-Type is one of those two: the response messages, each in its envelope, then an
 * end-of-stream envelope with `{}` or `{"error":{"code","message"}}` — which is also how a refused
 * call (a bad header, `authorize`, the deadline) ends.
 *
 * Bidirectional streams work as far as HTTP/1.1 and the client allow: the handler reads requests
 * as they arrive and may answer before the last; a `fetch` client sends its whole request first.
 *
 * @see https://connectrpc.com/docs/protocol#streaming-rpcs
 */
import { decodeBody } from './connect-compression.js';
import { envelope, FLAG_COMPRESSED, FLAG_END_STREAM, readEnvelopes } from './connect-envelope.js';
import { mediaTypeOf } from './connect-request.js';
import { armDeadline } from './connect-timeout.js';
import { errorMessage, RpcError, toRpcError } from './errors.js';
import { protobufBinary } from './protobuf-binary.js';
import type { RpcContext, RpcMethodDescriptor, RpcPeer, RpcServerOptions } from './types.js';

type AnyMethod = RpcMethodDescriptor<unknown, unknown>;
/** A handler of any streaming kind, called as its method's kind says. */
export type StreamHandler = (input: unknown, ctx: RpcContext) => AsyncIterable<unknown> | Promise<unknown>;

const TEXT = new TextDecoder();
const UTF8 = new TextEncoder();
const SUPPORTED_ENCODINGS = 'gzip, identity';

/** `true` for `application/connect+proto`, `false` for `application/connect+json`, else undefined. */
export function streamEncodingOf(contentType: string | null): boolean | undefined {
  const mime = mediaTypeOf(contentType);
  if (mime === 'application/connect+proto') return true;
  if (mime === 'application/connect+json') return false;
  return undefined;
}

/**
 * One streaming call: the response stream starts at once; the deadline and `authorize` come
 * first inside it, then the handler, fed requests as their envelopes arrive (each at most
 * `maxMessageBytes`, after inflating). Errors end the stream in the protocol's shape; errors that
 * are not `RpcError`s reach `options.onError` and the client as `internal`.
 */
export function serveConnectStream(
  method: AnyMethod,
  handler: StreamHandler,
  request: Request,
  peer: RpcPeer | undefined,
  options: RpcServerOptions,
  maxMessageBytes: number,
): Response {
  const binary = streamEncodingOf(request.headers.get('content-type'))!;
  const frames = streamFrames({ method, handler, request, peer, options, maxMessageBytes, binary });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await frames.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    // The client went away: end the handler's iteration (its `finally` blocks run).
    async cancel() {
      await frames.return(undefined);
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': binary ? 'application/connect+proto' : 'application/connect+json' },
  });
}

/** One streaming call, as {@link serveConnectStream} was given it, and its encoding. */
interface StreamCall {
  readonly method: AnyMethod;
  readonly handler: StreamHandler;
  readonly request: Request;
  readonly peer: RpcPeer | undefined;
  readonly options: RpcServerOptions;
  readonly maxMessageBytes: number;
  readonly binary: boolean;
}

async function* streamFrames({ method, handler, request, peer, options, maxMessageBytes, binary }: StreamCall): AsyncGenerator<Uint8Array> {
  const headers = request.headers;
  let ctx: RpcContext = { method, protocol: 'connect', headers, signal: request.signal, ...(peer === undefined ? {} : { peer }) };
  let clear = (): void => {};
  try {
    const deadline = armDeadline(headers.get('connect-timeout-ms'), request.signal);
    clear = deadline.clear;
    ctx = { ...ctx, signal: deadline.signal };
    const race = <T>(step: Promise<T>): Promise<T> => (deadline.expired ? Promise.race([step, deadline.expired]) : step);
    const version = headers.get('connect-protocol-version');
    if (version !== null && version !== '1')
      throw new RpcError('invalid_argument', `connect-protocol-version must be "1", got ${JSON.stringify(version)}`);
    const gzip = messageEncoding(headers.get('connect-content-encoding'));
    if (options.authorize) await race(Promise.resolve(options.authorize(ctx)));

    const requests = decodeRequests(method, request, binary, gzip, maxMessageBytes);
    let outputs: AsyncIterable<unknown>;
    if (method.clientStreaming) {
      const result = handler(requests, ctx);
      outputs = method.serverStreaming ? (result as AsyncIterable<unknown>) : single(await race(result as Promise<unknown>));
    } else {
      outputs = handler(await race(onlyMessage(requests)), ctx) as AsyncIterable<unknown>;
    }
    const iterator = outputs[Symbol.asyncIterator]();
    let finished = false;
    try {
      for (;;) {
        const step = await race(iterator.next());
        if (step.done) {
          finished = true;
          break;
        }
        yield envelope(0, encodeOutput(method, step.value, binary, ctx, options));
      }
    } finally {
      // Stopped early (an error, the deadline, the client gone): let the handler clean up, without
      // waiting for a handler that may be stuck in what the deadline interrupted.
      if (!finished) iterator.return?.()?.catch(() => {});
    }
    yield endStream(undefined);
  } catch (error) {
    const rpc = toRpcError(error);
    if (rpc !== error && options.onError) options.onError(error, ctx);
    yield endStream(rpc);
  } finally {
    clear();
  }
}

/** `Connect-Content-Encoding`: whether request messages may be gzip; `unimplemented` for another. */
function messageEncoding(value: string | null): boolean {
  if (value === null) return false;
  const name = value.trim().toLowerCase();
  if (name === 'gzip') return true;
  if (name === 'identity') return false;
  throw new RpcError('unimplemented', `connect-content-encoding ${value} is not supported; supported: ${SUPPORTED_ENCODINGS}`);
}

/** The request messages, decoded as their envelopes arrive. */
async function* decodeRequests(
  method: AnyMethod,
  request: Request,
  binary: boolean,
  gzip: boolean,
  maxMessageBytes: number,
): AsyncGenerator<unknown> {
  const envelopes = readEnvelopes(request.body, maxMessageBytes);
  for (;;) {
    let next: IteratorResult<{ flags: number; data: Uint8Array }>;
    try {
      next = await envelopes.next();
    } catch (error) {
      if (error instanceof RpcError) throw error;
      // The client went away, or broke the HTTP framing, while sending.
      throw new RpcError(
        request.signal.aborted ? 'canceled' : 'invalid_argument',
        `cannot read the request stream: ${errorMessage(error)}`,
        { cause: error },
      );
    }
    if (next.done) return;
    const { flags, data } = next.value;
    if (flags & FLAG_END_STREAM)
      throw new RpcError('invalid_argument', 'a request message is flagged end-of-stream, which only responses may be');
    let bytes = data;
    if (flags & FLAG_COMPRESSED) {
      if (!gzip)
        throw new RpcError('invalid_argument', 'a request message is flagged compressed but connect-content-encoding names no compression');
      bytes = await decodeBody(data, 'gzip', maxMessageBytes);
    }
    yield binary
      ? protobufBinary.decode(method.input, bytes)
      : method.input.fromJson(parseJson(TEXT.decode(bytes), method.input.typeName), { ignoreUnknownFields: true });
  }
}

/** A client stream's one response, as a stream. */
async function* single(message: unknown): AsyncGenerator<unknown> {
  yield message;
}

/** The one request of a server stream: none, or a second, is `invalid_argument`. */
async function onlyMessage(requests: AsyncGenerator<unknown>): Promise<unknown> {
  const first = await requests.next();
  if (first.done) throw new RpcError('invalid_argument', 'the request stream holds no message; this method takes one');
  const second = await requests.next();
  if (!second.done) throw new RpcError('invalid_argument', 'the request stream holds more than one message; this method takes one');
  return first.value;
}

/** A response message's bytes; one the codec refuses is the server's fault (`internal`). */
function encodeOutput(method: AnyMethod, message: unknown, binary: boolean, ctx: RpcContext, options: RpcServerOptions): Uint8Array {
  try {
    return binary
      ? protobufBinary.encode(method.output, message as never)
      : UTF8.encode(JSON.stringify(method.output.toJson(message as never)));
  } catch (error) {
    options.onError?.(error, ctx);
    throw new RpcError('internal', `a response of ${method.path.slice(1)} cannot be encoded`, { cause: error });
  }
}

/** The end-of-stream envelope: `{}`, or the call's error. */
function endStream(error: RpcError | undefined): Uint8Array<ArrayBuffer> {
  return envelope(FLAG_END_STREAM, UTF8.encode(JSON.stringify(error === undefined ? {} : { error: error.toJSON() })));
}

/** A message's JSON text parsed; malformed JSON is `invalid_argument` (unary and streaming calls alike). */
export function parseJson(text: string, typeName: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RpcError('invalid_argument', `cannot decode message ${typeName} from JSON: ${errorMessage(error)}`);
  }
}
