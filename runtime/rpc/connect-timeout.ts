/**
 * @module
 * The `Connect-Timeout-Ms` header as the client writes it and the server reads it, and the longest
 * deadline either side can arm as a Node timer.
 */
import { RpcError } from './errors.js';

/**
 * The longest delay Node's timers take (2^31 − 1 ms, almost 25 days): a longer one fires at once.
 * The header may have ten digits, so a deadline beyond this arms no timer at all.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** The header's largest value: ten digits, per the protocol. */
const MAX_HEADER_MS = 9_999_999_999;

/** The header for `timeoutMs`: whole milliseconds (rounded up, so a deadline never shrinks), ten digits at most. */
export function formatTimeout(timeoutMs: number): string {
  if (Number.isNaN(timeoutMs)) throw new RpcError('invalid_argument', 'timeoutMs must be a number of milliseconds');
  return String(Math.min(Math.max(Math.ceil(timeoutMs), 0), MAX_HEADER_MS));
}

/** The header's milliseconds: up to 10 positive digits, per the protocol; anything else is `invalid_argument`. */
export function parseTimeout(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (!/^\d{1,10}$/.test(value)) throw new RpcError('invalid_argument', `invalid connect-timeout-ms ${JSON.stringify(value)}`);
  return Number(value);
}

/** A call's deadline, armed from its `Connect-Timeout-Ms` by {@link armDeadline}. */
export interface CallDeadline {
  /** The request's signal, joined with the deadline's when there is one. */
  readonly signal: AbortSignal;
  /** Rejects with `deadline_exceeded` when the deadline passes; undefined without one. */
  readonly expired: Promise<never> | undefined;
  /** Aborted when the deadline passes; undefined without one. */
  readonly deadlineSignal: AbortSignal | undefined;
  /** Disarms the timer once the call is over. */
  clear(): void;
}

const NO_TIMER = (): void => {};

/**
 * Arms the deadline a `Connect-Timeout-Ms` header asks for. A deadline of 0 ms has passed before
 * the call begins: nothing of it may run (a StopService must not stop anything for a caller that
 * has given up), not even `authorize`, so that is thrown at once. Beyond Node's longest timer the
 * deadline is too far away to matter: no timer rather than one that Node would fire after 1 ms.
 */
export function armDeadline(header: string | null, requestSignal: AbortSignal): CallDeadline {
  const timeout = parseTimeout(header);
  if (timeout === 0) throw new RpcError('deadline_exceeded', 'deadline of 0 ms exceeded before the call began');
  if (timeout === undefined || timeout > MAX_TIMER_MS)
    return { signal: requestSignal, expired: undefined, deadlineSignal: undefined, clear: NO_TIMER };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new RpcError('deadline_exceeded', `deadline of ${timeout} ms exceeded`);
      controller.abort(error);
      reject(error);
    }, timeout);
  });
  // Callers race it against each step; after the last one nobody listens.
  expired.catch(NO_TIMER);
  return {
    signal: AbortSignal.any([requestSignal, controller.signal]),
    expired,
    deadlineSignal: controller.signal,
    clear: () => clearTimeout(timer),
  };
}
