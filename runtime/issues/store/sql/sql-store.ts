/**
 * @module The `IssueStore` written once in SQL that both SQLite and PostgreSQL run. Engine
 * differences come in through `SqlDialect` (a handful of overrides) and `SqlDriver` (placeholders,
 * connections, transactions); nothing here asks which engine it is talking to.
 */

import { type OwnerVisibility, type PermissionLevel, resolvePermission } from '../../domain/permission.js';
import { generateToken, hashPassword, hashToken, TOKEN_PATTERN, verifyPasswordHash } from '../credentials.js';
import { keywordWords, normaliseKeyword } from '../keyword.js';
import { parseMentions } from '../mentions.js';
import {
  type AccessTokenRow,
  type CollaboratorPermission,
  type CollaboratorRow,
  type CommentRow,
  type CreateAccessTokenInput,
  type CreateCommentInput,
  type CreatedAccessToken,
  type CreateIssueInput,
  type CreateLabelInput,
  type CreateMilestoneInput,
  type CreateOrgInput,
  type CreateRepoInput,
  type CreateUserInput,
  type ImportIssueInput,
  type IssueFilter,
  type IssuePage,
  type IssuePatch,
  type IssueRow,
  type IssueStateFilter,
  type IssueStore,
  IssueStoreError,
  type LabelRow,
  type MilestoneRow,
  type OpenClosed,
  type RepoRow,
  type RepoWithPermission,
  type StoreInfo,
  type UpdateIssueResult,
  type UpdateMilestoneInput,
  type UserRow,
  type VisibilityOptions,
} from '../store.js';
import { and, join, list, planEachTime, raw, type SqlFragment, sql } from './fragment.js';
import { FILTERED_COLUMNS, issueConditions, issueOrder, type ResolvedIssueFilter } from './issue-search.js';
import {
  bool,
  type DbRow,
  num,
  toAccessToken,
  toCollaborator,
  toComment,
  toIssue,
  toLabel,
  toMilestone,
  toRepo,
  toUser,
} from './row-mappers.js';
import { inList, type RepoSelection, type SqlDialect } from './sql-dialect.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/** Options shared by both engines. */
export interface SqlStoreOptions {
  /** The clock, in Unix seconds; tests pin it. @default the system clock */
  readonly now?: () => number;
}

const USER_COLUMNS = raw(
  'u.id, u.name, u.type, u.full_name, u.email, u.is_admin, u.description, u.website, u.location, u.visibility, u.created_unix, ' +
    'u.updated_unix, u.last_login_unix',
);
const REPO_SELECT_HEAD = raw('SELECT r.*, u.name AS owner_name, u.type AS owner_type');
const REPO_FROM = raw('FROM repos r JOIN users u ON u.id = r.owner_id');
const REPO_SELECT = sql`${REPO_SELECT_HEAD} ${REPO_FROM}`;
const ISSUE_COLUMNS = raw(
  'i.id, i.repo_id, i.idx, i.poster_id, i.title, i.body, i.ref, i.is_closed, i.is_locked, i.is_pull, i.pr_merged, ' +
    'i.pr_merged_unix, i.pr_draft, i.milestone_id, i.deadline_unix, i.num_comments, i.pin_order, i.time_estimate, i.created_unix, ' +
    'i.updated_unix, i.closed_unix',
);
const MILESTONE_SELECT = raw(
  'SELECT m.*, (SELECT COUNT(*) FROM issues x WHERE x.milestone_id = m.id AND x.is_closed = FALSE) AS open_issues, ' +
    '(SELECT COUNT(*) FROM issues x WHERE x.milestone_id = m.id AND x.is_closed = TRUE) AS closed_issues FROM milestones m',
);

/** Gitea's user and repository name alphabet (`[\w.-]`), not starting with `.` or `-`. */
const NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;
/** Rows per multi-row INSERT: well under SQLite's 32766 and PostgreSQL's 65535 parameters. */
const BATCH_ROWS = 400;
const DEFAULT_LIMIT = 30;
const ANALYZE_AFTER_ROWS = 1000;
/** Relevance pages ending beyond this many rows use the single ranked query (see `tieredRelevance`). */
const MAX_TIERED_END = 1000;
/**
 * How much cheaper a walked index entry is than a collected match, with a margin for the estimate
 * of the rows walked (see `walkPaysOff`).
 */
const WALK_ADVANTAGE = 4;
/**
 * The least share of a keyword's matches expected in titles, as its inverse, and the largest window
 * walked for them (see `titleMatchesInWindow`): past it, collecting the title matches is cheaper.
 */
const TITLE_WINDOW_MARGIN = 8;
const MAX_TITLE_WINDOW = 3000;
/** The tiers' order: newest first, ties broken by id. */
const NEWEST_FIRST = raw('i.created_unix DESC, i.id DESC');
/** The most repositories a count from the full-text index names (see `keywordCountQuery`). */
const MAX_INDEX_COUNT_REPOS = 32;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function unique(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}

function normaliseColor(color: string): string {
  let hex = color.trim().replace(/^#/, '').toLowerCase();
  if (/^[0-9a-f]{3}$/.test(hex)) hex = [...hex].map((c) => c + c).join('');
  if (!/^[0-9a-f]{6}$/.test(hex)) throw new IssueStoreError('invalid', `invalid color: ${color}`);
  return hex;
}

/**
 * {@link ISSUE_COLUMNS} with the issue's assignees, labels and review requests as three list
 * columns, so that a row arrives whole: one query for an issue or a page instead of four (on
 * PostgreSQL four pooled connections at once). Built once per dialect.
 */
const issueColumnsByDialect = new WeakMap<SqlDialect, SqlFragment>();
function issueColumns(d: SqlDialect): SqlFragment {
  let columns = issueColumnsByDialect.get(d);
  if (!columns) {
    const assignees = d.idArray(raw('a.user_id'), raw('FROM issue_assignees a WHERE a.issue_id = i.id'), raw('a.position'));
    const labels = d.idArray(
      raw('l.id'),
      raw('FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id = i.id'),
      raw('l.name, l.id'),
    );
    const reviewers = d.idArray(raw('rr.user_id'), raw('FROM review_requests rr WHERE rr.issue_id = i.id'), raw('rr.user_id'));
    columns = sql`${ISSUE_COLUMNS}, ${assignees} AS assignee_ids, ${labels} AS label_ids, ${reviewers} AS review_request_ids`;
    issueColumnsByDialect.set(d, columns);
  }
  return columns;
}

/** The visibility of repository `r`'s owner, for {@link permissionFacts} where the owner is not joined. */
const OWNER_VISIBILITY = raw('(SELECT ov.visibility FROM users ov WHERE ov.id = r.owner_id)');

/**
 * The columns on repository `r` that {@link permissionOf} reads, for one viewer (`null`: anonymous).
 * `ownerVisibility` is an expression for the owner's visibility (a joined column where there is one).
 */
function permissionFacts(viewerId: number | null, ownerVisibility: SqlFragment = OWNER_VISIBILITY): SqlFragment {
  const viewer = viewerId ?? -1;
  return sql`(SELECT v.is_admin FROM users v WHERE v.id = ${viewer}) AS viewer_admin,
    (SELECT c.permission FROM collaborators c WHERE c.repo_id = r.id AND c.user_id = ${viewer}) AS collaborator,
    (SELECT COUNT(*) FROM org_owners o WHERE o.org_id = r.owner_id AND o.user_id = ${viewer}) AS org_owner,
    ${ownerVisibility} AS owner_visibility`;
}

/** A stored visibility; anything unexpected counts as `private`, so that a bad value hides rather than shows. */
function ownerVisibilityOf(value: unknown): OwnerVisibility {
  return value === 'public' || value === 'limited' ? value : 'private';
}

/** The viewer's permission from a row carrying `is_private`, `owner_id` and {@link permissionFacts}; no row: `none`. */
function permissionOf(row: DbRow | undefined, viewerId: number | null): PermissionLevel {
  return resolvePermission({
    repoExists: row !== undefined,
    isPrivate: bool(row?.is_private),
    ownerVisibility: ownerVisibilityOf(row?.owner_visibility),
    viewerId,
    viewerIsAdmin: bool(row?.viewer_admin),
    viewerIsOwner: viewerId !== null && num(row?.owner_id) === viewerId,
    viewerIsOrgOwner: num(row?.org_owner ?? 0) > 0,
    collaborator: (row?.collaborator as CollaboratorPermission | null | undefined) ?? null,
  });
}

/**
 * A search statement, marked `planEachTime` when it has a keyword: how many issues a word matches
 * ranges from a handful to most of them, and each wants its own plan.
 */
function planFor(filter: ResolvedIssueFilter, query: SqlFragment): SqlFragment {
  return filter.words ? planEachTime(query) : query;
}

function checkName(kind: string, name: string): string {
  if (!NAME_PATTERN.test(name) || name.endsWith('.git')) throw new IssueStoreError('invalid', `invalid ${kind} name: ${name}`);
  return name;
}

/** The shared SQL `IssueStore`. Create it through an engine's `openXxxStore`, not directly. */
export class SqlStore implements IssueStore {
  private readonly now: () => number;

  constructor(
    private readonly driver: SqlDriver,
    private readonly db: SqlExecutor,
    private readonly dialect: SqlDialect,
    readonly info: StoreInfo,
    options: SqlStoreOptions,
    private readonly inTransaction = false,
  ) {
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  // ── plumbing ────────────────────────────────────────────────────────────

  private bound(tx: SqlExecutor): SqlStore {
    return new SqlStore(this.driver, tx, this.dialect, this.info, { now: this.now }, true);
  }

  /** Runs `fn` on a transaction-bound store; joins the current transaction when there is one. */
  private atomic<T>(fn: (tx: SqlStore) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    return this.driver.transaction((tx) => fn(this.bound(tx)));
  }

  /** Maps constraint violations to `IssueStoreError`s with a readable message. */
  private async guard<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof IssueStoreError) throw error;
      if (this.dialect.isUniqueViolation(error)) throw new IssueStoreError('conflict', `${what} already exists`);
      if (this.dialect.isForeignKeyViolation(error)) throw new IssueStoreError('invalid', `${what} refers to a row that does not exist`);
      throw error;
    }
  }

  private async first(query: SqlFragment): Promise<DbRow | undefined> {
    return (await this.db.all<DbRow>(query))[0];
  }

  /** An `IN` operand for `values` of any length (client-sent ids and names, a search's repositories). */
  private in(values: readonly number[] | readonly string[]): SqlFragment {
    return inList(this.dialect, values);
  }

  transaction<T>(fn: (tx: IssueStore) => Promise<T>): Promise<T> {
    return this.atomic(fn);
  }

  async close(): Promise<void> {
    if (this.inTransaction) throw new Error('close() inside a transaction');
    await this.driver.close();
  }

  // ── users ───────────────────────────────────────────────────────────────

  async createUser(input: CreateUserInput): Promise<UserRow> {
    const name = checkName('user', input.name);
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    const now = this.now();
    return this.atomic((tx) =>
      tx.guard(`user ${name}`, async () => {
        // The name first, as Gitea checks it first; the unique index still settles a race.
        const named = await tx.first(sql`SELECT 1 AS one FROM users WHERE lower_name = ${name.toLowerCase()}`);
        if (named) throw new IssueStoreError('conflict', `user ${name} already exists`);
        await tx.checkEmailFree(input.email);
        const row = await tx.first(sql`
        INSERT INTO users (name, lower_name, type, full_name, email, password_hash, is_admin, description, website, location, visibility,
          created_unix, updated_unix)
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

  // ── access tokens ───────────────────────────────────────────────────────

  async createAccessToken(input: CreateAccessTokenInput): Promise<CreatedAccessToken> {
    const name = input.name.trim();
    if (name === '') throw new IssueStoreError('invalid', 'token name is empty');
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
    if (typeof token !== 'string' || !TOKEN_PATTERN.test(token.toLowerCase())) return undefined;
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

  // ── organizations ───────────────────────────────────────────────────────

  async createOrg(input: CreateOrgInput): Promise<UserRow> {
    const name = checkName('organization', input.name);
    const now = this.now();
    return this.atomic((tx) =>
      tx.guard(`organization ${name}`, async () => {
        const row = await tx.first(sql`
          INSERT INTO users (name, lower_name, type, full_name, email, is_admin, description, website, location, visibility,
            created_unix, updated_unix)
          VALUES (${name}, ${name.toLowerCase()}, 'org', ${input.fullName ?? ''}, ${input.email ?? ''}, ${false},
            ${input.description ?? ''}, ${input.website ?? ''}, ${input.location ?? ''}, ${input.visibility ?? 'public'}, ${now}, ${now})
          RETURNING id`);
        const orgId = num(row!.id);
        await tx.db.run(sql`INSERT INTO org_owners (org_id, user_id) VALUES (${orgId}, ${input.ownerId})`);
        return (await tx.getUserById(orgId))!;
      }),
    );
  }

  async addOrgOwner(orgId: number, userId: number): Promise<void> {
    await this.guard('organization owner', () =>
      this.db.run(sql`INSERT INTO org_owners (org_id, user_id) VALUES (${orgId}, ${userId}) ON CONFLICT DO NOTHING`),
    );
  }

  async isOrgOwner(orgId: number, userId: number): Promise<boolean> {
    return (await this.first(sql`SELECT 1 AS one FROM org_owners WHERE org_id = ${orgId} AND user_id = ${userId}`)) !== undefined;
  }

  async listOrgsOwnedBy(userId: number): Promise<UserRow[]> {
    return (
      await this.db.all<DbRow>(
        sql`SELECT ${USER_COLUMNS} FROM users u JOIN org_owners o ON o.org_id = u.id WHERE o.user_id = ${userId} ORDER BY u.id`,
      )
    ).map(toUser);
  }

  // ── repositories ────────────────────────────────────────────────────────

  async createRepo(input: CreateRepoInput): Promise<RepoRow> {
    const name = checkName('repository', input.name);
    const now = this.now();
    return this.guard(`repository ${name}`, async () => {
      const row = await this.first(sql`
        INSERT INTO repos (owner_id, name, lower_name, description, is_private, created_unix, updated_unix)
        VALUES (${input.ownerId}, ${name}, ${name.toLowerCase()}, ${input.description ?? ''}, ${input.isPrivate ?? false}, ${now}, ${now})
        RETURNING id`);
      return (await this.getRepoById(num(row!.id)))!;
    });
  }

  async findRepo(ownerName: string, repoName: string): Promise<RepoRow | undefined> {
    const row = await this.first(
      sql`${REPO_SELECT} WHERE u.lower_name = ${ownerName.toLowerCase()} AND r.lower_name = ${repoName.toLowerCase()}`,
    );
    return row && toRepo(row);
  }

  async getRepoById(id: number): Promise<RepoRow | undefined> {
    const row = await this.first(sql`${REPO_SELECT} WHERE r.id = ${id}`);
    return row && toRepo(row);
  }

  async getReposByIds(ids: readonly number[]): Promise<RepoRow[]> {
    if (ids.length === 0) return [];
    return (await this.db.all<DbRow>(sql`${REPO_SELECT} WHERE r.id IN ${this.in(unique(ids))}`)).map(toRepo);
  }

  async listReposByOwner(ownerId: number): Promise<RepoRow[]> {
    return (await this.db.all<DbRow>(sql`${REPO_SELECT} WHERE r.owner_id = ${ownerId} ORDER BY r.lower_name`)).map(toRepo);
  }

  async setRepoArchived(repoId: number, archived: boolean): Promise<void> {
    await this.db.run(sql`UPDATE repos SET is_archived = ${archived}, updated_unix = ${this.now()} WHERE id = ${repoId}`);
  }

  async listVisibleRepoIds(viewerId: number | null, options: VisibilityOptions = {}): Promise<number[]> {
    // The set `resolvePermission` grants `read` on, as one query (Gitea's `AccessibleRepositoryCondition`).
    const conditions: SqlFragment[] = [];
    if (options.ownerId !== undefined) conditions.push(sql`r.owner_id = ${options.ownerId}`);
    // A public-only token narrows what its user sees to repositories that are not private.
    if (options.publicOnly) conditions.push(sql`r.is_private = ${false}`);
    const viewer = viewerId === null ? undefined : await this.getUserById(viewerId);
    if (!viewer) {
      // Anonymous: public repositories of public owners.
      conditions.push(sql`r.is_private = ${false} AND o.visibility = 'public'`);
    } else if (!viewer.isAdmin) {
      // Signed in: public repositories of owners that are not private (limited ones show to every
      // signed-in user), and whatever the viewer owns, owns through an organization or collaborates on.
      conditions.push(sql`((r.is_private = ${false} AND o.visibility IN ('public', 'limited')) OR r.owner_id = ${viewer.id}
        OR EXISTS (SELECT 1 FROM collaborators c WHERE c.repo_id = r.id AND c.user_id = ${viewer.id})
        OR EXISTS (SELECT 1 FROM org_owners oo WHERE oo.org_id = r.owner_id AND oo.user_id = ${viewer.id}))`);
    }
    const rows = await this.db.all<DbRow>(
      sql`SELECT r.id FROM repos r JOIN users o ON o.id = r.owner_id WHERE ${and(conditions)} ORDER BY r.id`,
    );
    return rows.map((row) => num(row.id));
  }

  // ── collaborators and permissions ───────────────────────────────────────

  async setCollaborator(repoId: number, userId: number, permission: CollaboratorPermission): Promise<void> {
    if (!['read', 'write', 'admin'].includes(permission)) throw new IssueStoreError('invalid', `invalid permission: ${permission}`);
    await this.guard('collaborator', () =>
      this.db.run(sql`
        INSERT INTO collaborators (repo_id, user_id, permission) VALUES (${repoId}, ${userId}, ${permission})
        ON CONFLICT (repo_id, user_id) DO UPDATE SET permission = excluded.permission`),
    );
  }

  async removeCollaborator(repoId: number, userId: number): Promise<boolean> {
    return (await this.db.run(sql`DELETE FROM collaborators WHERE repo_id = ${repoId} AND user_id = ${userId}`)) > 0;
  }

  async listCollaborators(repoId: number): Promise<CollaboratorRow[]> {
    return (await this.db.all<DbRow>(sql`SELECT * FROM collaborators WHERE repo_id = ${repoId} ORDER BY user_id`)).map(toCollaborator);
  }

  async getPermission(repoId: number, viewerId: number | null): Promise<PermissionLevel> {
    const row = await this.first(sql`SELECT r.is_private, r.owner_id, ${permissionFacts(viewerId)} FROM repos r WHERE r.id = ${repoId}`);
    return permissionOf(row, viewerId);
  }

  async findRepoWithPermission(ownerName: string, repoName: string, viewerId: number | null): Promise<RepoWithPermission | undefined> {
    const row = await this.first(
      sql`${REPO_SELECT_HEAD}, ${permissionFacts(viewerId, raw('u.visibility'))} ${REPO_FROM}
        WHERE u.lower_name = ${ownerName.toLowerCase()} AND r.lower_name = ${repoName.toLowerCase()}`,
    );
    return row && { repo: toRepo(row), permission: permissionOf(row, viewerId) };
  }

  // ── labels ──────────────────────────────────────────────────────────────

  async createLabel(input: CreateLabelInput): Promise<LabelRow> {
    if ((input.repoId === undefined) === (input.orgId === undefined)) {
      throw new IssueStoreError('invalid', 'a label belongs to exactly one repository or organization');
    }
    const name = input.name.trim();
    if (name === '') throw new IssueStoreError('invalid', 'label name is empty');
    const color = normaliseColor(input.color);
    return this.guard(`label ${name}`, async () => {
      const row = await this.first(sql`
        INSERT INTO labels (repo_id, org_id, name, color, description, exclusive)
        VALUES (${input.repoId ?? null}, ${input.orgId ?? null}, ${name}, ${color}, ${input.description ?? ''}, ${input.exclusive ?? false})
        RETURNING *`);
      return toLabel(row!);
    });
  }

  async listLabels(repoId: number): Promise<LabelRow[]> {
    return (await this.db.all<DbRow>(sql`SELECT * FROM labels WHERE repo_id = ${repoId} ORDER BY name, id`)).map(toLabel);
  }

  async listOrgLabels(orgId: number): Promise<LabelRow[]> {
    return (await this.db.all<DbRow>(sql`SELECT * FROM labels WHERE org_id = ${orgId} ORDER BY name, id`)).map(toLabel);
  }

  async getLabelsByIds(ids: readonly number[]): Promise<LabelRow[]> {
    if (ids.length === 0) return [];
    return (await this.db.all<DbRow>(sql`SELECT * FROM labels WHERE id IN ${this.in(unique(ids))} ORDER BY name, id`)).map(toLabel);
  }

  async filterApplicableLabelIds(repoId: number, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.all<DbRow>(sql`
      SELECT l.id FROM labels l JOIN repos r ON r.id = ${repoId}
      WHERE l.id IN ${this.in(unique(ids))} AND (l.repo_id = r.id OR l.org_id = r.owner_id)
      ORDER BY l.name, l.id`);
    return rows.map((row) => num(row.id));
  }

  // ── milestones ──────────────────────────────────────────────────────────

  async createMilestone(input: CreateMilestoneInput): Promise<MilestoneRow> {
    const title = input.title.trim();
    if (title === '') throw new IssueStoreError('invalid', 'milestone title is empty');
    const now = this.now();
    const closed = input.state === 'closed';
    return this.guard(`milestone ${title}`, async () => {
      const row = await this.first(sql`
        INSERT INTO milestones (repo_id, title, description, is_closed, created_unix, updated_unix, closed_unix, deadline_unix)
        VALUES (${input.repoId}, ${title}, ${input.description ?? ''}, ${closed}, ${now}, ${now}, ${closed ? now : null},
          ${input.deadlineUnix ?? null})
        RETURNING id`);
      return (await this.getMilestone(num(row!.id)))!;
    });
  }

  async updateMilestone(id: number, input: UpdateMilestoneInput): Promise<MilestoneRow | undefined> {
    return this.atomic(async (tx) => {
      const current = await tx.getMilestone(id);
      if (!current) return undefined;
      const title = input.title?.trim() || current.title;
      const state = input.state ?? current.state;
      const now = this.now();
      const closedUnix = state === 'closed' ? (current.closedUnix ?? now) : null;
      await tx.db.run(sql`
        UPDATE milestones SET title = ${title}, description = ${input.description ?? current.description},
          is_closed = ${state === 'closed'}, closed_unix = ${closedUnix},
          deadline_unix = ${input.deadlineUnix === undefined ? current.deadlineUnix : input.deadlineUnix}, updated_unix = ${now}
        WHERE id = ${id}`);
      return tx.getMilestone(id);
    });
  }

  async listMilestones(repoId: number, state: IssueStateFilter = 'all'): Promise<MilestoneRow[]> {
    const stateCondition = state === 'all' ? raw('1 = 1') : sql`m.is_closed = ${state === 'closed'}`;
    return (await this.db.all<DbRow>(sql`${MILESTONE_SELECT} WHERE m.repo_id = ${repoId} AND ${stateCondition} ORDER BY m.id`)).map(
      toMilestone,
    );
  }

  async getMilestone(id: number): Promise<MilestoneRow | undefined> {
    const row = await this.first(sql`${MILESTONE_SELECT} WHERE m.id = ${id}`);
    return row && toMilestone(row);
  }

  async getMilestonesByIds(ids: readonly number[]): Promise<MilestoneRow[]> {
    if (ids.length === 0) return [];
    return (await this.db.all<DbRow>(sql`${MILESTONE_SELECT} WHERE m.id IN ${this.in(unique(ids))} ORDER BY m.id`)).map(toMilestone);
  }

  async findMilestoneByName(repoId: number, title: string): Promise<MilestoneRow | undefined> {
    const row = await this.first(sql`${MILESTONE_SELECT} WHERE m.repo_id = ${repoId} AND m.title = ${title} ORDER BY m.id`);
    return row && toMilestone(row);
  }

  // ── issues ──────────────────────────────────────────────────────────────

  /** The issues of rows selected with {@link issueColumns}. */
  private hydrate(rows: readonly DbRow[]): IssueRow[] {
    const d = this.dialect;
    return rows.map((row) =>
      toIssue(row, {
        assigneeIds: d.idList(row.assignee_ids),
        labelIds: d.idList(row.label_ids),
        reviewRequestIds: d.idList(row.review_request_ids),
      }),
    );
  }

  /** The columns of an issue row with its lists (see {@link issueColumns}). */
  private get issueColumns(): SqlFragment {
    return issueColumns(this.dialect);
  }

  async getIssue(repoId: number, index: number): Promise<IssueRow | undefined> {
    if (!Number.isSafeInteger(index)) return undefined;
    const row = await this.first(sql`SELECT ${this.issueColumns} FROM issues i WHERE i.repo_id = ${repoId} AND i.idx = ${index}`);
    return row && this.hydrate([row])[0];
  }

  async getIssueById(id: number): Promise<IssueRow | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    const row = await this.first(sql`SELECT ${this.issueColumns} FROM issues i WHERE i.id = ${id}`);
    return row && this.hydrate([row])[0];
  }

  /** Throws `invalid` unless the milestone belongs to the repository. */
  private async checkMilestone(repoId: number, milestoneId: number | null | undefined): Promise<void> {
    if (milestoneId === null || milestoneId === undefined) return;
    const row = await this.first(sql`SELECT id FROM milestones WHERE id = ${milestoneId} AND repo_id = ${repoId}`);
    if (!row) throw new IssueStoreError('invalid', `milestone ${milestoneId} does not exist in this repository`);
  }

  private async checkLabels(repoId: number, labelIds: readonly number[] | undefined): Promise<void> {
    if (!labelIds || labelIds.length === 0) return;
    const applicable = await this.filterApplicableLabelIds(repoId, labelIds);
    if (applicable.length !== unique(labelIds).length) throw new IssueStoreError('invalid', 'a label does not exist in this repository');
  }

  private async checkUsers(ids: readonly number[] | undefined): Promise<void> {
    if (!ids || ids.length === 0) return;
    const wanted = unique(ids);
    const rows = await this.db.all<DbRow>(sql`SELECT id FROM users WHERE id IN ${this.in(wanted)} AND type = 'user'`);
    if (rows.length !== wanted.length) throw new IssueStoreError('invalid', 'a user does not exist');
  }

  private async replaceSet(
    table: 'issue_assignees' | 'issue_labels' | 'review_requests',
    issueId: number,
    ids: readonly number[],
  ): Promise<void> {
    const column = raw(table === 'issue_labels' ? 'label_id' : 'user_id');
    await this.db.run(sql`DELETE FROM ${raw(table)} WHERE issue_id = ${issueId}`);
    const wanted = unique(ids);
    if (wanted.length === 0) return;
    const rows =
      table === 'issue_assignees'
        ? wanted.map((id, position) => sql`(${issueId}, ${id}, ${position})`)
        : wanted.map((id) => sql`(${issueId}, ${id})`);
    const columns = table === 'issue_assignees' ? raw('(issue_id, user_id, position)') : sql`(issue_id, ${column})`;
    // In batches: one statement for every row would pass the engines' parameter caps.
    for (const part of chunks(rows, BATCH_ROWS)) await this.db.run(sql`INSERT INTO ${raw(table)} ${columns} VALUES ${join(part)}`);
  }

  private async refreshMentions(issueId: number, title: string, body: string): Promise<void> {
    await this.db.run(sql`DELETE FROM issue_mentions WHERE issue_id = ${issueId}`);
    const names = parseMentions(title, body);
    if (names.length === 0) return;
    await this.db.run(sql`
      INSERT INTO issue_mentions (issue_id, user_id)
      SELECT ${issueId}, id FROM users WHERE lower_name IN ${this.in(names)} AND type = 'user'`);
  }

  async createIssue(input: CreateIssueInput): Promise<IssueRow> {
    const title = input.title.trim();
    if (title === '') throw new IssueStoreError('invalid', 'issue title is empty');
    return this.atomic((tx) =>
      tx.guard('issue', async () => {
        await tx.checkMilestone(input.repoId, input.milestoneId);
        await tx.checkLabels(input.repoId, input.labelIds);
        await tx.checkUsers([input.posterId, ...(input.assigneeIds ?? []), ...(input.reviewRequestIds ?? [])]);
        const isPull = input.pull !== undefined;
        const closed = input.closed === true || input.pull?.merged === true;
        const now = input.createdUnix ?? this.now();
        // The row lock taken by this UPDATE serialises creators per repository until commit, so the
        // index it hands out is never handed out twice and never skipped.
        const counters = await tx.first(sql`
          UPDATE repos SET next_index = next_index + 1,
            num_issues = num_issues + ${isPull ? 0 : 1}, num_closed_issues = num_closed_issues + ${!isPull && closed ? 1 : 0},
            num_pulls = num_pulls + ${isPull ? 1 : 0}, num_closed_pulls = num_closed_pulls + ${isPull && closed ? 1 : 0}
          WHERE id = ${input.repoId} RETURNING next_index`);
        if (!counters) throw new IssueStoreError('not_found', `repository ${input.repoId} does not exist`);
        const body = input.body ?? '';
        const row = await tx.first(sql`
          INSERT INTO issues (repo_id, idx, poster_id, title, body, ref, is_closed, is_pull, pr_merged, pr_merged_unix, pr_draft,
            milestone_id, deadline_unix, created_unix, updated_unix, closed_unix)
          VALUES (${input.repoId}, ${num(counters.next_index)}, ${input.posterId}, ${title}, ${body}, ${input.ref ?? ''},
            ${closed}, ${isPull}, ${input.pull?.merged ?? false}, ${input.pull?.merged ? (input.pull.mergedUnix ?? now) : null},
            ${input.pull?.draft ?? false}, ${input.milestoneId ?? null}, ${input.deadlineUnix ?? null},
            ${now}, ${now}, ${closed ? now : null})
          RETURNING id`);
        const issueId = num(row!.id);
        if (input.assigneeIds?.length) await tx.replaceSet('issue_assignees', issueId, input.assigneeIds);
        if (input.labelIds?.length) await tx.replaceSet('issue_labels', issueId, input.labelIds);
        if (input.reviewRequestIds?.length) await tx.replaceSet('review_requests', issueId, input.reviewRequestIds);
        await tx.refreshMentions(issueId, title, body);
        return (await tx.getIssueById(issueId))!;
      }),
    );
  }

  async updateIssue(issueId: number, patch: IssuePatch, actorId: number): Promise<UpdateIssueResult | undefined> {
    return this.atomic((tx) => tx.guard('issue', () => tx.applyPatch(issueId, patch, actorId)));
  }

  private async applyPatch(issueId: number, patch: IssuePatch, actorId: number): Promise<UpdateIssueResult | undefined> {
    const locked = await this.first(sql`SELECT ${this.issueColumns} FROM issues i WHERE i.id = ${issueId}${this.dialect.forUpdate}`);
    if (!locked) return undefined;
    const issue = this.hydrate([locked])[0]!;
    const now = this.now();
    const sets: SqlFragment[] = [];
    const events: { type: 'title' | 'state'; oldValue: string; newValue: string }[] = [];

    const title = patch.title?.trim();
    if (title && title !== issue.title) {
      sets.push(sql`title = ${title}`);
      events.push({ type: 'title', oldValue: issue.title, newValue: title });
    }
    if (patch.body !== undefined && patch.body !== issue.body) sets.push(sql`body = ${patch.body}`);
    if (patch.ref !== undefined && patch.ref !== issue.ref) sets.push(sql`ref = ${patch.ref}`);
    if (patch.milestoneId !== undefined && patch.milestoneId !== issue.milestoneId) {
      await this.checkMilestone(issue.repoId, patch.milestoneId);
      sets.push(sql`milestone_id = ${patch.milestoneId}`);
    }
    if (patch.deadlineUnix !== undefined && patch.deadlineUnix !== issue.deadlineUnix)
      sets.push(sql`deadline_unix = ${patch.deadlineUnix}`);
    if (patch.isLocked !== undefined && patch.isLocked !== issue.isLocked) sets.push(sql`is_locked = ${patch.isLocked}`);
    if (patch.timeEstimate !== undefined && patch.timeEstimate !== issue.timeEstimate)
      sets.push(sql`time_estimate = ${patch.timeEstimate}`);
    if (patch.pinOrder !== undefined && patch.pinOrder !== issue.pinOrder) sets.push(sql`pin_order = ${patch.pinOrder}`);

    let nextState = patch.state ?? issue.state;
    if (patch.merged === true && issue.isPull && !issue.pull?.merged) {
      sets.push(sql`pr_merged = ${true}`, sql`pr_merged_unix = ${now}`);
      nextState = 'closed';
    } else if (patch.state !== undefined && patch.state !== issue.state && issue.pull?.merged) {
      throw new IssueStoreError('merged', 'cannot change state of this pull request, it was already merged');
    }
    if (nextState !== issue.state) {
      if (nextState === 'closed' && (await this.countOpenBlockers(issueId)) > 0) {
        throw new IssueStoreError('open_dependencies', 'cannot close this issue or pull request because it still has open dependencies');
      }
      sets.push(sql`is_closed = ${nextState === 'closed'}`, sql`closed_unix = ${nextState === 'closed' ? now : null}`);
      events.push({ type: 'state', oldValue: issue.state, newValue: nextState });
      const delta = nextState === 'closed' ? 1 : -1;
      const counter = raw(issue.isPull ? 'num_closed_pulls' : 'num_closed_issues');
      await this.db.run(sql`UPDATE repos SET ${counter} = ${counter} + ${delta} WHERE id = ${issue.repoId}`);
    }

    const sameSet = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, i) => id === b[i]);
    let relationsChanged = false;
    if (patch.assigneeIds !== undefined && !sameSet(unique(patch.assigneeIds), issue.assigneeIds)) {
      await this.checkUsers(patch.assigneeIds);
      await this.replaceSet('issue_assignees', issueId, patch.assigneeIds);
      relationsChanged = true;
    }
    if (patch.labelIds !== undefined && !sameSet([...unique(patch.labelIds)].sort(), [...issue.labelIds].sort())) {
      await this.checkLabels(issue.repoId, patch.labelIds);
      await this.replaceSet('issue_labels', issueId, patch.labelIds);
      relationsChanged = true;
    }
    if (patch.reviewRequestIds !== undefined && !sameSet([...unique(patch.reviewRequestIds)].sort(), [...issue.reviewRequestIds].sort())) {
      await this.checkUsers(patch.reviewRequestIds);
      await this.replaceSet('review_requests', issueId, patch.reviewRequestIds);
      relationsChanged = true;
    }

    const recorded: CommentRow[] = [];
    for (const event of events) {
      const row = await this.first(sql`
        INSERT INTO comments (issue_id, poster_id, type, body, old_value, new_value, created_unix, updated_unix)
        VALUES (${issueId}, ${actorId}, ${event.type}, '', ${event.oldValue}, ${event.newValue}, ${now}, ${now})
        RETURNING *`);
      recorded.push(toComment(row!));
    }
    if (events.length > 0) sets.push(sql`num_comments = num_comments + ${events.length}`);
    if (sets.length > 0 || relationsChanged) {
      sets.push(sql`updated_unix = ${now}`);
      await this.db.run(sql`UPDATE issues SET ${join(sets)} WHERE id = ${issueId}`);
    }
    if (title !== undefined || patch.body !== undefined) {
      await this.refreshMentions(issueId, title || issue.title, patch.body ?? issue.body);
    }
    return { issue: (await this.getIssueById(issueId))!, events: recorded };
  }

  async listMentionedUserIds(issueId: number): Promise<number[]> {
    const rows = await this.db.all<DbRow>(sql`SELECT user_id FROM issue_mentions WHERE issue_id = ${issueId} ORDER BY user_id`);
    return rows.map((row) => num(row.user_id));
  }

  /** Label names → ids among the searched repositories' labels and their owner organizations'. */
  private async resolveLabels(filter: IssueFilter): Promise<number[] | undefined> {
    const names = filter.labels?.map((name) => name.trim()).filter(Boolean) ?? [];
    const ids = new Set(filter.labelIds ?? []);
    if (names.length > 0) {
      const rows = await this.db.all<DbRow>(sql`
        SELECT l.id FROM labels l WHERE l.name IN ${this.in([...new Set(names)])}
          AND (l.repo_id IN ${this.in(filter.repoIds)}
            OR l.org_id IN (SELECT r.owner_id FROM repos r WHERE r.id IN ${this.in(filter.repoIds)}))`);
      for (const row of rows) ids.add(num(row.id));
    }
    if (ids.size === 0) return filter.labelIds?.length ? [] : undefined;
    return [...ids];
  }

  /** Milestone names (and, when allowed, ids) → ids within the searched repositories. */
  private async resolveMilestones(filter: IssueFilter): Promise<number[] | undefined> {
    const values = filter.milestones?.map((value) => value.trim()).filter(Boolean) ?? [];
    if (values.length === 0) return undefined;
    const byName = await this.db.all<DbRow>(
      sql`SELECT id, title FROM milestones WHERE repo_id IN ${this.in(filter.repoIds)} AND title IN ${this.in([...new Set(values)])}`,
    );
    const ids = new Set(byName.map((row) => num(row.id)));
    if (filter.milestoneIdsAllowed) {
      const titles = new Set(byName.map((row) => String(row.title)));
      const numeric = values.filter((value) => !titles.has(value) && /^\d{1,15}$/.test(value)).map(Number);
      if (numeric.length > 0) {
        const byId = await this.db.all<DbRow>(
          sql`SELECT id FROM milestones WHERE repo_id IN ${this.in(filter.repoIds)} AND id IN ${this.in(numeric)}`,
        );
        for (const row of byId) ids.add(num(row.id));
      }
    }
    return ids.size === 0 ? undefined : [...ids];
  }

  async searchIssues(filter: IssueFilter): Promise<IssuePage> {
    if (filter.repoIds.length === 0) return { items: [], total: 0 };
    const keyword = normaliseKeyword(filter.keyword);
    const words = keyword === undefined ? undefined : keywordWords(keyword);
    if (words && words.length === 0) return { items: [], total: 0 };
    const [resolvedLabelIds, resolvedMilestoneIds] = this.inTransaction
      ? [await this.resolveLabels(filter), await this.resolveMilestones(filter)]
      : await Promise.all([this.resolveLabels(filter), this.resolveMilestones(filter)]);
    const resolved: ResolvedIssueFilter = { ...filter, repoIds: unique(filter.repoIds), resolvedLabelIds, resolvedMilestoneIds, words };
    const where = issueConditions(resolved, this.dialect);
    const limit = Math.max(1, Math.floor(filter.limit ?? DEFAULT_LIMIT));
    const page = Math.max(1, Math.floor(filter.page ?? 1));
    const offset = (page - 1) * limit;
    const countAll = async () => {
      const fromIndex = await this.keywordCountQuery(resolved);
      return num((await this.first(fromIndex ?? planFor(resolved, sql`SELECT COUNT(*) AS n FROM issues i WHERE ${where}`)))!.n);
    };
    // Absurd page numbers: nothing to fetch, and no huge OFFSET to scan.
    if (!Number.isSafeInteger(offset) || offset > Number.MAX_SAFE_INTEGER - limit) return { items: [], total: await countAll() };
    let ids: number[];
    let total: number;
    const titleTier = this.tieredRelevance(resolved, offset + limit);
    if (titleTier) {
      total = await countAll();
      if (total === 0 || offset >= total) return { items: [], total };
      ids = await this.pageByTier(resolved, where, titleTier, offset, limit, total);
    } else {
      const hits = await this.db.all<DbRow>(planFor(resolved, this.pageWithTotal(resolved, where, limit, offset)));
      if (hits.length === 0) return { items: [], total: offset === 0 ? 0 : await countAll() };
      ids = hits.map((hit) => num(hit.id));
      total = num(hits[0]!.total);
    }
    const rows = await this.db.all<DbRow>(sql`SELECT ${this.issueColumns} FROM issues i WHERE i.id IN ${this.in(ids)}`);
    const position = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => position.get(num(a.id))! - position.get(num(b.id))!);
    return { items: this.hydrate(rows), total };
  }

  /**
   * One pass that finds a page's ids and the total together. It reads only indexed columns (on
   * SQLite the covering index `issues_search_cover`), so wide rows are loaded for the page alone.
   * Where the dialect asks for it (`rankBeforeTotal`), a keyword rank is computed first, in a
   * materialized step, so that the rows the total's window holds carry the rank rather than what it
   * is computed from: PostgreSQL's `search_vector`, which spilled them to disk (100,000 issues, a
   * word in 12,000 of those searched: 44 → 28 ms).
   */
  private pageWithTotal(filter: ResolvedIssueFilter, where: SqlFragment, limit: number, offset: number): SqlFragment {
    if (this.dialect.rankBeforeTotal && filter.sort === 'relevance' && filter.words) {
      const ranked = sql`SELECT i.id, i.repo_id, i.created_unix, ${this.dialect.keywordRank(filter.words)} AS rank
        FROM issues i WHERE ${where}`;
      const order = issueOrder(filter, this.dialect, raw('i.rank'));
      return sql`WITH ranked AS MATERIALIZED (${ranked})
        SELECT i.id, COUNT(*) OVER () AS total FROM ranked i ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
    }
    return sql`SELECT i.id, COUNT(*) OVER () AS total FROM issues i WHERE ${where}
      ORDER BY ${issueOrder(filter, this.dialect)} LIMIT ${limit} OFFSET ${offset}`;
  }

  /**
   * The dialect's count from the full-text index alone, when it has one and the filter is just the
   * keyword, the state and the repositories, given as the shorter of the repositories searched and
   * those left out (anonymous callers: the few private ones). Past `MAX_INDEX_COUNT_REPOS` the
   * index merges too many posting lists and the SQL count is cheaper.
   */
  private async keywordCountQuery(filter: ResolvedIssueFilter): Promise<SqlFragment | undefined> {
    const keywordCount = this.dialect.keywordCount;
    if (!keywordCount || !filter.words) return undefined;
    const filtered =
      (filter.type ?? 'all') !== 'all' ||
      filter.resolvedLabelIds !== undefined ||
      filter.resolvedMilestoneIds !== undefined ||
      filter.since !== undefined ||
      filter.before !== undefined ||
      filter.posterId !== undefined ||
      filter.assigneeId !== undefined ||
      filter.mentionedId !== undefined ||
      filter.reviewRequestedId !== undefined;
    if (filtered) return undefined;
    const searched = new Set(filter.repoIds);
    let repos: RepoSelection = { only: [...searched] };
    if (searched.size > MAX_INDEX_COUNT_REPOS) {
      const all = (await this.db.all<DbRow>(sql`SELECT id FROM repos`)).map((row) => num(row.id));
      const except = all.filter((id) => !searched.has(id));
      if (except.length > MAX_INDEX_COUNT_REPOS) return undefined;
      repos = { except };
    }
    return keywordCount(filter.words, filter.state ?? 'open', repos);
  }

  /**
   * The title-tier condition when a relevance search can be paged tier by tier: the dialect ranks
   * in two tiers, no priority repository reorders them, and the page is near the front (deep pages
   * would fetch `offset + limit` ids per tier; the single ranked query serves them better).
   */
  private tieredRelevance(filter: ResolvedIssueFilter, end: number): SqlFragment | undefined {
    if (filter.sort !== 'relevance' || !filter.words || filter.priorityRepoId !== undefined || end > MAX_TIERED_END) return undefined;
    return this.dialect.keywordTitleTier?.(filter.words);
  }

  /**
   * One page of a two-tier relevance order (title matches newest first, then body-only matches
   * newest first), exactly as `ORDER BY rank, created_unix DESC, id DESC` would give it. Each tier
   * is its own query with a `LIMIT` and no rank to compute; the body-only tier, asked only when the
   * title matches run out, walks the index newest first when that is cheaper (`walkPaysOff`).
   * `total` is the number of matches (both tiers).
   */
  private async pageByTier(
    filter: ResolvedIssueFilter,
    where: SqlFragment,
    titleTier: SqlFragment,
    offset: number,
    limit: number,
    total: number,
  ): Promise<number[]> {
    // A title holding every word is a match of the whole keyword, so the title tier needs no
    // keyword condition beside its own: the small title match set drives the query alone.
    const others = issueConditions({ ...filter, words: undefined }, this.dialect);
    const titled =
      (await this.titleMatchesInWindow(filter, others, titleTier, offset + limit, total)) ??
      (await this.db.all<DbRow>(
        planFor(filter, sql`SELECT i.id FROM issues i WHERE ${others} AND ${titleTier} ORDER BY ${NEWEST_FIRST} LIMIT ${offset + limit}`),
      ));
    const ids = titled.slice(offset).map((row) => num(row.id));
    // Fewer title matches than the page reaches: the title tier is exhausted and has exactly
    // `titled.length` rows; the rest of the page comes from the body-only tier.
    if (titled.length < offset + limit) {
      const skip = Math.max(0, offset - titled.length);
      const keywordFilter = this.dialect.keywordFilter;
      const matching =
        keywordFilter && (await this.walkPaysOff(filter, total, skip + limit - ids.length))
          ? sql`${others} AND ${keywordFilter(filter.words!)}`
          : where;
      const body = await this.db.all<DbRow>(
        planFor(
          filter,
          sql`SELECT i.id FROM issues i WHERE ${matching} AND NOT (${titleTier})
            ORDER BY ${NEWEST_FIRST} LIMIT ${limit - ids.length} OFFSET ${skip}`,
        ),
      );
      ids.push(...body.map((row) => num(row.id)));
    }
    return ids;
  }

  /**
   * The first `needed` title matches newest first, read from a window of the state's newest issues
   * (in every repository) when the keyword is common enough for the window to hold them; `undefined`
   * when it is not, or when the window held fewer (the caller then collects every title match and
   * sorts them). Any match outside the window is older than every issue in it, so a window holding
   * `needed` matches holds exactly the first `needed` of the whole order. The window is sized
   * expecting the matches to be as dense among the state's issues as `total` says, and at least
   * `1 / TITLE_WINDOW_MARGIN` of them in titles. A walked index entry costs about a third of a
   * collected title match (SQLite, 100,000 issues, a word in 5,000 titles: 6.0 → 1.8 ms).
   */
  private async titleMatchesInWindow(
    filter: ResolvedIssueFilter,
    others: SqlFragment,
    titleTier: SqlFragment,
    needed: number,
    total: number,
  ): Promise<DbRow[] | undefined> {
    const state = filter.state ?? 'open';
    if (state === 'all') return undefined;
    const size = Math.ceil((needed * (await this.issuesInState(state)) * TITLE_WINDOW_MARGIN) / total);
    if (size > MAX_TITLE_WINDOW) return undefined;
    const window = sql`SELECT ${FILTERED_COLUMNS} FROM issues i
      WHERE i.is_closed = ${state === 'closed'} ORDER BY ${NEWEST_FIRST} LIMIT ${size}`;
    const rows = await this.db.all<DbRow>(
      planFor(filter, sql`SELECT i.id FROM (${window}) i WHERE ${others} AND ${titleTier} ORDER BY ${NEWEST_FIRST} LIMIT ${needed}`),
    );
    return rows.length === needed ? rows : undefined;
  }

  /** How many issues are in `state`, in the repositories `repoIds` or in all, from the repositories' counters. */
  private async issuesInState(state: OpenClosed, repoIds?: readonly number[]): Promise<number> {
    const inState =
      state === 'open' ? raw('num_issues - num_closed_issues + num_pulls - num_closed_pulls') : raw('num_closed_issues + num_closed_pulls');
    const row = await this.first(
      repoIds === undefined
        ? sql`SELECT SUM(${inState}) AS n FROM repos`
        : sql`SELECT SUM(${inState}) AS n FROM repos WHERE id IN ${this.in(repoIds)}`,
    );
    return num(row?.n ?? 0);
  }

  /**
   * Whether `rows` keyword matches newest first are found faster by walking the state's index
   * newest first and testing each row against the matches (the dialect's `keywordFilter`) than by
   * collecting all `matches` and sorting them. The walk reads about `rows × in scope / matches`
   * index entries, each tested in ~0.1 µs; collecting costs ~1 µs per match (SQLite, 100,000
   * issues: a word in 5 % of them, 5 → 1.4 ms; a word in 3 issues, 0.3 ms, would take 5 ms to walk
   * to the end). Only for one state: across both, no index lists the rows newest first.
   */
  private async walkPaysOff(filter: ResolvedIssueFilter, matches: number, rows: number): Promise<boolean> {
    const state = filter.state ?? 'open';
    if (state === 'all') return false;
    return rows * (await this.issuesInState(state, filter.repoIds)) < WALK_ADVANTAGE * matches * matches;
  }

  async importIssues(inputs: readonly ImportIssueInput[]): Promise<number> {
    if (inputs.length === 0) return 0;
    for (const input of inputs) {
      if (input.title.trim() === '') throw new IssueStoreError('invalid', 'issue title is empty');
    }
    return this.atomic((tx) => tx.guard('issue', () => tx.bulkInsert(inputs)));
  }

  private async bulkInsert(inputs: readonly ImportIssueInput[]): Promise<number> {
    // 1. Reserve index ranges per repository, bumping the counters once per repository.
    const perRepo = new Map<number, { count: number; closedIssues: number; issues: number; pulls: number; closedPulls: number }>();
    for (const input of inputs) {
      const entry = perRepo.get(input.repoId) ?? { count: 0, closedIssues: 0, issues: 0, pulls: 0, closedPulls: 0 };
      const isPull = input.pull !== undefined;
      const closed = input.closed === true || input.pull?.merged === true;
      entry.count++;
      if (isPull) {
        entry.pulls++;
        if (closed) entry.closedPulls++;
      } else {
        entry.issues++;
        if (closed) entry.closedIssues++;
      }
      perRepo.set(input.repoId, entry);
    }
    const nextIndex = new Map<number, number>();
    for (const [repoId, entry] of perRepo) {
      const row = await this.first(sql`
        UPDATE repos SET next_index = next_index + ${entry.count}, num_issues = num_issues + ${entry.issues},
          num_closed_issues = num_closed_issues + ${entry.closedIssues}, num_pulls = num_pulls + ${entry.pulls},
          num_closed_pulls = num_closed_pulls + ${entry.closedPulls}
        WHERE id = ${repoId} RETURNING next_index`);
      if (!row) throw new IssueStoreError('not_found', `repository ${repoId} does not exist`);
      nextIndex.set(repoId, num(row.next_index) - entry.count + 1);
    }
    // 2. Mentions resolved once for the whole batch.
    const mentionNames = new Map<ImportIssueInput, string[]>();
    const allNames = new Set<string>();
    for (const input of inputs) {
      const names = parseMentions(input.title, input.body ?? '');
      mentionNames.set(input, names);
      for (const name of names) allNames.add(name);
    }
    const userIdByName = new Map<string, number>();
    for (const part of chunks([...allNames], BATCH_ROWS)) {
      const rows = await this.db.all<DbRow>(sql`SELECT id, lower_name FROM users WHERE lower_name IN ${list(part)} AND type = 'user'`);
      for (const row of rows) userIdByName.set(String(row.lower_name), num(row.id));
    }
    // 3. Issues, then their relations, in multi-row statements.
    const now = this.now();
    const assignees: SqlFragment[] = [];
    const labels: SqlFragment[] = [];
    const reviewers: SqlFragment[] = [];
    const mentions: SqlFragment[] = [];
    const comments: SqlFragment[] = [];
    for (const part of chunks(inputs, BATCH_ROWS)) {
      const indexes: number[] = [];
      const values = part.map((input) => {
        const index = nextIndex.get(input.repoId)!;
        nextIndex.set(input.repoId, index + 1);
        indexes.push(index);
        const isPull = input.pull !== undefined;
        const closed = input.closed === true || input.pull?.merged === true;
        const created = input.createdUnix ?? now;
        const updated = input.updatedUnix ?? created;
        return sql`(${input.repoId}, ${index}, ${input.posterId}, ${input.title.trim()}, ${input.body ?? ''}, ${input.ref ?? ''},
          ${closed}, ${isPull}, ${input.pull?.merged ?? false}, ${input.pull?.merged ? (input.pull.mergedUnix ?? updated) : null},
          ${input.pull?.draft ?? false}, ${input.milestoneId ?? null}, ${input.deadlineUnix ?? null}, ${input.comments?.length ?? 0},
          ${created}, ${updated}, ${closed ? updated : null})`;
      });
      const rows = await this.db.all<DbRow>(sql`
        INSERT INTO issues (repo_id, idx, poster_id, title, body, ref, is_closed, is_pull, pr_merged, pr_merged_unix, pr_draft,
          milestone_id, deadline_unix, num_comments, created_unix, updated_unix, closed_unix)
        VALUES ${join(values)} RETURNING id, repo_id, idx`);
      const idByKey = new Map(rows.map((row) => [`${num(row.repo_id)}:${num(row.idx)}`, num(row.id)]));
      part.forEach((input, i) => {
        const issueId = idByKey.get(`${input.repoId}:${indexes[i]}`)!;
        unique(input.assigneeIds ?? []).forEach((userId, position) => {
          assignees.push(sql`(${issueId}, ${userId}, ${position})`);
        });
        for (const labelId of unique(input.labelIds ?? [])) labels.push(sql`(${issueId}, ${labelId})`);
        for (const userId of unique(input.reviewRequestIds ?? [])) reviewers.push(sql`(${issueId}, ${userId})`);
        for (const name of mentionNames.get(input)!) {
          const userId = userIdByName.get(name);
          if (userId !== undefined) mentions.push(sql`(${issueId}, ${userId})`);
        }
        for (const comment of input.comments ?? []) {
          const created = comment.createdUnix ?? input.createdUnix ?? now;
          comments.push(sql`(${issueId}, ${comment.posterId}, 'comment', ${comment.body}, ${created}, ${created})`);
        }
      });
    }
    const insertAll = async (head: SqlFragment, rows: readonly SqlFragment[]) => {
      for (const part of chunks(rows, BATCH_ROWS)) await this.db.run(sql`${head} VALUES ${join(part)}`);
    };
    await insertAll(raw('INSERT INTO issue_assignees (issue_id, user_id, position)'), assignees);
    await insertAll(raw('INSERT INTO issue_labels (issue_id, label_id)'), labels);
    await insertAll(raw('INSERT INTO review_requests (issue_id, user_id)'), reviewers);
    await insertAll(raw('INSERT INTO issue_mentions (issue_id, user_id)'), mentions);
    await insertAll(raw('INSERT INTO comments (issue_id, poster_id, type, body, created_unix, updated_unix)'), comments);
    // Large loads change the data's shape; without fresh statistics the planners keep plans made
    // for an empty database.
    if (inputs.length >= ANALYZE_AFTER_ROWS) await this.db.exec(this.dialect.analyze);
    return inputs.length;
  }

  // ── comments / timeline ─────────────────────────────────────────────────

  async createComment(input: CreateCommentInput): Promise<CommentRow> {
    return this.atomic((tx) =>
      tx.guard('comment', async () => {
        const now = input.createdUnix ?? this.now();
        const changed = await tx.db.run(
          sql`UPDATE issues SET num_comments = num_comments + 1, updated_unix = ${now} WHERE id = ${input.issueId}`,
        );
        if (changed === 0) throw new IssueStoreError('not_found', `issue ${input.issueId} does not exist`);
        const row = await tx.first(sql`
          INSERT INTO comments (issue_id, poster_id, type, body, created_unix, updated_unix)
          VALUES (${input.issueId}, ${input.posterId}, 'comment', ${input.body}, ${now}, ${now}) RETURNING *`);
        return toComment(row!);
      }),
    );
  }

  async listComments(issueId: number): Promise<CommentRow[]> {
    return (await this.db.all<DbRow>(sql`SELECT * FROM comments WHERE issue_id = ${issueId} ORDER BY id`)).map(toComment);
  }

  // ── dependencies ────────────────────────────────────────────────────────

  async addDependency(issueId: number, blockedById: number): Promise<void> {
    if (issueId === blockedById) throw new IssueStoreError('invalid', 'an issue cannot depend on itself');
    await this.atomic(async (tx) => {
      const found = await tx.db.all<DbRow>(sql`SELECT id FROM issues WHERE id IN ${list([issueId, blockedById])}`);
      if (found.length !== 2) throw new IssueStoreError('invalid', 'issue does not exist');
      // Would the new edge close a loop? Walk what `blockedById` is (transitively) blocked by.
      const loop = await tx.first(sql`
        WITH RECURSIVE chain (id) AS (
          SELECT blocked_by_id FROM issue_dependencies WHERE issue_id = ${blockedById}
          UNION SELECT d.blocked_by_id FROM issue_dependencies d JOIN chain c ON d.issue_id = c.id
        ) SELECT 1 AS one FROM chain WHERE id = ${issueId}`);
      if (loop) throw new IssueStoreError('circular', 'the dependency would create a circular dependency');
      await tx.guard('dependency', () =>
        tx.db.run(
          sql`INSERT INTO issue_dependencies (issue_id, blocked_by_id, created_unix) VALUES (${issueId}, ${blockedById}, ${this.now()})`,
        ),
      );
    });
  }

  async removeDependency(issueId: number, blockedById: number): Promise<boolean> {
    return (await this.db.run(sql`DELETE FROM issue_dependencies WHERE issue_id = ${issueId} AND blocked_by_id = ${blockedById}`)) > 0;
  }

  async listBlockedBy(issueId: number): Promise<IssueRow[]> {
    const rows = await this.db.all<DbRow>(
      sql`SELECT ${this.issueColumns} FROM issues i JOIN issue_dependencies d ON d.blocked_by_id = i.id
        WHERE d.issue_id = ${issueId} ORDER BY i.created_unix, i.id`,
    );
    return this.hydrate(rows);
  }

  async listBlocking(issueId: number): Promise<IssueRow[]> {
    const rows = await this.db.all<DbRow>(
      sql`SELECT ${this.issueColumns} FROM issues i JOIN issue_dependencies d ON d.issue_id = i.id
        WHERE d.blocked_by_id = ${issueId} ORDER BY i.created_unix, i.id`,
    );
    return this.hydrate(rows);
  }

  async countOpenBlockers(issueId: number): Promise<number> {
    const row = await this.first(sql`
      SELECT COUNT(*) AS n FROM issue_dependencies d JOIN issues b ON b.id = d.blocked_by_id
      WHERE d.issue_id = ${issueId} AND b.is_closed = ${false}`);
    return num(row!.n);
  }
}
