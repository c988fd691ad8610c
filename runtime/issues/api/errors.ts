/**
 * @module
 * Gitea's error answers: the `{ message, url }` body (`APIError`), the statuses the
 * handlers use, and the translation of any thrown error into that shape.
 */

import { HttpError } from '../../rest/errors.js';

/**
 * An error the Issues API answers with Gitea's `APIError` body. It is an `HttpError`, so the
 * decorator runtime treats it like its own errors.
 *
 * @example
 * throw new GiteaError(412, 'cannot close this issue because it still has open dependencies');
 */
export class GiteaError extends HttpError {
  /**
   * @param status HTTP status.
   * @param message `message` of the body; `undefined` sends the status with an empty body
   *   (Gitea's `ctx.Status(403)` on a forbidden edit).
   */
  override readonly name: string = 'GiteaError';
  constructor(
    status: number,
    message: string | undefined,
    /** `emptyBody`: no body at all; `messageOnly`: `{ message }` without `url`, as a few Gitea answers are. */
    readonly options: { readonly emptyBody?: boolean; readonly messageOnly?: boolean } = {},
  ) {
    super(status, message ?? '');
  }
}

/** 404 with Gitea 1.24+'s body text. */
export function notFound(): GiteaError {
  return new GiteaError(404, 'not found');
}

/** 401 for a missing or invalid credential. */
export function unauthorized(message = 'token is required'): GiteaError {
  return new GiteaError(401, message);
}

/** 403 with a message. */
export function forbidden(message: string): GiteaError {
  return new GiteaError(403, message);
}

/** 403 with no body at all, as Gitea's edit handler answers a non-poster non-writer. */
export function forbiddenEmpty(): GiteaError {
  return new GiteaError(403, undefined, { emptyBody: true });
}

/** 422 in the binding format `"[Field]: Error"`. */
export function validationError(message: string): GiteaError {
  return new GiteaError(422, message);
}

/** The JSON body Gitea sends for an error. */
export interface ApiErrorBody {
  readonly message: string;
  readonly url: string;
}

/**
 * Builds Gitea's error body; `url` points at the swagger document like `setting.API.SwaggerURL`.
 *
 * @example
 * apiErrorBody('not found', 'http://h/'); // { message: 'not found', url: 'http://h/api/swagger' }
 */
export function apiErrorBody(message: string, publicUrl: string): ApiErrorBody {
  return { message, url: `${publicUrl}api/swagger` };
}

/** The Content-Type of every JSON answer Gitea writes (its `ctx.JSON`), errors and results alike. */
export const GITEA_JSON_TYPE = 'application/json;charset=utf-8';

/**
 * A JSON answer labelled as Gitea labels its own.
 *
 * @example
 * giteaJson(apiErrorBody('not found', config.publicUrl), 404);
 */
export function giteaJson(value: unknown, status: number): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'Content-Type': GITEA_JSON_TYPE } });
}
