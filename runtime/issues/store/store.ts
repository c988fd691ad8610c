/**
 * @module The storage contract of the Issues service: one small async interface per aggregate
 * (users, tokens, organizations, repositories, labels, milestones, issues, timeline, dependencies,
 * bulk import), combined as `IssueStore`, with the row types they return and the inputs and filters
 * they accept. Engines (`sqlite/`, `postgres/`) implement it; the HTTP layer codes against it and
 * never sees SQL.
 *
 * Conventions that hold for every method:
 * - Times are Unix seconds (integers), as Gitea stores them; `null` means "not set".
 * - Ids are positive integers allocated by the database.
 * - User and repository names are matched case-insensitively (Gitea's `lower_name`), returned as created.
 * - "Not found" on a read is `undefined`, never an exception; a write that cannot be done throws
 *   {@link IssueStoreError} with a `code` the API maps to a status.
 * - Every write method is atomic on its own; use {@link IssueStore.transaction} to group several.
 */

import type { PermissionLevel } from '../domain/permission.js';

export type { PermissionLevel } from '../domain/permission.js';

/** Unix time in whole seconds. */
export type UnixSeconds = number;

/** `user` for people, `org` for organizations (Gitea keeps both in the user table). */
export type UserType = 'user' | 'org';

/** Gitea's visibility of a user or organization. */
export type Visibility = 'public' | 'limited' | 'private';

/** A user or organization. Password hashes never leave the store. */
export interface UserRow {
  readonly id: number;
  /** The login name, as created (`alice`). */
  readonly name: string;
  readonly type: UserType;
  readonly fullName: string;
  readonly email: string;
  readonly isAdmin: boolean;
  readonly description: string;
  readonly website: string;
  readonly location: string;
  readonly visibility: Visibility;
  readonly createdUnix: UnixSeconds;
  readonly updatedUnix: UnixSeconds;
  /** Last successful password or token authentication; `null` when never. */
  readonly lastLoginUnix: UnixSeconds | null;
}

export interface CreateUserInput {
  readonly name: string;
  readonly email: string;
  /** Plain text; hashed with scrypt before it is stored. Omit for accounts that only use tokens. */
  readonly password?: string;
  readonly fullName?: string;
  readonly isAdmin?: boolean;
  readonly description?: string;
  readonly website?: string;
  readonly location?: string;
  readonly visibility?: Visibility;
}

export interface CreateOrgInput {
  readonly name: string;
  /** The user who becomes the organization's (first) owner: admin on all its repositories. */
  readonly ownerId: number;
  readonly fullName?: string;
  readonly email?: string;
  readonly description?: string;
  readonly website?: string;
  readonly location?: string;
  readonly visibility?: Visibility;
}

/** An access token as stored: the secret itself is never kept, only its SHA-256. */
export interface AccessTokenRow {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  /** Gitea scopes such as `all`, `read:issue`, `write:issue`, `public-only`. */
  readonly scopes: readonly string[];
  /** The last eight characters of the token, for display (`token_last_eight` in Gitea). */
  readonly tokenLastEight: string;
  readonly createdUnix: UnixSeconds;
  readonly updatedUnix: UnixSeconds;
}

export interface CreateAccessTokenInput {
  readonly userId: number;
  /** Unique per user; a duplicate throws `IssueStoreError('conflict')`. */
  readonly name: string;
  /** @default ['all'] */
  readonly scopes?: readonly string[];
}

/** Returned once by `createAccessToken`: `token` is the only copy of the secret (40 hex chars). */
export interface CreatedAccessToken {
  readonly token: string;
  readonly row: AccessTokenRow;
}

export interface RepoRow {
  readonly id: number;
  readonly ownerId: number;
  /** The owner's login name, joined for convenience (`full_name` is `${ownerName}/${name}`). */
  readonly ownerName: string;
  readonly ownerType: UserType;
  readonly name: string;
  readonly description: string;
  readonly isPrivate: boolean;
  readonly isArchived: boolean;
  /** Plain issues (not pulls) in the repository, open and closed. */
  readonly numIssues: number;
  readonly numClosedIssues: number;
  readonly numPulls: number;
  readonly numClosedPulls: number;
  readonly createdUnix: UnixSeconds;
  readonly updatedUnix: UnixSeconds;
}

/** A repository with a viewer's permission on it (see `IssueStore.findRepoWithPermission`). */
export interface RepoWithPermission {
  readonly repo: RepoRow;
  readonly permission: PermissionLevel;
}

export interface CreateRepoInput {
  readonly ownerId: number;
  /** Unique per owner, case-insensitively; a duplicate throws `IssueStoreError('conflict')`. */
  readonly name: string;
  readonly description?: string;
  readonly isPrivate?: boolean;
}

/** Explicit access of a user to a repository (Gitea's `access_mode` of a collaboration). */
export type CollaboratorPermission = Exclude<PermissionLevel, 'none'>;

export interface CollaboratorRow {
  readonly repoId: number;
  readonly userId: number;
  readonly permission: CollaboratorPermission;
}

/** A repository label (`repoId` set) or an organization label (`orgId` set). */
export interface LabelRow {
  readonly id: number;
  readonly repoId: number | null;
  readonly orgId: number | null;
  readonly name: string;
  /** Six hex digits without `#`, lower case (`ee0701`). */
  readonly color: string;
  readonly description: string;
  readonly exclusive: boolean;
  readonly isArchived: boolean;
}

export interface CreateLabelInput {
  /** Exactly one of `repoId` and `orgId`. */
  readonly repoId?: number;
  readonly orgId?: number;
  readonly name: string;
  /** With or without `#`; three or six hex digits. Invalid colours throw `IssueStoreError('invalid')`. */
  readonly color: string;
  readonly description?: string;
  readonly exclusive?: boolean;
}

export type OpenClosed = 'open' | 'closed';

export interface MilestoneRow {
  readonly id: number;
  readonly repoId: number;
  readonly title: string;
  readonly description: string;
  readonly state: OpenClosed;
  /** Counted when read (plain issues and pulls), so they are always consistent. */
  readonly openIssues: number;
  readonly closedIssues: number;
  readonly createdUnix: UnixSeconds;
  readonly updatedUnix: UnixSeconds;
  readonly closedUnix: UnixSeconds | null;
  readonly deadlineUnix: UnixSeconds | null;
}

export interface CreateMilestoneInput {
  readonly repoId: number;
  readonly title: string;
  readonly description?: string;
  /** @default 'open' */
  readonly state?: OpenClosed;
  readonly deadlineUnix?: UnixSeconds | null;
}

export interface UpdateMilestoneInput {
  readonly title?: string;
  readonly description?: string;
  readonly state?: OpenClosed;
  readonly deadlineUnix?: UnixSeconds | null;
}

/** Pull-request fields of an issue that is a pull request. */
export interface PullRequestFields {
  readonly merged: boolean;
  readonly mergedUnix: UnixSeconds | null;
  readonly draft: boolean;
}

export interface IssueRow {
  /** Global id. */
  readonly id: number;
  readonly repoId: number;
  /** Per-repository number (`number` on the wire, `{index}` in paths). */
  readonly index: number;
  readonly posterId: number;
  readonly title: string;
  readonly body: string;
  readonly ref: string;
  readonly state: OpenClosed;
  readonly isLocked: boolean;
  readonly isPull: boolean;
  /** Set exactly when `isPull`. */
  readonly pull: PullRequestFields | null;
  readonly milestoneId: number | null;
  readonly deadlineUnix: UnixSeconds | null;
  /** Timeline entries of every type (comments, title and state changes). */
  readonly numComments: number;
  readonly pinOrder: number;
  readonly timeEstimate: number;
  readonly createdUnix: UnixSeconds;
  readonly updatedUnix: UnixSeconds;
  readonly closedUnix: UnixSeconds | null;
  /** In assignment order (the first is Gitea's deprecated single `assignee`). */
  readonly assigneeIds: readonly number[];
  /** Sorted by label name. */
  readonly labelIds: readonly number[];
  /** Users whose review is requested (pull requests). */
  readonly reviewRequestIds: readonly number[];
}

export interface CreateIssueInput {
  readonly repoId: number;
  readonly posterId: number;
  /** Trimmed; empty after trimming throws `IssueStoreError('invalid')`. */
  readonly title: string;
  readonly body?: string;
  readonly ref?: string;
  /** Creates a pull request (an issue with `isPull` and pull fields). */
  readonly pull?: Partial<PullRequestFields>;
  readonly milestoneId?: number | null;
  readonly deadlineUnix?: UnixSeconds | null;
  readonly assigneeIds?: readonly number[];
  readonly labelIds?: readonly number[];
  readonly reviewRequestIds?: readonly number[];
  /** Creates the issue closed (no open dependencies can exist yet, so this never fails). */
  readonly closed?: boolean;
  /** Overrides the clock, for imports and demo data. */
  readonly createdUnix?: UnixSeconds;
}

/**
 * A partial update. Absent keys are left unchanged; `null` clears nullable fields.
 * Referenced ids (milestone, labels, users) must exist, or `IssueStoreError('invalid')` is thrown.
 */
export interface IssuePatch {
  readonly title?: string;
  readonly body?: string;
  readonly ref?: string;
  readonly milestoneId?: number | null;
  readonly deadlineUnix?: UnixSeconds | null;
  /** Replaces the assignee set; `[]` clears it. */
  readonly assigneeIds?: readonly number[];
  /** Replaces the label set. */
  readonly labelIds?: readonly number[];
  /** Replaces the requested reviewers (pull requests). */
  readonly reviewRequestIds?: readonly number[];
  /**
   * `closed` closes (sets `closedUnix`), `open` reopens (clears it); the current state is a no-op.
   * Closing while a "blocked by" dependency is open throws `IssueStoreError('open_dependencies')`
   * and nothing of the patch is written. Changing the state of a merged pull request throws
   * `IssueStoreError('merged')`.
   */
  readonly state?: OpenClosed;
  /** Pull requests only: marks merged (and closes it). */
  readonly merged?: boolean;
  readonly isLocked?: boolean;
  readonly timeEstimate?: number;
  readonly pinOrder?: number;
}

/** Kinds of timeline entries. */
export type CommentType = 'comment' | 'title' | 'state';

/**
 * A timeline entry. For `title`: `oldValue`/`newValue` are the titles. For `state`: they are
 * `open`/`closed`. For `comment`: both `null`, the text is `body`.
 */
export interface CommentRow {
  readonly id: number;
  readonly issueId: number;
  readonly posterId: number;
  readonly type: CommentType;
  readonly body: string;
  readonly oldValue: string | null;
  readonly newValue: string | null;
  readonly createdUnix: UnixSeconds;
  readonly updatedUnix: UnixSeconds;
}

export interface CreateCommentInput {
  readonly issueId: number;
  readonly posterId: number;
  readonly body: string;
  readonly createdUnix?: UnixSeconds;
}

/** What `updateIssue` did: the reloaded issue and the timeline events it recorded (for the event bus). */
export interface UpdateIssueResult {
  readonly issue: IssueRow;
  /** Title-change and state-change entries, in the order they happened; `[]` when none. */
  readonly events: readonly CommentRow[];
}

export type IssueStateFilter = OpenClosed | 'all';
export type IssueTypeFilter = 'issues' | 'pulls' | 'all';

/**
 * Sort orders. `newest` is Gitea's default for both list and search: `created DESC, id DESC`.
 * `relevance` ranks keyword matches (title above body), then newest; without a keyword it is `newest`.
 */
export type IssueSort = 'newest' | 'oldest' | 'recentupdate' | 'leastupdate' | 'mostcomment' | 'relevance';

/**
 * Filter of {@link IssueStore.searchIssues}. All conditions are combined with AND.
 *
 * @example
 * // GET /repos/alice/proj/issues?state=all&labels=bug,ui&q=crash&page=2&limit=10
 * await store.searchIssues({ repoIds: [repo.id], state: 'all', labels: ['bug', 'ui'], keyword: 'crash', page: 2, limit: 10 });
 */
export interface IssueFilter {
  /** The repositories searched (already restricted to what the caller may see). `[]` gives no results. */
  readonly repoIds: readonly number[];
  /** @default 'open' */
  readonly state?: IssueStateFilter;
  /** @default 'all' */
  readonly type?: IssueTypeFilter;
  /**
   * Label names, any-of: issues carrying at least one. Names are matched against the labels of the
   * searched repositories and of their owner organizations; names that match no label are discarded,
   * and when none remain the label filter is not applied (Gitea's behaviour).
   */
  readonly labels?: readonly string[];
  /** Label ids, any-of; applied as given (unknown ids match nothing). */
  readonly labelIds?: readonly number[];
  /**
   * Milestone names (or, with `milestoneIdsAllowed`, names or numeric ids: a name is tried first),
   * any-of. Values that match no milestone of the searched repositories are discarded; when none
   * remain the milestone filter is not applied.
   */
  readonly milestones?: readonly string[];
  /** @default false */
  readonly milestoneIdsAllowed?: boolean;
  /**
   * Full-text keyword over title and body. Trimmed; a value containing NUL or only spaces is
   * ignored. All words must occur: words of three or more characters by prefix, shorter ones
   * exactly; a keyword with no letters or digits matches nothing.
   */
  readonly keyword?: string;
  /** Only items updated at or after this time. */
  readonly since?: UnixSeconds;
  /** Only items updated at or before this time. */
  readonly before?: UnixSeconds;
  readonly posterId?: number;
  readonly assigneeId?: number;
  readonly mentionedId?: number;
  /** Only pull requests requesting this user's review. */
  readonly reviewRequestedId?: number;
  /** Items of this repository come first; the sort applies within each group. */
  readonly priorityRepoId?: number;
  /** @default 'newest' */
  readonly sort?: IssueSort;
  /** 1-based; values below 1 mean 1. @default 1 */
  readonly page?: number;
  /** Page size; the API clamps it to its configured maximum first. @default 30 */
  readonly limit?: number;
}

/** A page of issues and the number of issues matching the filter regardless of paging. */
export interface IssuePage {
  readonly items: readonly IssueRow[];
  readonly total: number;
}

/** One issue for {@link IssueStore.importIssues}: like `CreateIssueInput`, plus fixed times and comments. */
export interface ImportIssueInput extends CreateIssueInput {
  readonly updatedUnix?: UnixSeconds;
  readonly comments?: readonly { readonly posterId: number; readonly body: string; readonly createdUnix?: UnixSeconds }[];
}

/** Options of `listVisibleRepoIds`. */
export interface VisibilityOptions {
  /** Only the repositories that are not private, among those the viewer sees (a `public-only` token). */
  readonly publicOnly?: boolean;
  /** Only repositories of this owner (user or organization). */
  readonly ownerId?: number;
}

/** Capability flags of an engine, for callers that adapt (benchmarks, docs, diagnostics). */
export interface StoreInfo {
  readonly engine: 'sqlite' | 'postgres';
  /** Where the data lives: a file path, `:memory:`, or the PostgreSQL URL without password. */
  readonly location: string;
  /** The schema version reached by the migrations. */
  readonly schemaVersion: number;
}

/**
 * Users (people) and their passwords. Organizations share the table; see {@link OrgStore}.
 *
 * @example
 * const alice = await store.createUser({ name: 'alice', email: 'alice@example.com', password: 's3cret' });
 * (await store.verifyPassword('Alice', 's3cret'))?.id === alice.id; // true
 */
export interface UserStore {
  /**
   * Throws `IssueStoreError('conflict')` when the name is taken (case-insensitively, users and
   * organizations alike), `('email_taken')` when another user has the e-mail address
   * (case-insensitively; an empty address is never taken).
   */
  createUser(input: CreateUserInput): Promise<UserRow>;
  /** Users and organizations, by login name, case-insensitively. */
  findUserByName(name: string): Promise<UserRow | undefined>;
  getUserById(id: number): Promise<UserRow | undefined>;
  /** Batch lookup; the result holds the ids that exist, in no particular order. */
  getUsersByIds(ids: readonly number[]): Promise<UserRow[]>;
  /** Batch lookup by login names (case-insensitive); unknown names are absent from the result. */
  findUsersByNames(names: readonly string[]): Promise<UserRow[]>;
  /**
   * Checks a password (constant-time scrypt comparison). Returns the user on success and records
   * the login time; `undefined` for an unknown user, an organization, a user without password, or a
   * wrong password.
   */
  verifyPassword(name: string, password: string): Promise<UserRow | undefined>;
  /** Number of people (not organizations); `0` tells a bootstrap that the database is empty. */
  countUsers(): Promise<number>;
  setPassword(userId: number, password: string): Promise<void>;
}

/**
 * Access tokens: only their SHA-256 is kept, the secret is returned once on creation.
 *
 * @example
 * const { token } = await store.createAccessToken({ userId: alice.id, name: 'cli', scopes: ['write:issue'] });
 * (await store.findAccessToken(token))?.user.name; // 'alice'
 */
export interface AccessTokenStore {
  createAccessToken(input: CreateAccessTokenInput): Promise<CreatedAccessToken>;
  /**
   * Looks up a presented token. `undefined` for anything that is not a live token (wrong length,
   * not hex, unknown, owner gone). Does not throw on malformed input.
   */
  findAccessToken(token: string): Promise<{ readonly user: UserRow; readonly token: AccessTokenRow } | undefined>;
  listAccessTokens(userId: number): Promise<AccessTokenRow[]>;
  deleteAccessToken(userId: number, tokenId: number): Promise<boolean>;
}

/**
 * Organizations (user rows of type `org`) and their owners.
 *
 * @example
 * const acme = await store.createOrg({ name: 'acme', ownerId: carol.id });
 * await store.isOrgOwner(acme.id, carol.id); // true
 */
export interface OrgStore {
  /** Creates a user row of type `org` and makes `ownerId` its owner. Name conflicts as for users. */
  createOrg(input: CreateOrgInput): Promise<UserRow>;
  addOrgOwner(orgId: number, userId: number): Promise<void>;
  isOrgOwner(orgId: number, userId: number): Promise<boolean>;
  /** Organizations the user owns. */
  listOrgsOwnedBy(userId: number): Promise<UserRow[]>;
}

/**
 * Repositories, their collaborators and what a viewer may do with them.
 *
 * @example
 * const repo = await store.createRepo({ ownerId: alice.id, name: 'proj', isPrivate: true });
 * await store.getPermission(repo.id, null); // 'none'
 */
export interface RepoStore {
  createRepo(input: CreateRepoInput): Promise<RepoRow>;
  /** By owner login and repository name, case-insensitively. */
  findRepo(ownerName: string, repoName: string): Promise<RepoRow | undefined>;
  getRepoById(id: number): Promise<RepoRow | undefined>;
  getReposByIds(ids: readonly number[]): Promise<RepoRow[]>;
  listReposByOwner(ownerId: number): Promise<RepoRow[]>;
  setRepoArchived(repoId: number, archived: boolean): Promise<void>;
  /**
   * Ids of the repositories the viewer may read (exactly those `getPermission` gives `read` or
   * more): anonymous viewers (`viewerId` `null`) get the public repositories of public owners;
   * signed-in viewers also those of `limited` owners, plus every repository they own, own through
   * an organization, or collaborate on; an admin gets all. Public repositories of a `private` user
   * or organization are visible to its members and collaborators only (Gitea's rule).
   */
  listVisibleRepoIds(viewerId: number | null, options?: VisibilityOptions): Promise<number[]>;

  /** Adds or changes a collaborator's permission (an upsert). */
  setCollaborator(repoId: number, userId: number, permission: CollaboratorPermission): Promise<void>;
  removeCollaborator(repoId: number, userId: number): Promise<boolean>;
  listCollaborators(repoId: number): Promise<CollaboratorRow[]>;
  /**
   * The viewer's permission on a repository: site admin, owner and organization owner → `admin`;
   * collaborator → their permission; anyone else → `read` on a public repository whose owner they
   * may see (a `public` owner; a `limited` one when signed in) and `none` otherwise. Unknown
   * repository → `none`. The rule is `resolvePermission` (`domain/permission.ts`).
   */
  getPermission(repoId: number, viewerId: number | null): Promise<PermissionLevel>;
  /**
   * {@link findRepo} and {@link getPermission} in one query: every request on a repository needs
   * both, and one round trip instead of two is what a request costs on PostgreSQL.
   */
  findRepoWithPermission(ownerName: string, repoName: string, viewerId: number | null): Promise<RepoWithPermission | undefined>;
}

/**
 * Labels of repositories and organizations.
 *
 * @example
 * const bug = await store.createLabel({ repoId: repo.id, name: 'bug', color: '#ee0701' });
 * await store.filterApplicableLabelIds(repo.id, [bug.id, 999]); // [bug.id]
 */
export interface LabelStore {
  /** Throws `IssueStoreError('conflict')` for a duplicate name in the same repository/organization. */
  createLabel(input: CreateLabelInput): Promise<LabelRow>;
  /** Repository labels, sorted by name. */
  listLabels(repoId: number): Promise<LabelRow[]>;
  /** Organization labels, sorted by name. */
  listOrgLabels(orgId: number): Promise<LabelRow[]>;
  getLabelsByIds(ids: readonly number[]): Promise<LabelRow[]>;
  /**
   * The subset of `ids` that may be put on issues of `repoId`: its own labels and its owner
   * organization's. Unknown or foreign ids are dropped (Gitea drops them silently on create).
   */
  filterApplicableLabelIds(repoId: number, ids: readonly number[]): Promise<number[]>;
}

/**
 * Milestones of repositories, with their issue counts.
 *
 * @example
 * const v1 = await store.createMilestone({ repoId: repo.id, title: 'v1.0' });
 * (await store.findMilestoneByName(repo.id, 'v1.0'))?.id === v1.id; // true
 */
export interface MilestoneStore {
  createMilestone(input: CreateMilestoneInput): Promise<MilestoneRow>;
  updateMilestone(id: number, input: UpdateMilestoneInput): Promise<MilestoneRow | undefined>;
  /** Sorted by id. `state` defaults to `all`. */
  listMilestones(repoId: number, state?: IssueStateFilter): Promise<MilestoneRow[]>;
  getMilestone(id: number): Promise<MilestoneRow | undefined>;
  getMilestonesByIds(ids: readonly number[]): Promise<MilestoneRow[]>;
  /** By exact title within a repository. */
  findMilestoneByName(repoId: number, title: string): Promise<MilestoneRow | undefined>;
}

/**
 * Issues and pull requests: numbering, edits with their timeline entries, mentions and search.
 *
 * @example
 * const issue = await store.createIssue({ repoId: repo.id, posterId: alice.id, title: 'Crash on start' });
 * const { issue: closed } = (await store.updateIssue(issue.id, { state: 'closed' }, alice.id))!;
 */
export interface IssueRecordStore {
  /**
   * Creates an issue (or pull request) with the next free per-repository index: atomic, without
   * gaps or duplicates under concurrency. Records `@name` mentions of title and body, bumps the
   * repository counters. Referenced ids must exist (`IssueStoreError('invalid')`); the API decides
   * who may set what before calling.
   */
  createIssue(input: CreateIssueInput): Promise<IssueRow>;
  /** By repository and per-repository index. */
  getIssue(repoId: number, index: number): Promise<IssueRow | undefined>;
  getIssueById(id: number): Promise<IssueRow | undefined>;
  /**
   * Applies a patch in one transaction, records a `title` timeline entry when the title changes and
   * a `state` entry when the state changes (both by `actorId`, counted in `numComments`), refreshes
   * mentions when title or body change and bumps `updatedUnix` when anything changed.
   * `undefined` when the issue does not exist.
   */
  updateIssue(issueId: number, patch: IssuePatch, actorId: number): Promise<UpdateIssueResult | undefined>;
  /** Users mentioned (`@name`) in the issue's title or body, as stored on write. */
  listMentionedUserIds(issueId: number): Promise<number[]>;
  /** Paged, filtered, sorted issues plus the total matching count. */
  searchIssues(filter: IssueFilter): Promise<IssuePage>;
}

/**
 * Plain comments and the whole timeline of an issue.
 *
 * @example
 * await store.createComment({ issueId: issue.id, posterId: bob.id, body: 'Same here' });
 * (await store.listComments(issue.id)).length; // 1
 */
export interface TimelineStore {
  /** A plain comment; bumps `numComments` and the issue's `updatedUnix`. */
  createComment(input: CreateCommentInput): Promise<CommentRow>;
  /** The whole timeline of an issue, oldest first. */
  listComments(issueId: number): Promise<CommentRow[]>;
}

/**
 * "Blocked by" links between issues.
 *
 * @example
 * await store.addDependency(issue.id, blocker.id);
 * await store.countOpenBlockers(issue.id); // 1
 */
export interface DependencyStore {
  /**
   * Records that `issueId` is blocked by `blockedById`. Throws `IssueStoreError('invalid')` for a
   * self-dependency or an unknown issue, `('conflict')` when it already exists, `('circular')` when
   * `blockedById` is (directly or transitively) blocked by `issueId`.
   */
  addDependency(issueId: number, blockedById: number): Promise<void>;
  removeDependency(issueId: number, blockedById: number): Promise<boolean>;
  /** Issues blocking `issueId`, oldest first. */
  listBlockedBy(issueId: number): Promise<IssueRow[]>;
  /** Issues that `issueId` blocks, oldest first. */
  listBlocking(issueId: number): Promise<IssueRow[]>;
  /** Number of open issues blocking `issueId` (non-zero forbids closing it). */
  countOpenBlockers(issueId: number): Promise<number>;
}

/**
 * Bulk loading of issues (demo data, benchmarks).
 *
 * @example
 * await store.importIssues([{ repoId: repo.id, posterId: alice.id, title: 'Imported' }]); // 1
 */
export interface BulkImportStore {
  /**
   * Bulk load for demo data and benchmarks: multi-row inserts, indexes allocated per repository in
   * input order, in one transaction, mentions parsed as on create. A trusted path: only referential
   * integrity is checked (an unknown id throws `IssueStoreError('invalid')` and nothing is kept), not
   * whether a milestone or label belongs to the issue's repository. Returns the number inserted.
   */
  importIssues(inputs: readonly ImportIssueInput[]): Promise<number>;
}

/** What every store has besides its aggregates: where it lives, transactions and shutdown. */
export interface StoreLifecycle {
  readonly info: StoreInfo;

  /**
   * Runs `fn` in one database transaction: everything it writes through `tx` is committed together,
   * or nothing is when it throws (the error is rethrown). Calls on `tx` inside `fn` join the same
   * transaction; do not use the outer store inside `fn` (on SQLite it would wait for `fn` to end).
   */
  transaction<T>(fn: (tx: IssueStore) => Promise<T>): Promise<T>;

  /** Closes the connection(s). The store is unusable afterwards. */
  close(): Promise<void>;
}

/**
 * The Issues service storage: one small interface per aggregate, combined.
 *
 * @example
 * const store = await createStore(':memory:');
 * const alice = await store.createUser({ name: 'alice', email: 'alice@example.com', password: 's3cret' });
 * const repo = await store.createRepo({ ownerId: alice.id, name: 'proj' });
 * const issue = await store.createIssue({ repoId: repo.id, posterId: alice.id, title: 'Crash on start' });
 * issue.index; // 1
 * await store.close();
 */
export interface IssueStore
  extends StoreLifecycle,
    UserStore,
    AccessTokenStore,
    OrgStore,
    RepoStore,
    LabelStore,
    MilestoneStore,
    IssueRecordStore,
    TimelineStore,
    DependencyStore,
    BulkImportStore {}

/** Error codes of {@link IssueStoreError}, each with an obvious HTTP mapping. */
export type IssueStoreErrorCode =
  /** Unique name taken (409/422). */
  | 'conflict'
  /** Another user has the e-mail address (422 `e-mail already in use`). */
  | 'email_taken'
  /** A referenced row does not exist or a value is out of range (422). */
  | 'invalid'
  /** Closing with open "blocked by" dependencies (412). */
  | 'open_dependencies'
  /** Changing the state of a merged pull request (412). */
  | 'merged'
  /** A dependency would form a cycle (422/412). */
  | 'circular'
  /** A referenced parent (repository, issue) does not exist (404). */
  | 'not_found'
  /** A value is longer than its field holds (`limits.ts`; 422). */
  | 'too_long';

/** The only error a store throws on purpose; anything else is an internal failure (500). */
export class IssueStoreError extends Error {
  override readonly name = 'IssueStoreError';
  constructor(
    readonly code: IssueStoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}
