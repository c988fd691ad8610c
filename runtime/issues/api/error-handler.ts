/**
 * @module
 * The exception handler of the Issues routes: every error leaves as Gitea's `APIError` body
 * (`{"message","url"}`) with Gitea's status — the runtime's 400s for unconvertible parameters
 * or bodies become Gitea's binding 422s, and unexpected failures a 500 with a blank message.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ConversionError } from '../../rest/convert/convert.js';
import { BadRequestError, HttpError, type Violation } from '../../rest/errors.js';
import { IssueStoreError } from '../store/store.js';
import { CLIENT_CLOSED_REQUEST, clientGone } from './client-gone.js';
import type { IssuesConfig } from './config.js';
import { apiErrorBody, GiteaError, giteaJson } from './errors.js';

/** Options of {@link createIssuesErrorHandler}. */
export interface IssuesErrorHandlerOptions {
  /** Receives unexpected errors (the 500s). @default console.error */
  readonly onUnexpected?: (error: unknown, c: Context) => void;
}

/**
 * Builds the `app.onError` handler.
 *
 * @example
 * app.onError(createIssuesErrorHandler(config));
 */
export function createIssuesErrorHandler(config: IssuesConfig, options: IssuesErrorHandlerOptions = {}) {
  const onUnexpected = options.onUnexpected ?? ((error: unknown) => console.error('issues API: unexpected error', error));
  return function issuesErrorHandler(error: unknown, c: Context): Response {
    const send = (status: number, message: string) => giteaJson(apiErrorBody(message, config.publicUrl), status);
    if (error instanceof GiteaError) {
      if (error.options.emptyBody) return new Response(null, { status: error.status });
      if (error.options.messageOnly) return giteaJson({ message: error.message }, error.status);
      return send(error.status, error.message);
    }
    if (error instanceof BadRequestError) {
      // A path segment that is not a number names no issue: Gitea's PathParamInt64 reads 0 → 404.
      if (error.violations[0]?.location === 'path') return send(404, 'not found');
      // Gitea's binding answers malformed input with 422 and the first problem only.
      return send(422, bindingMessage(error.violations[0], error.message));
    }
    if (error instanceof ConversionError) return send(422, `[]: ${error.message}`);
    if (error instanceof HttpError) {
      if (error.status === 415) return send(422, '[]: Unsupported Content-Type');
      return send(error.status === 400 ? 422 : error.status, error.message);
    }
    if (error instanceof HTTPException) return send(error.status, error.message || 'request rejected');
    // A value past the store's field sizes (which the schema's maxLength normally catches first).
    if (error instanceof IssueStoreError && error.code === 'too_long') return send(422, error.message);
    // The client went away mid-request (its body read failed): nothing unexpected, nobody to answer.
    if (clientGone(c)) return send(CLIENT_CLOSED_REQUEST, 'client closed request');
    onUnexpected(error, c);
    // Gitea blanks the message of 500s in production so that internals do not leak.
    return send(500, '');
  };
}

/**
 * A runtime violation in Gitea's binding format: `[Title]: Required`, `[]: json: unknown field "x"`,
 * `[Labels.0]: must be integer`; query and path parameters keep their wire names.
 *
 * @example
 * bindingMessage({ location: 'body', name: '/due_date', message: 'must match format "date-time"' }, '');
 * // '[DueDate]: must match format "date-time"'
 */
export function bindingMessage(violation: Violation | undefined, fallback: string): string {
  if (!violation) return `[]: ${fallback}`;
  if (violation.location !== 'body') return `[${violation.name}]: ${violation.message}`;
  // The body as a whole (unparsable JSON, not an object): Gitea names no field.
  if (!violation.name.startsWith('/')) return `[]: ${violation.message}`;
  const path = violation.name.split('/').filter((p) => p !== '');
  if (violation.message.startsWith('must have required property')) return `[${path.map(goName).join('.')}]: Required`;
  if (violation.message.startsWith('must NOT have additional properties')) {
    return `[${path.slice(0, -1).map(goName).join('.')}]: json: unknown field ${JSON.stringify(path.at(-1) ?? '')}`;
  }
  return `[${path.map(goName).join('.')}]: ${typeMessage(violation.message)}`;
}

/**
 * Option fields also accept `null` (read as absent, as Go decodes it), which ajv lists among the
 * expected types (`must be integer,null`); the client is told the type that carries a value.
 */
function typeMessage(message: string): string {
  return message.replace(/^(must be [a-z]+),null$/, '$1');
}

/** Go's field name for a JSON key: `due_date` → `DueDate`; array indexes stay. */
function goName(key: string): string {
  return /^\d+$/.test(key)
    ? key
    : key
        .split('_')
        .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
        .join('');
}
