/**
 * @module The `IssueStore` written once in SQL that both SQLite and PostgreSQL run, composed of one
 * part per aggregate: users and tokens (`sql-users.ts`), organizations and repositories
 * (`sql-repos.ts`), labels and milestones (`sql-labels.ts`), issues (`sql-issues.ts`, with the
 * search planner in `issue-search.ts`), comments and dependencies (`sql-timeline.ts`) and the bulk
 * import (`sql-import.ts`). Engine differences come in through `SqlDialect` (a handful of
 * overrides) and `SqlDriver` (placeholders, connections, transactions); nothing here asks which
 * engine it is talking to.
 */

import type { PermissionLevel } from '../../domain/permission.js';
import type {
  AccessTokenRow,
  CollaboratorPermission,
  CollaboratorRow,
  CommentRow,
  CreateAccessTokenInput,
  CreateCommentInput,
  CreatedAccessToken,
  CreateIssueInput,
  CreateLabelInput,
  CreateMilestoneInput,
  CreateOrgInput,
  CreateRepoInput,
  CreateUserInput,
  ImportIssueInput,
  IssueFilter,
  IssuePage,
  IssuePatch,
  IssueRow,
  IssueStateFilter,
  IssueStore,
  LabelRow,
  MilestoneRow,
  RepoRow,
  RepoWithPermission,
  StoreInfo,
  UpdateIssueResult,
  UpdateMilestoneInput,
  UserRow,
  VisibilityOptions,
} from '../store.js';
import type { SqlDialect } from './sql-dialect.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';
import { SqlImport } from './sql-import.js';
import { SqlIssues } from './sql-issues.js';
import { SqlLabels } from './sql-labels.js';
import { SqlRepos } from './sql-repos.js';
import { SqlSession } from './sql-session.js';
import { SqlTimeline } from './sql-timeline.js';
import { SqlUsers } from './sql-users.js';

/** Options shared by both engines. */
export interface SqlStoreOptions {
  /** The clock, in Unix seconds; tests pin it. @default the system clock */
  readonly now?: () => number;
}

/**
 * The shared SQL `IssueStore`: each method is its aggregate's. Create it through an engine's
 * `openXxxStore`, not directly.
 *
 * @example
 * const store = new SqlStore(driver, driver, sqliteDialect, { engine: 'sqlite', location: path, schemaVersion }, {});
 */
export class SqlStore implements IssueStore {
  private readonly session: SqlSession;
  private readonly users: SqlUsers;
  private readonly repos: SqlRepos;
  private readonly labels: SqlLabels;
  private readonly issues: SqlIssues;
  private readonly timeline: SqlTimeline;
  private readonly bulk: SqlImport;

  constructor(
    driver: SqlDriver,
    db: SqlExecutor,
    dialect: SqlDialect,
    readonly info: StoreInfo,
    options: SqlStoreOptions,
    inTransaction = false,
  ) {
    this.session = new SqlSession(driver, db, dialect, options.now ?? (() => Math.floor(Date.now() / 1000)), inTransaction);
    this.users = new SqlUsers(this.session);
    this.repos = new SqlRepos(this.session);
    this.labels = new SqlLabels(this.session);
    this.issues = new SqlIssues(this.session);
    this.timeline = new SqlTimeline(this.session);
    this.bulk = new SqlImport(this.session);
  }

  transaction<T>(fn: (tx: IssueStore) => Promise<T>): Promise<T> {
    const s = this.session;
    return s.atomic((tx) => fn(tx === s ? this : new SqlStore(s.driver, tx.db, s.dialect, this.info, { now: s.now }, true)));
  }

  async close(): Promise<void> {
    if (this.session.inTransaction) throw new Error('close() inside a transaction');
    await this.session.driver.close();
  }

  // ── users and access tokens ─────────────────────────────────────────────

  createUser(input: CreateUserInput): Promise<UserRow> {
    return this.users.createUser(input);
  }
  findUserByName(name: string): Promise<UserRow | undefined> {
    return this.users.findUserByName(name);
  }
  getUserById(id: number): Promise<UserRow | undefined> {
    return this.users.getUserById(id);
  }
  getUsersByIds(ids: readonly number[]): Promise<UserRow[]> {
    return this.users.getUsersByIds(ids);
  }
  findUsersByNames(names: readonly string[]): Promise<UserRow[]> {
    return this.users.findUsersByNames(names);
  }
  verifyPassword(name: string, password: string): Promise<UserRow | undefined> {
    return this.users.verifyPassword(name, password);
  }
  countUsers(): Promise<number> {
    return this.users.countUsers();
  }
  setPassword(userId: number, password: string): Promise<void> {
    return this.users.setPassword(userId, password);
  }
  createAccessToken(input: CreateAccessTokenInput): Promise<CreatedAccessToken> {
    return this.users.createAccessToken(input);
  }
  findAccessToken(token: string): Promise<{ readonly user: UserRow; readonly token: AccessTokenRow } | undefined> {
    return this.users.findAccessToken(token);
  }
  listAccessTokens(userId: number): Promise<AccessTokenRow[]> {
    return this.users.listAccessTokens(userId);
  }
  deleteAccessToken(userId: number, tokenId: number): Promise<boolean> {
    return this.users.deleteAccessToken(userId, tokenId);
  }

  // ── organizations and repositories ──────────────────────────────────────

  createOrg(input: CreateOrgInput): Promise<UserRow> {
    return this.repos.createOrg(input);
  }
  addOrgOwner(orgId: number, userId: number): Promise<void> {
    return this.repos.addOrgOwner(orgId, userId);
  }
  isOrgOwner(orgId: number, userId: number): Promise<boolean> {
    return this.repos.isOrgOwner(orgId, userId);
  }
  listOrgsOwnedBy(userId: number): Promise<UserRow[]> {
    return this.repos.listOrgsOwnedBy(userId);
  }
  createRepo(input: CreateRepoInput): Promise<RepoRow> {
    return this.repos.createRepo(input);
  }
  findRepo(ownerName: string, repoName: string): Promise<RepoRow | undefined> {
    return this.repos.findRepo(ownerName, repoName);
  }
  getRepoById(id: number): Promise<RepoRow | undefined> {
    return this.repos.getRepoById(id);
  }
  getReposByIds(ids: readonly number[]): Promise<RepoRow[]> {
    return this.repos.getReposByIds(ids);
  }
  listReposByOwner(ownerId: number): Promise<RepoRow[]> {
    return this.repos.listReposByOwner(ownerId);
  }
  setRepoArchived(repoId: number, archived: boolean): Promise<void> {
    return this.repos.setRepoArchived(repoId, archived);
  }
  listVisibleRepoIds(viewerId: number | null, options?: VisibilityOptions): Promise<number[]> {
    return this.repos.listVisibleRepoIds(viewerId, options);
  }
  setCollaborator(repoId: number, userId: number, permission: CollaboratorPermission): Promise<void> {
    return this.repos.setCollaborator(repoId, userId, permission);
  }
  removeCollaborator(repoId: number, userId: number): Promise<boolean> {
    return this.repos.removeCollaborator(repoId, userId);
  }
  listCollaborators(repoId: number): Promise<CollaboratorRow[]> {
    return this.repos.listCollaborators(repoId);
  }
  getPermission(repoId: number, viewerId: number | null): Promise<PermissionLevel> {
    return this.repos.getPermission(repoId, viewerId);
  }
  findRepoWithPermission(ownerName: string, repoName: string, viewerId: number | null): Promise<RepoWithPermission | undefined> {
    return this.repos.findRepoWithPermission(ownerName, repoName, viewerId);
  }

  // ── labels and milestones ───────────────────────────────────────────────

  createLabel(input: CreateLabelInput): Promise<LabelRow> {
    return this.labels.createLabel(input);
  }
  listLabels(repoId: number): Promise<LabelRow[]> {
    return this.labels.listLabels(repoId);
  }
  listOrgLabels(orgId: number): Promise<LabelRow[]> {
    return this.labels.listOrgLabels(orgId);
  }
  getLabelsByIds(ids: readonly number[]): Promise<LabelRow[]> {
    return this.labels.getLabelsByIds(ids);
  }
  filterApplicableLabelIds(repoId: number, ids: readonly number[]): Promise<number[]> {
    return this.labels.filterApplicableLabelIds(repoId, ids);
  }
  createMilestone(input: CreateMilestoneInput): Promise<MilestoneRow> {
    return this.labels.createMilestone(input);
  }
  updateMilestone(id: number, input: UpdateMilestoneInput): Promise<MilestoneRow | undefined> {
    return this.labels.updateMilestone(id, input);
  }
  listMilestones(repoId: number, state?: IssueStateFilter): Promise<MilestoneRow[]> {
    return this.labels.listMilestones(repoId, state);
  }
  getMilestone(id: number): Promise<MilestoneRow | undefined> {
    return this.labels.getMilestone(id);
  }
  getMilestonesByIds(ids: readonly number[]): Promise<MilestoneRow[]> {
    return this.labels.getMilestonesByIds(ids);
  }
  findMilestoneByName(repoId: number, title: string): Promise<MilestoneRow | undefined> {
    return this.labels.findMilestoneByName(repoId, title);
  }

  // ── issues ──────────────────────────────────────────────────────────────

  createIssue(input: CreateIssueInput): Promise<IssueRow> {
    return this.issues.createIssue(input);
  }
  getIssue(repoId: number, index: number): Promise<IssueRow | undefined> {
    return this.issues.getIssue(repoId, index);
  }
  getIssueById(id: number): Promise<IssueRow | undefined> {
    return this.issues.getIssueById(id);
  }
  updateIssue(issueId: number, patch: IssuePatch, actorId: number): Promise<UpdateIssueResult | undefined> {
    return this.issues.updateIssue(issueId, patch, actorId);
  }
  listMentionedUserIds(issueId: number): Promise<number[]> {
    return this.issues.listMentionedUserIds(issueId);
  }
  searchIssues(filter: IssueFilter): Promise<IssuePage> {
    return this.issues.searchIssues(filter);
  }
  importIssues(inputs: readonly ImportIssueInput[]): Promise<number> {
    return this.bulk.importIssues(inputs);
  }

  // ── comments and dependencies ───────────────────────────────────────────

  createComment(input: CreateCommentInput): Promise<CommentRow> {
    return this.timeline.createComment(input);
  }
  listComments(issueId: number): Promise<CommentRow[]> {
    return this.timeline.listComments(issueId);
  }
  addDependency(issueId: number, blockedById: number): Promise<void> {
    return this.timeline.addDependency(issueId, blockedById);
  }
  removeDependency(issueId: number, blockedById: number): Promise<boolean> {
    return this.timeline.removeDependency(issueId, blockedById);
  }
  listBlockedBy(issueId: number): Promise<IssueRow[]> {
    return this.timeline.listBlockedBy(issueId);
  }
  listBlocking(issueId: number): Promise<IssueRow[]> {
    return this.timeline.listBlocking(issueId);
  }
  countOpenBlockers(issueId: number): Promise<number> {
    return this.timeline.countOpenBlockers(issueId);
  }
}
