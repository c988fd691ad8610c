/**
 * @module
 * Small helpers for waiting that a caller's `AbortSignal` can cut short.
 */
import { HostError } from './host-adapter.js';

/**
 * Resolves after `ms`, or rejects with a `canceled`/`timeout` {@link HostError} when `signal` aborts first.
 *
 * @example
 * ```ts
 * await sleep(200, ctx.signal); // one polling interval
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Waits for `promise`, but stops waiting when `signal` aborts. The promise itself runs on:
 * a service manager's job is not undone because one client went away.
 */
export function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The {@link HostError} for an aborted signal: `timeout` for a deadline, `canceled` otherwise. */
export function abortError(signal: AbortSignal): HostError {
  const reason: unknown = signal.reason;
  if (reason instanceof HostError) return reason;
  const isTimeout = reason instanceof Error && reason.name === 'TimeoutError';
  return isTimeout
    ? new HostError('timeout', 'the deadline expired before the operation finished', { cause: reason })
    : new HostError('canceled', 'the caller canceled the operation', { cause: reason });
}
