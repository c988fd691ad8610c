/**
 * @module
 * A Connect protocol client over `fetch`: unary calls in JSON, or in binary through the
 * {@link BinaryFormat} the options name (so that a JSON client never loads one), errors
 * as `RpcError` read from the Connect error body (or inferred from the HTTP
 * status when a proxy answered instead of the server); streaming calls in
 * `connect-stream-client.ts`.
 *
 * A deadline (`timeoutMs`) is both sent (`Connect-Timeout-Ms`, whole milliseconds) and kept
 * here: a server that never answers ends the call with `deadline_exceeded` all the same.
 */
import { callError, decodeResponse, errorFromResponse, setUpCall } from './connect-call.js';
import { streamingCall } from './connect-stream-client.js';
import { formatTimeout } from './connect-timeout.js';
import { errorMessage, RpcError } from './errors.js';
import type { BinaryFormat, RpcCallOptions, RpcClient, RpcMethodDescriptor, RpcMethods, RpcServiceDescriptor } from './types.js';

/** Options for {@link createConnectClient}. */
export interface ConnectClientOptions {
  /** Server origin plus any prefix the service is mounted under: `http://localhost:3000`. */
  readonly baseUrl: string;
  /**
   * Send and expect protobuf binary (`application/proto`, `application/connect+proto` on streams)
   * in this format instead of JSON: pass `protobufBinary` (from `loom/protobuf`). Left out, calls
   * speak JSON and nothing of protobufjs is loaded.
   * @default undefined (JSON)
   */
  readonly binary?: BinaryFormat;
  /** Headers sent with every call (e.g. `authorization`). */
  readonly headers?: HeadersInit;
  /** A `fetch` to use instead of the global one (tests, proxies, retries). */
  readonly fetch?: typeof fetch;
  /** Default deadline in milliseconds for every call. */
  readonly timeoutMs?: number;
}

type AnyMethod = RpcMethodDescriptor<unknown, unknown>;

/**
 * A typed Connect client for a service descriptor.
 *
 * @example
 * ```ts
 * const system = createConnectClient(SystemServiceDescriptor, { baseUrl: 'http://localhost:3000', binary: protobufBinary });
 * const { displayName, status } = await system.getService({ name: 'sshd' });
 * ```
 */
export function createConnectClient<M extends RpcMethods>(
  descriptor: RpcServiceDescriptor<M>,
  options: ConnectClientOptions,
): RpcClient<M> {
  const client: Record<string, unknown> = {};
  for (const method of Object.values(descriptor.methods) as AnyMethod[]) {
    client[method.localName] =
      method.clientStreaming || method.serverStreaming ? streamingCall(method, options) : connectCall(method, options);
  }
  return client as RpcClient<M>;
}

function connectCall(method: AnyMethod, options: ConnectClientOptions) {
  const url = options.baseUrl.replace(/\/+$/, '') + method.path;
  const binary = options.binary;
  const contentType = binary ? 'application/proto' : 'application/json';
  // Hoisted: the same header list serves every call without per-call overrides.
  const baseHeaders = new Headers(options.headers);
  baseHeaders.set('content-type', contentType);
  baseHeaders.set('connect-protocol-version', '1');
  if (options.timeoutMs !== undefined) baseHeaders.set('connect-timeout-ms', formatTimeout(options.timeoutMs));
  const doFetch = options.fetch ?? fetch;
  return async function call(request: unknown = {}, callOptions: RpcCallOptions = {}): Promise<unknown> {
    const setup = setUpCall(baseHeaders, options.timeoutMs, callOptions);
    const body = binary
      ? (binary.encode(method.input, request as never) as Uint8Array<ArrayBuffer>)
      : JSON.stringify(method.input.toJson(request as never));
    // One try around the whole exchange: the deadline or a cancel can strike while the body is read too.
    try {
      let response: Response;
      try {
        response = await doFetch(url, { method: 'POST', headers: setup.headers, body, signal: setup.signal });
      } catch (error) {
        if (setup.signal?.aborted) throw error;
        throw new RpcError('unavailable', `cannot reach ${url}: ${errorMessage(error)}`, { cause: error });
      }
      if (response.status === 200) {
        if (binary) {
          const bytes = new Uint8Array(await response.arrayBuffer());
          return decodeResponse(url, () => binary.decode(method.output, bytes));
        }
        const json = await readJson(response, url);
        // Unknown fields are skipped, as binary decoding skips unknown field numbers: a newer server stays readable.
        return decodeResponse(url, () => method.output.fromJson(json, { ignoreUnknownFields: true }));
      }
      throw await errorFromResponse(response);
    } catch (error) {
      throw callError(error, setup, callOptions);
    }
  };
}

/** A 200 whose body is not JSON came from something other than a Connect server: `internal`, not a bare `SyntaxError`. */
async function readJson(response: Response, url: string): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RpcError('internal', `invalid JSON in the response of ${url}: ${text.slice(0, 200)}`, { cause: error });
  }
}
