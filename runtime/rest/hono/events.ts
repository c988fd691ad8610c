/**
 * @module
 * Fires `@Events` after a response is produced: by status (2xx by default) or by thrown error class.
 */
import type { Context } from 'hono';
import { ANY_STATUS } from '../decorators/events.js';
import type { EventBinding } from '../metadata/raw.js';

/** Runs the bindings that match; an event's failure goes to `onError` and never changes the answer. */
export async function fireEvents(
  events: readonly EventBinding[],
  c: Context,
  status: number,
  entity: unknown,
  error: unknown,
  onError: (error: unknown, c: Context) => void,
): Promise<void> {
  for (const binding of events) {
    let value: unknown;
    if (binding.exception !== undefined) {
      if (!(error instanceof (binding.exception as Function))) continue;
      value = error;
    } else if (binding.response === undefined || binding.response === -1) {
      if (error !== undefined || status < 200 || status > 299) continue;
      value = entity;
    } else if (binding.response === ANY_STATUS || binding.response === status) {
      value = error ?? entity;
    } else continue;
    try {
      const event = binding.event;
      await (typeof event === 'function' ? event(value, c) : event.execute(value, c));
    } catch (e) {
      onError(e, c);
    }
  }
}
