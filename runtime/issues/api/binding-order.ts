/**
 * @module
 * Gitea's order for a write: the repository is resolved first (404 when the caller cannot see
 * it), then a token is required (401), and only then is the body bound (422). The decorator
 * runtime binds the body before the handler runs, so a malformed body would answer 422 to a
 * caller Gitea answers 404 or 401. When binding fails, these checks run then — on that error
 * path only, so a well-formed request pays nothing for them. An anonymous write is answered
 * before its body is read at all ({@link guardAnonymousWrites}): every write of the API needs a
 * signed-in caller, and reading up to a megabyte from anyone who asks only to refuse it is
 * memory and time an attacker spends for free.
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { ConversionError } from '../../rest/convert/convert.js';
import { BadRequestError, HttpError } from '../../rest/errors.js';
import type { RouteInfo } from '../../rest/types.js';
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

/**
 * Registers, before the routes themselves, a check on every write route (any verb but GET, HEAD
 * and OPTIONS) that answers an anonymous caller 404 (a repository they cannot see) or 401 (Gitea's
 * `reqToken`) before the decorator runtime reads the body. Only routes that exist are guarded, so
 * an unknown path is still 404 for everyone.
 *
 * @example
 * guardAnonymousWrites(app, router.routes(), store);
 * app.route('/', router.app());
 */
export function guardAnonymousWrites(app: Hono, routes: readonly RouteInfo[], store: IssueStore): void {
  const guard: MiddlewareHandler = async function anonymousWriteGuard(c, next) {
    if (getCaller(c) === null) await checkBeforeBinding(store, c);
    await next();
  };
  const seen = new Set<string>();
  for (const route of routes) {
    if (route.verb === 'GET' || route.verb === 'HEAD' || route.verb === 'OPTIONS') continue;
    const path = route.path.replace(/\{([^}]+)\}/g, ':$1');
    const key = `${route.verb} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    app.on(route.verb, path, guard);
  }
}
