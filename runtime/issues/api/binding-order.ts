/**
 * @module
 * Gitea's order for a write: the repository is resolved first (404 when the caller cannot see
 * it), then a token is required (401), and only then is the body bound (422). The decorator
 * runtime binds the body before the handler runs, so a malformed body would answer 422 to a
 * caller Gitea answers 404 or 401. When binding fails, these checks run then — on that error
 * path only, so a well-formed request pays nothing for them. An anonymous write is answered
 * before its body is read at all ({@link guardAnonymousWrites}): every write of the API needs a
 * signed-in caller, and reading up to a megabyte from anyone who asks only to refuse it is
 * memory and time an attacker spends for free. A signed-in caller's body is scanned for overlong
 * arrays before it is parsed ({@link guardWrites}).
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { ConversionError } from '../../rest/convert/convert.js';
import { BadRequestError, HttpError } from '../../rest/errors.js';
import type { RouteInfo } from '../../rest/types.js';
import type { IssueStore } from '../store/store.js';
import { getCaller, loadRepo, requireSignedIn } from './access.js';
import { isWhitespace, oversizedArray } from './body-scan.js';
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
 * The most items an array of a request body may hold: the contract's `maxItems` for every array
 * (`schemas/issues/openapi.yaml`; a test holds the two together).
 */
export const MAX_BODY_ARRAY_ITEMS = 1000;

/**
 * Registers, before the routes themselves, a check on every write route (any verb but GET, HEAD
 * and OPTIONS), run before the decorator runtime reads the body:
 *
 * - an anonymous caller is answered 404 (a repository they cannot see) or 401 (Gitea's
 *   `reqToken`) without a byte of the body read;
 * - a signed-in caller's JSON body is scanned for an array past {@link MAX_BODY_ARRAY_ITEMS}
 *   before it is parsed (`body-scan.ts`), and refused as the validator would refuse it (422
 *   `[Labels]: must NOT have more than 1000 items`, after Gitea's 404 where that comes first),
 *   so that the bodies of the attack (hundreds of thousands of items) are never parsed.
 *
 * Only routes that exist are guarded, so an unknown path is still 404 for everyone.
 *
 * @example
 * guardWrites(app, router.routes(), store);
 * app.route('/', router.app());
 */
export function guardWrites(app: Hono, routes: readonly RouteInfo[], store: IssueStore): void {
  const guard: MiddlewareHandler = async function writeGuard(c, next) {
    if (getCaller(c) === null) await checkBeforeBinding(store, c);
    else await scanBody(store, c);
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

/**
 * Reads the body (Hono keeps it for the decorator runtime, which reads it next) and refuses it
 * when an array in it is too long. Only a JSON body is scanned (`text/plain` is JSON by then, see
 * `content-type.ts`); anything else is the runtime's to refuse.
 */
async function scanBody(store: IssueStore, c: Context): Promise<void> {
  if (c.req.header('content-length') === '0') return;
  // Another type is refused as such (422 Unsupported Content-Type) before its content matters.
  const type = (c.req.header('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) return;
  // As bytes: a refused body is never decoded, and Hono keeps them for the runtime's own read.
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  const start = firstNonSpace(bytes);
  if (start === -1 || (bytes[start] !== 0x7b && bytes[start] !== 0x5b)) return;
  const path = oversizedArray(bytes, MAX_BODY_ARRAY_ITEMS);
  if (path === undefined) return;
  await checkBeforeBinding(store, c);
  throw new BadRequestError([
    { location: 'body', name: `/${path.join('/')}`, message: `must NOT have more than ${MAX_BODY_ARRAY_ITEMS} items` },
  ]);
}

/** The index of the first byte that is not JSON whitespace; -1 when there is none. */
function firstNonSpace(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    if (!isWhitespace(bytes[i]!)) return i;
  }
  return -1;
}
