/**
 * @module
 * Authentication exactly as Gitea's API accepts it: `?token=` / `?access_token=`, then
 * `Authorization: token …` or `Bearer …`, then Basic (password, or a token as user name or as
 * password). A credential that is present but wrong answers 401 — it never falls back to anonymous.
 * Then Gitea's sudo: an administrator may act as another user. The caller is kept as the typed
 * Hono variable `issuesCaller` (see `admission.ts`).
 */
import type { Context } from 'hono';
import type { AccessTokenRow, IssueStore, UserRow } from '../store/store.js';
import { GiteaError, notFound, unauthorized } from './errors.js';

/** How the caller proved who they are. */
export type AuthMethod = 'token' | 'basic-token' | 'basic-password';

/** The authenticated caller of a request. */
export interface Caller {
  readonly user: UserRow;
  /** The token used, with its scopes; `null` for a password login (all scopes). */
  readonly token: AccessTokenRow | null;
  readonly method: AuthMethod;
}

declare module 'hono' {
  interface ContextVariableMap {
    /** The signed-in caller of an Issues API request; `null` when anonymous. */
    issuesCaller: Caller | null;
  }
}

const INVALID = 'invalid username, password or token';

/**
 * The caller of a request from its credentials wherever Gitea looks for them: `null` when none
 * were sent; throws 401 for a wrong one.
 *
 * @example
 * c.set('issuesCaller', await requestCaller(store, c));
 */
export async function requestCaller(store: IssueStore, c: Context): Promise<Caller | null> {
  const caller = await authenticate(store, c.req.query('token'), c.req.query('access_token'), c.req.header('authorization'));
  return sudo(store, caller, c.req.query('sudo') || c.req.header('sudo'));
}

/**
 * Gitea's sudo (`?sudo=<name>` or a `Sudo` header): a signed-in administrator acts as that user
 * (404 when there is none), keeping the administrator's token and its scopes; anyone else is
 * refused with 403 `{"message":"Only administrators allowed to sudo."}`.
 *
 * @example
 * await sudo(store, adminCaller, 'alice'); // { user: alice, token: the admin's token, method }
 */
export async function sudo(store: IssueStore, caller: Caller | null, name: string | undefined): Promise<Caller | null> {
  if (!name) return caller;
  if (caller === null || !caller.user.isAdmin) throw new GiteaError(403, 'Only administrators allowed to sudo.', { messageOnly: true });
  // No user name contains NUL, and databases refuse it in text: answer before asking them.
  const user = name.includes('\u0000') ? undefined : await store.findUserByName(name);
  if (!user) throw notFound();
  return { ...caller, user };
}

/**
 * Resolves credentials to a caller: `null` when none were sent; throws 401 for a wrong one.
 *
 * @example
 * await authenticate(store, undefined, undefined, 'token 0123…'); // { user, token, method: 'token' }
 */
export async function authenticate(
  store: IssueStore,
  queryToken: string | undefined,
  queryAccessToken: string | undefined,
  authorization: string | undefined,
): Promise<Caller | null> {
  // Gitea reads the query parameters before the header.
  const fromQuery = queryToken || queryAccessToken;
  if (fromQuery) return byToken(store, fromQuery, 'token');
  if (authorization === undefined || authorization.trim() === '') return null;
  const parts = authorization.trim().split(/\s+/);
  const scheme = parts[0]!.toLowerCase();
  if (parts.length === 2 && (scheme === 'token' || scheme === 'bearer')) return byToken(store, parts[1]!, 'token');
  if (parts.length === 2 && scheme === 'basic') return byBasic(store, parts[1]!);
  throw unauthorized(INVALID);
}

async function byToken(store: IssueStore, token: string, method: AuthMethod): Promise<Caller> {
  const found = await store.findAccessToken(token);
  if (!found) throw unauthorized(INVALID);
  return { user: found.user, token: found.token, method };
}

async function byBasic(store: IssueStore, encoded: string): Promise<Caller> {
  const decoded = decodeBase64(encoded);
  const colon = decoded?.indexOf(':') ?? -1;
  if (decoded === undefined || colon < 0) throw unauthorized(INVALID);
  const name = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  // No account or token contains NUL; databases refuse it in text, so answer before asking them.
  if (name.includes('\u0000') || password.includes('\u0000')) throw unauthorized(INVALID);
  // An empty password (or GitHub's `x-oauth-basic`) means the user name is a token.
  if (password === '' || password === 'x-oauth-basic') return byToken(store, name, 'basic-token');
  const asToken = await store.findAccessToken(password);
  if (asToken) return { user: asToken.user, token: asToken.token, method: 'basic-token' };
  const user = name === '' ? undefined : await store.verifyPassword(name, password);
  if (!user) throw unauthorized(INVALID);
  return { user, token: null, method: 'basic-password' };
}

function decodeBase64(text: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  return Buffer.from(text, 'base64').toString('utf8');
}
