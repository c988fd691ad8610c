/**
 * @module
 * Who may do what: signed-in checks, token scopes (Gitea's `read:issue`, `write:issue`, …,
 * `all`, `public-only`) and repository lookup with visibility (a repository the caller may
 * not read is answered 404, exactly like a missing one).
 */
import type { Context } from 'hono';
import { atLeast } from '../domain/permission.js';
import type { IssueStore, PermissionLevel, RepoRow } from '../store/store.js';
import type { Caller } from './auth.js';
import { forbidden, notFound, unauthorized } from './errors.js';

/** Gitea's token scope categories used by this API. */
export type ScopeCategory = 'issue' | 'repository' | 'admin' | 'organization' | 'user';

/** Every category Gitea knows, for validating scopes of new tokens. */
export const SCOPE_CATEGORIES = [
  'activitypub',
  'admin',
  'issue',
  'misc',
  'notification',
  'organization',
  'package',
  'repository',
  'user',
] as const;

/** The caller of the request, or `null`. */
export function getCaller(c: Context): Caller | null {
  return c.get('issuesCaller') ?? null;
}

/**
 * The caller, or 401 `token is required` (Gitea's `reqToken`).
 *
 * @example
 * const caller = requireCaller(c);
 */
export function requireCaller(c: Context): Caller {
  return requireSignedIn(getCaller(c));
}

/**
 * {@link requireCaller} for a caller already taken from the request.
 *
 * @example
 * const signedIn = requireSignedIn(caller); // 401 when `caller` is null
 */
export function requireSignedIn(caller: Caller | null): Caller {
  if (!caller) throw unauthorized('token is required');
  return caller;
}

/**
 * Checks the token scope for an operation; password logins have every scope.
 * `write:x` includes `read:x`; `all` includes everything.
 *
 * @example
 * requireScope(caller, 'issue', 'write'); // 403 for a read:issue token
 */
export function requireScope(caller: Caller | null, category: ScopeCategory, level: 'read' | 'write'): void {
  if (!caller?.token) return;
  const scopes = caller.token.scopes;
  const granted =
    scopes.includes('all') || scopes.includes(`write:${category}`) || (level === 'read' && scopes.includes(`read:${category}`));
  if (!granted) {
    const own = scopes.filter((s) => s !== 'public-only').join(',');
    throw forbidden(`token does not have at least one of required scope(s), required=[${level}:${category}], token scope=${own}`);
  }
}

/** True when the caller's token is limited to public repositories. */
export function isPublicOnly(caller: Caller | null): boolean {
  return caller?.token?.scopes.includes('public-only') ?? false;
}

/** A repository the caller may read, with their permission on it. */
export interface RepoAccess {
  readonly repo: RepoRow;
  readonly permission: PermissionLevel;
}

/**
 * Finds `owner/repo` as the caller sees it: 404 when it does not exist or the caller cannot read
 * it; 403 when a `public-only` token meets a private repository.
 *
 * @example
 * const { repo, permission } = await loadRepo(store, 'alice', 'proj', caller);
 */
export async function loadRepo(store: IssueStore, owner: string, name: string, caller: Caller | null): Promise<RepoAccess> {
  const found = await store.findRepoWithPermission(owner, name, caller?.user.id ?? null);
  if (!found) throw notFound();
  const { repo, permission } = found;
  if (!atLeast(permission, 'read')) throw notFound();
  if (repo.isPrivate && isPublicOnly(caller)) throw forbidden('token scope is limited to public issues');
  return { repo, permission };
}

/** Whether `permission` allows writing issues (and pull requests, which share the unit here). */
export function canWrite(permission: PermissionLevel): boolean {
  return atLeast(permission, 'write');
}
