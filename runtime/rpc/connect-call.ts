/**
 * @module
 * What every call of the Connect client does, unary or streaming: its headers (the client's,
 * then the call's, and the deadline as `Connect-Timeout-Ms`), its abort signal (the caller's and
 * the deadline's), and reading an error answer.
 */
import { formatTimeout, MAX_TIMER_MS } from './connect-timeout.js';
import { codeFromHttpStatus, isRpcCode, RpcError } from './errors.js';
import type { RpcCallOptions } from './types.js';

/** The headers, deadline and signal of one call. */
export interface CallSetup {
  readonly headers: Headers;
  /** The call's deadline in milliseconds, if any. */
  readonly timeoutMs: number | undefined;
  /** Fires when the deadline passes (undefined when there is none to arm). */
  readonly deadline: AbortSignal | undefined;
  /** The caller's signal and the deadline's, either of which ends the call. */
  readonly signal: AbortSignal | undefined;
}

/**
 * Merges the call's options over the client's headers (`base`, shared by every call and not
 * modified), and arms the deadline. A call whose signal aborted already is `canceled`; a
 * deadline of 0 ms or less has passed already.
 */
export function setUpCall(base: Headers, clientTimeoutMs: number | undefined, callOptions: RpcCallOptions): CallSetup {
  // Nothing is sent for a call cancelled already, whatever `fetch` would make of the signal.
  if (callOptions.signal?.aborted) throw new RpcError('canceled', 'call canceled before it began', { cause: callOptions.signal.reason });
  let headers = base;
  if (callOptions.headers !== undefined || callOptions.timeoutMs !== undefined) {
    headers = new Headers(base);
    if (callOptions.headers) for (const [key, value] of new Headers(callOptions.headers)) headers.set(key, value);
    if (callOptions.timeoutMs !== undefined) headers.set('connect-timeout-ms', formatTimeout(callOptions.timeoutMs));
  }
  const timeoutMs = callOptions.timeoutMs ?? clientTimeoutMs;
  if (timeoutMs !== undefined && timeoutMs <= 0) throw deadlineExceeded(timeoutMs);
  const deadline = timeoutMs !== undefined && timeoutMs <= MAX_TIMER_MS ? AbortSignal.timeout(Math.ceil(timeoutMs)) : undefined;
  const signal = deadline && callOptions.signal ? AbortSignal.any([callOptions.signal, deadline]) : (deadline ?? callOptions.signal);
  return { headers, timeoutMs, deadline, signal };
}

/**
 * What an error thrown during a call means: an `RpcError` as it is, `canceled` when the caller
 * aborted, `deadline_exceeded` when the deadline passed, anything else unchanged.
 */
export function callError(error: unknown, setup: CallSetup, callOptions: RpcCallOptions): unknown {
  if (error instanceof RpcError) return error;
  if (callOptions.signal?.aborted) return new RpcError('canceled', 'call canceled', { cause: error });
  if (setup.deadline?.aborted) return deadlineExceeded(setup.timeoutMs!, error);
  return error;
}

export function deadlineExceeded(timeoutMs: number, cause?: unknown): RpcError {
  return new RpcError('deadline_exceeded', `deadline of ${timeoutMs} ms exceeded`, cause === undefined ? {} : { cause });
}

/** Reads a Connect error body; falls back to the HTTP status when the body is not one. */
export async function errorFromResponse(response: Response): Promise<RpcError> {
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
  return new RpcError(codeFromHttpStatus(response.status), `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`, {
    metadata: response.headers,
  });
}

/**
 * A response message that does not decode is the server's fault (or a proxy's), not the
 * caller's: `internal`, never the `invalid_argument` the codec raises for bad input.
 */
export function decodeResponse(url: string, decode: () => unknown): unknown {
  try {
    return decode();
  } catch (error) {
    if (error instanceof RpcError && error.code === 'invalid_argument') {
      throw new RpcError('internal', `invalid response from ${url}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
