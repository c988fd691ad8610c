/**
 * @module
 * `ApiError`: what generated HTTP clients reject with for a non-2xx response.
 */

/**
 * A non-2xx response, with its status, parsed body (JSON when the server sent
 * JSON, text otherwise) and the `Response` itself for headers.
 *
 * @example
 * ```ts
 * try {
 *   await issues.issueGetIssue({ owner: 'loom', repo: 'loom', index: 404 });
 * } catch (error) {
 *   if (error instanceof ApiError && error.status === 404) return undefined;
 *   throw error;
 * }
 * ```
 */
export class ApiError<B = unknown> extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly body: B;
  readonly response: Response;

  constructor(response: Response, body: B, operation?: string) {
    super(`${operation ? `${operation}: ` : ''}HTTP ${response.status}${describe(body)}`);
    this.status = response.status;
    this.body = body;
    this.response = response;
  }
}

/** A short reason for the message: the body's `message` field, or the start of a text body. */
function describe(body: unknown): string {
  if (typeof body === 'string' && body !== '') return `: ${body.slice(0, 200)}`;
  if (typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string') {
    return `: ${(body as { message: string }).message}`;
  }
  return '';
}
