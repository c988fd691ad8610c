/**
 * @module
 * Streaming calls of the Connect client (`connect-stream.ts` is the server's side): requests go
 * as enveloped messages, `application/connect+proto` or `application/connect+json`; a client
 * stream is sent as the caller's iterable yields it (`duplex: 'half'`), so the response follows
 * the last request; responses are yielded as their envelopes arrive, and the end-of-stream
 * envelope's error, if any, is thrown as an `RpcError`.
 */
import { type CallSetup, callError, decodeResponse, errorFromResponse, setUpCall } from './connect-call.js';
import type { ConnectClientOptions } from './connect-client.js';
import { envelope, FLAG_COMPRESSED, FLAG_END_STREAM, readEnvelopes } from './connect-envelope.js';
import { formatTimeout } from './connect-timeout.js';
import { errorMessage, isRpcCode, RpcError } from './errors.js';
import type { BinaryFormat, RpcCallOptions, RpcMethodDescriptor } from './types.js';

type AnyMethod = RpcMethodDescriptor<unknown, unknown>;

/** The largest response message read: as the server's default request limit (4 MiB). */
const MAX_RESPONSE_MESSAGE_BYTES = 4 * 1024 * 1024;
const UTF8 = new TextEncoder();
const TEXT = new TextDecoder();

/**
 * The client function of a streaming method, in the shape its kind has: a server or
 * bidirectional stream returns an async iterable of responses, a client stream a promise of the
 * one response.
 */
export function streamingCall(method: AnyMethod, options: ConnectClientOptions): (input: unknown, callOptions?: RpcCallOptions) => unknown {
  const url = options.baseUrl.replace(/\/+$/, '') + method.path;
  const binary = options.binary;
  const baseHeaders = new Headers(options.headers);
  baseHeaders.set('content-type', binary ? 'application/connect+proto' : 'application/connect+json');
  baseHeaders.set('connect-protocol-version', '1');
  if (options.timeoutMs !== undefined) baseHeaders.set('connect-timeout-ms', formatTimeout(options.timeoutMs));
  const doFetch = options.fetch ?? fetch;
  const encode = (message: unknown): Uint8Array<ArrayBuffer> =>
    envelope(
      0,
      binary ? binary.encode(method.input, message as never) : UTF8.encode(JSON.stringify(method.input.toJson(message as never))),
    );

  async function* responses(input: unknown, callOptions: RpcCallOptions = {}): AsyncGenerator<unknown> {
    const setup = setUpCall(baseHeaders, options.timeoutMs, callOptions);
    let sendError: unknown;
    const body = method.clientStreaming
      ? requestStream(input as AsyncIterable<unknown>, encode, (error) => (sendError = error))
      : encode(input ?? {});
    try {
      let response: Response;
      try {
        // `duplex` is what Node's fetch needs for a streamed body; the DOM's RequestInit lacks it.
        const init = { method: 'POST', headers: setup.headers, body, signal: setup.signal, duplex: 'half' } as RequestInit;
        response = await doFetch(url, init);
      } catch (error) {
        if (sendError !== undefined) throw sendError;
        if (setup.signal?.aborted) throw error;
        throw new RpcError('unavailable', `cannot reach ${url}: ${errorMessage(error)}`, { cause: error });
      }
      if (response.status !== 200) throw await errorFromResponse(response);
      // A 200 in another type came from something in between (a proxy's page), not a Connect server.
      const type = (response.headers.get('content-type') ?? '').toLowerCase();
      if (!type.startsWith(binary ? 'application/connect+proto' : 'application/connect+json')) {
        throw new RpcError('internal', `${url} answered a stream with content type ${type || '(none)'}`);
      }
      yield* readResponses(method, response, url, binary, setup);
    } catch (error) {
      throw callError(sendError ?? error, setup, callOptions);
    }
  }

  if (method.serverStreaming) return responses;
  return async (input: unknown, callOptions?: RpcCallOptions) => {
    let result: { value: unknown } | undefined;
    for await (const message of responses(input, callOptions)) {
      if (result !== undefined) throw new RpcError('internal', `${url} answered a client stream with more than one message`);
      result = { value: message };
    }
    if (result === undefined) throw new RpcError('internal', `${url} answered a client stream with no message`);
    return result.value;
  };
}

/** The caller's requests as a byte stream of envelopes; an encoding error is kept for the caller. */
function requestStream(
  requests: AsyncIterable<unknown>,
  encode: (message: unknown) => Uint8Array<ArrayBuffer>,
  failed: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const iterator = requests[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(encode(value));
      } catch (error) {
        failed(error);
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** The response messages, then the end of the stream: its error thrown, or nothing. */
async function* readResponses(
  method: AnyMethod,
  response: Response,
  url: string,
  binary: BinaryFormat | undefined,
  setup: CallSetup,
): AsyncGenerator<unknown> {
  const truncated = () => new RpcError('unavailable', `the response stream of ${url} ended inside a message`);
  for await (const { flags, data } of readEnvelopes(response.body, MAX_RESPONSE_MESSAGE_BYTES, truncated)) {
    if (flags & FLAG_END_STREAM) {
      const error = endStreamError(data, url, response.headers);
      if (error) throw error;
      return;
    }
    // This client asks for no compression (no Connect-Accept-Encoding), so none may come.
    if (flags & FLAG_COMPRESSED) throw new RpcError('internal', `${url} sent a compressed message, which this client did not ask for`);
    yield decodeResponse(url, () =>
      binary ? binary.decode(method.output, data) : method.output.fromJson(JSON.parse(TEXT.decode(data)), { ignoreUnknownFields: true }),
    );
  }
  if (setup.signal?.aborted) throw setup.signal.reason;
  throw new RpcError('unavailable', `the response stream of ${url} ended without its end-of-stream message`);
}

/** The error of an end-of-stream message, or undefined when the call succeeded. */
function endStreamError(data: Uint8Array, url: string, headers: Headers): RpcError | undefined {
  let end: { error?: { code?: unknown; message?: unknown } };
  try {
    end = JSON.parse(TEXT.decode(data)) as typeof end;
  } catch (error) {
    throw new RpcError('internal', `the end-of-stream message of ${url} is not JSON`, { cause: error });
  }
  if (end.error === undefined || end.error === null) return undefined;
  const code = isRpcCode(end.error.code) ? end.error.code : 'unknown';
  return new RpcError(code, typeof end.error.message === 'string' ? end.error.message : '', { metadata: headers });
}
