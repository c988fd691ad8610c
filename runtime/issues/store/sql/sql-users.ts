/**
 * @module The users and access tokens of the SQL store: accounts with scrypt passwords, unique
 * names and e-mail addresses, and tokens kept as their SHA-256 only.
 */

import { generateToken, hashPassword, hashToken, TOKEN_PATTERN, verifyPasswordHash } from '../credentials.js';
import { checkLength } from '../limits.js';
import {
  type AccessTokenRow,
  type AccessTokenStore,
  type CreateAccessTokenInput,
  type CreatedAccessToken,
  type CreateUserInput,
  IssueStoreError,
  type UserRow,
  type UserStore,
} from '../store.js';
import { raw, sql } from './fragment.js';
import { type DbRow, num, toAccessToken, toUser } from './row-mappers.js';
import { SqlAggregate, unique } from './sql-session.js';

/** The columns of a user row on the alias `u`. */
export const USER_COLUMNS = raw(
  'u.id, u.name, u.type, u.full_name, u.email, u.is_admin, u.description, u.website, u.location, u.visibility, ' +
    'u.created_unix, u.updated_unix, u.last_login_unix',
);

/** Gitea's user and repository name alphabet (`[\w.-]`), not starting with `.` or `-`. */
const NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;

/**
 * `name` when it is a valid user, organization or repository name; throws `invalid` otherwise.
 *
 * @example
 * checkName('repository', 'proj'); // 'proj'
 */
export function checkName(kind: string, name: string): string {
  if (!NAME_PATTERN.test(name) || name.endsWith('.git')) throw new IssueStoreError('invalid', `invalid ${kind} name: ${name}`);
  // Repository names may take the pattern's 100 characters; Gitea's user and organization names 40.
  if (kind !== 'repository') checkLength('userName', name, `${kind} name`);
  return name;
}

/**
 * Throws `too_long` for a profile field of a user or organization longer than Gitea keeps.
 *
 * @example
 * checkProfile({ email: 'alice@example.com', location: 'Berlin' }); // fine
 */
export function checkProfile(input: {
  readonly email?: string;
  readonly fullName?: string;
  readonly description?: string;
  readonly website?: string;
  readonly location?: string;
}): void {
  checkLength('email', input.email, 'e-mail address');
  checkLength('fullName', input.fullName, 'full name');
  checkLength('description', input.description, 'description');
  checkLength('website', input.website, 'website');
  checkLength('location', input.location, 'location');
}

/**
 * Users and access tokens.
 *
 * @example
 * const users = new SqlUsers(session);
 * await users.createUser({ name: 'alice', email: 'alice@example.com', password: 's3cret' });
 */
export class SqlUsers extends SqlAggregate implements UserStore, AccessTokenStore {
  async createUser(input: CreateUserInput): Promise<UserRow> {
    const name = checkName('user', input.name);
    checkProfile(input);
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    const now = this.now();
    return this.atomic((tx) =>
      tx.guard(`user ${name}`, async () => {
        // The name first, as Gitea checks it first; the unique index still settles a race.
        const named = await tx.first(sql`SELECT 1 AS one FROM users WHERE lower_name = ${name.toLowerCase()}`);
        if (named) throw new IssueStoreError('conflict', `user ${name} already exists`);
        await tx.checkEmailFree(input.email);
        const row = await tx.first(sql`
        INSERT INTO users (name, lower_name, type, full_name, email, password_hash,
          is_admin, description, website, location, visibility, created_unix, updated_unix)
        VALUES (${name}, ${name.toLowerCase()}, 'user', ${input.fullName ?? ''}, ${input.email}, ${passwordHash}, ${input.isAdmin ?? false},
          ${input.description ?? ''}, ${input.website ?? ''}, ${input.location ?? ''}, ${input.visibility ?? 'public'}, ${now}, ${now})
        RETURNING id`);
        return (await tx.getUserById(num(row!.id)))!;
      }),
    );
  }

  /**
   * Throws `email_taken` when another user has `email` (case-insensitively, as Gitea compares
   * them). No unique index can say so: databases from before this check may hold duplicates. So
   * the check runs in the creating transaction, with the address locked on PostgreSQL (SQLite's
   * write transaction already excludes every other writer) until the insert commits.
   */
  private async checkEmailFree(email: string): Promise<void> {
    if (email === '') return;
    const lock = this.dialect.exclusiveLock?.(`email:${email.toLowerCase()}`);
    if (lock) await this.db.all(lock);
    // Both sides through the engine's own lower(), so that equal addresses always compare equal.
    const taken = await this.first(sql`SELECT 1 AS one FROM users WHERE type = 'user' AND lower(email) = lower(${email})`);
    if (taken) throw new IssueStoreError('email_taken', `e-mail already in use [email: ${email}]`);
  }

  async findUserByName(name: string): Promise<UserRow | undefined> {
    const row = await this.first(sql`SELECT ${USER_COLUMNS} FROM users u WHERE u.lower_name = ${name.toLowerCase()}`);
    return row && toUser(row);
  }

  async getUserById(id: number): Promise<UserRow | undefined> {
    const row = await this.first(sql`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = ${id}`);
    return row && toUser(row);
  }

  async getUsersByIds(ids: readonly number[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return (await this.db.all<DbRow>(sql`SELECT ${USER_COLUMNS} FROM users u WHERE u.id IN ${this.in(unique(ids))}`)).map(toUser);
  }

  async findUsersByNames(names: readonly string[]): Promise<UserRow[]> {
    if (names.length === 0) return [];
    const lower = [...new Set(names.map((name) => name.toLowerCase()))];
    return (await this.db.all<DbRow>(sql`SELECT ${USER_COLUMNS} FROM users u WHERE u.lower_name IN ${this.in(lower)}`)).map(toUser);
  }

  async verifyPassword(name: string, password: string): Promise<UserRow | undefined> {
    const row = await this.first(sql`SELECT id, password_hash FROM users WHERE lower_name = ${name.toLowerCase()} AND type = 'user'`);
    if (!row || typeof row.password_hash !== 'string') return undefined;
    if (!(await verifyPasswordHash(password, row.password_hash))) return undefined;
    await this.db.run(sql`UPDATE users SET last_login_unix = ${this.now()} WHERE id = ${num(row.id)}`);
    return this.getUserById(num(row.id));
  }

  async countUsers(): Promise<number> {
    const row = await this.first(sql`SELECT COUNT(*) AS n FROM users WHERE type = 'user'`);
    return num(row!.n);
  }

  async setPassword(userId: number, password: string): Promise<void> {
    const hash = await hashPassword(password);
    const changed = await this.db.run(
      sql`UPDATE users SET password_hash = ${hash}, updated_unix = ${this.now()} WHERE id = ${userId} AND type = 'user'`,
    );
    if (changed === 0) throw new IssueStoreError('not_found', `user ${userId} does not exist`);
  }

  async createAccessToken(input: CreateAccessTokenInput): Promise<CreatedAccessToken> {
    const name = input.name.trim();
    if (name === '') throw new IssueStoreError('invalid', 'token name is empty');
    checkLength('tokenName', name, 'token name');
    for (const scope of input.scopes ?? []) checkLength('tokenScope', scope, 'token scope');
    const token = generateToken();
    const scopes = (input.scopes ?? ['all']).join(',');
    const now = this.now();
    return this.guard(`token ${name}`, async () => {
      const row = await this.first(sql`
        INSERT INTO access_tokens (user_id, name, token_hash, token_last_eight, scopes, created_unix, updated_unix)
        VALUES (${input.userId}, ${name}, ${hashToken(token)}, ${token.slice(-8)}, ${scopes}, ${now}, ${now})
        RETURNING *`);
      return { token, row: toAccessToken(row!) };
    });
  }

  async findAccessToken(token: string): Promise<{ readonly user: UserRow; readonly token: AccessTokenRow } | undefined> {
    // Lower-case hex only, as Gitea: an upper-case spelling of a token is not that token.
    if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return undefined;
    // Every authenticated request runs this: token and user come back in one row. The token's
    // columns are read under `t_` aliases so that they cannot shadow the user's (`id`, `name`, …).
    const row = await this.first(sql`
      SELECT ${USER_COLUMNS}, t.id AS t_id, t.user_id AS t_user_id, t.name AS t_name, t.token_last_eight AS t_token_last_eight,
        t.scopes AS t_scopes, t.created_unix AS t_created_unix, t.updated_unix AS t_updated_unix
      FROM access_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ${hashToken(token)}`);
    if (!row) return undefined;
    const tokenRow = toAccessToken({
      id: row.t_id,
      user_id: row.t_user_id,
      name: row.t_name,
      token_last_eight: row.t_token_last_eight,
      scopes: row.t_scopes,
      created_unix: row.t_created_unix,
      updated_unix: row.t_updated_unix,
    });
    return { user: toUser(row), token: tokenRow };
  }

  async listAccessTokens(userId: number): Promise<AccessTokenRow[]> {
    return (await this.db.all<DbRow>(sql`SELECT * FROM access_tokens WHERE user_id = ${userId} ORDER BY id`)).map(toAccessToken);
  }

  async deleteAccessToken(userId: number, tokenId: number): Promise<boolean> {
    return (await this.db.run(sql`DELETE FROM access_tokens WHERE user_id = ${userId} AND id = ${tokenId}`)) > 0;
  }
}
