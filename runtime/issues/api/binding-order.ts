/**
 * @module
 * Gitea's order for a write: the repository is resolved first (404 when the caller cannot see
 * it), then a token is required (401), and only then is the body bound (422). The decorator
 * runtime binds the body before the handler runs, so a malformed body would answer 422 to a
 * caller Gitea answers 404 or 401. When binding fails, these checks run then — on that error
 * path only, so a well-formed request pays nothing for them.
 */
import type { Context } from 'hono';
import { ConversionError } from '../../rest/convert/convert.js';
import { BadRequestError, HttpError } from '../../rest/errors.js';
import type { IssueStore } from '../store/store.js';
import { getCaller, loadRepo, requireSignedIn } from './access.js';
import { GiteaError, notFound } from './errors.js';

/** Whether `error` is the decorator runtime's refusal to bind the request (not a handler's answer). */
export function isBindingError(error: unknown): boolean {
  if (error instanceof GiteaError) return false;
  return (
    error instanceof BadRequestError ||
    error instanceof ConversionError ||
    (error instanceof HttpError && (error.status === 400 || error.status === 415))
  );
}

/**
 * For a write whose binding failed: throws the 404 or 401 Gitea answers before binding, or
 * returns when the binding error stands.
 *
 * @example
 * if (isBindingError(error)) await checkBeforeBinding(store, c); // may throw 404 / 401
 */
export async function checkBeforeBinding(store: IssueStore, c: Context): Promise<void> {
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD') return;
  const caller = getCaller(c);
  const owner = c.req.param('owner');
  const repo = c.req.param('repo');
  if (owner !== undefined && repo !== undefined) {
    // No repository name holds NUL, and databases refuse it in text: it names nothing.
    if (owner.includes('\u0000') || repo.includes('\u0000')) throw notFound();
    await loadRepo(store, owner, repo, caller);
  }
  requireSignedIn(caller);
}
