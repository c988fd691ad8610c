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
