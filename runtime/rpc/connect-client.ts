/**
 * @module
 * A Connect protocol client over `fetch`: unary calls in JSON or binary, errors
 * as `RpcError` read from the Connect error body (or inferred from the HTTP
 * status when a proxy answered instead of the server).
 */
import { RpcError, codeFromHttpStatus, errorMessage, isRpcCode } from './errors.js';
import type { RpcCallOptions, RpcClient, RpcMethodDescriptor, RpcMethods, RpcServiceDescriptor } from './types.js';

/** Options for {@link createConnectClient}. */
export interface ConnectClientOptions {
  /** Server origin plus any prefix the service is mounted under: `http://localhost:3000`. */
  readonly baseUrl: string;
  /**
   * Send and expect `application/proto` instead of JSON.
   * @default false
   */
  readonly binary?: boolean;
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
 * const system = createConnectClient(SystemServiceDescriptor, { baseUrl: 'http://localhost:3000', binary: true });
 * const { displayName, status } = await system.getService({ name: 'sshd' });
 * ```
 */
export function createConnectClient<M extends RpcMethods>(
  descriptor: RpcServiceDescriptor<M>,
  options: ConnectClientOptions,
): RpcClient<M> {
  const client: Record<string, unknown> = {};
  for (const method of Object.values(descriptor.methods) as AnyMethod[]) {
    if (method.clientStreaming || method.serverStreaming) {
      const error = () => new RpcError('unimplemented', `${method.path.slice(1)}: streaming is not supported by the Connect client; use gRPC`);
      // Same shape as the typed signature: an async iterable for server streams, a promise otherwise.
      client[method.localName] = method.serverStreaming
        ? async function* unsupported() {
          throw error();
        }
        : () => Promise.reject(error());
    } else {
      client[method.localName] = connectCall(method, options);
    }
  }
  return client as RpcClient<M>;
}

function connectCall(method: AnyMethod, options: ConnectClientOptions) {
  const url = options.baseUrl.replace(/\/+$/, '') + method.path;
  const binary = options.binary ?? false;
  const contentType = binary ? 'application/proto' : 'application/json';
  // Hoisted: the same header list serves every call without per-call overrides.
  const baseHeaders = new Headers(options.headers);
  baseHeaders.set('content-type', contentType);
  baseHeaders.set('connect-protocol-version', '1');
  if (options.timeoutMs !== undefined) baseHeaders.set('connect-timeout-ms', String(options.timeoutMs));
  const doFetch = options.fetch ?? fetch;
  return async function call(request: unknown = {}, callOptions: RpcCallOptions = {}): Promise<unknown> {
    let headers: Headers = baseHeaders;
    if (callOptions.headers !== undefined || callOptions.timeoutMs !== undefined) {
      headers = new Headers(baseHeaders);
      if (callOptions.headers) new Headers(callOptions.headers).forEach((value, key) => headers.set(key, value));
      if (callOptions.timeoutMs !== undefined) headers.set('connect-timeout-ms', String(callOptions.timeoutMs));
    }
    const body = binary
      ? (method.input.encode(request as never) as Uint8Array<ArrayBuffer>)
      : JSON.stringify(method.input.toJson(request as never));
    let response: Response;
    try {
      response = await doFetch(url, { method: 'POST', headers, body, signal: callOptions.signal });
    } catch (error) {
      if (callOptions.signal?.aborted) throw new RpcError('canceled', 'call canceled', { cause: error });
      throw new RpcError('unavailable', `cannot reach ${url}: ${errorMessage(error)}`, { cause: error });
    }
    if (response.status === 200) {
      if (binary) return method.output.decode(new Uint8Array(await response.arrayBuffer()));
      return method.output.fromJson(await readJson(response, url));
    }
    throw await errorFromResponse(response);
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

/** Reads a Connect error body; falls back to the HTTP status when the body is not one. */
async function errorFromResponse(response: Response): Promise<RpcError> {
  const text = await response.text();
  if ((response.headers.get('content-type') ?? '').startsWith('application/json')) {
    try {
      const body = JSON.parse(text) as { code?: unknown; message?: unknown };
      if (isRpcCode(body.code)) {
        return new RpcError(body.code, typeof body.message === 'string' ? body.message : '', { metadata: response.headers });
      }
    } catch {
      // Not JSON after all: fall through to the status-based code.
    }
  }
  return new RpcError(codeFromHttpStatus(response.status), `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`, { metadata: response.headers });
}
