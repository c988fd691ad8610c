/**
 * @module
 * `@Events`: processors that run after the response is produced, chosen by status or by exception.
 */

import type { EventBinding } from '../metadata/raw.js';
import { rawMethod } from '../metadata/store.js';
import type { ErrorClass, RestEvent } from '../types.js';

/** Fire on any status. */
export const ANY_STATUS = -2;

/**
 * Builds one event binding. Without `response` or `exception` it fires for 2xx answers with the
 * produced entity; with `response` on that status (`ANY_STATUS` for all); with `exception` when an
 * error of that class was thrown, with the error.
 */
// biome-ignore lint/suspicious/noExplicitAny: the value's type is the event's to declare.
export function Event<T = any>(event: RestEvent<T>, on: { response?: number; exception?: ErrorClass } = {}): EventBinding {
  return { event: event as RestEvent, ...on };
}

/**
 * Events of a method. They run after the writer (or exception handler) produced the response and
 * before it is returned; an event that throws is reported to `onError` and never changes the answer.
 *
 * @example
 * ```ts
 * @POST @Path('/users') @Status(201)
 * @Events(Event((user) => audit.push(user)), Event((err) => alerts.push(err), { exception: ConflictError }))
 * create(@BodyParam() user: NewUser) { … }
 * ```
 */
export function Events(...events: EventBinding[]): MethodDecorator {
  return (target, key) => {
    rawMethod(target, key).events = events;
  };
}
