/**
 * @module The organizations and repositories of the SQL store: owners, collaborators and the
 * permission of a viewer, resolved by `resolvePermission` from facts one query gathers.
 */

import { type OwnerVisibility, type PermissionLevel, resolvePermission } from '../../domain/permission.js';
import { checkLength } from '../limits.js';
import {
  type CollaboratorPermission,
  type CollaboratorRow,
  type CreateOrgInput,
  type CreateRepoInput,
  IssueStoreError,
  type OrgStore,
  type RepoRow,
  type RepoStore,
  type RepoWithPermission,
  type UserRow,
  type VisibilityOptions,
} from '../store.js';
import { and, raw, type SqlFragment, sql } from './fragment.js';
import { bool, type DbRow, num, toCollaborator, toRepo, toUser } from './row-mappers.js';
import { SqlAggregate, unique } from './sql-session.js';
import { checkName, checkProfile, SqlUsers, USER_COLUMNS } from './sql-users.js';

const REPO_SELECT_HEAD = raw('SELECT r.*, u.name AS owner_name, u.type AS owner_type');
const REPO_FROM = raw('FROM repos r JOIN users u ON u.id = r.owner_id');
const REPO_SELECT = sql`${REPO_SELECT_HEAD} ${REPO_FROM}`;

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
 * Organizations, repositories, collaborators and permissions.
 *
 * @example
 * const repos = new SqlRepos(session);
 * const repo = await repos.createRepo({ ownerId: alice.id, name: 'proj' });
 */
export class SqlRepos extends SqlAggregate implements OrgStore, RepoStore {
  /** The users' part on the same session (organizations are user rows). */
  private get users(): SqlUsers {
    return new SqlUsers(this.s);
  }

  async createOrg(input: CreateOrgInput): Promise<UserRow> {
    const name = checkName('organization', input.name);
    checkProfile(input);
    const now = this.now();
    return this.atomic((tx) =>
      tx.guard(`organization ${name}`, async () => {
        const row = await tx.first(sql`
          INSERT INTO users (name, lower_name, type, full_name, email, is_admin,
            description, website, location, visibility, created_unix, updated_unix)
          VALUES (${name}, ${name.toLowerCase()}, 'org', ${input.fullName ?? ''}, ${input.email ?? ''}, ${false},
            ${input.description ?? ''}, ${input.website ?? ''}, ${input.location ?? ''}, ${input.visibility ?? 'public'}, ${now}, ${now})
          RETURNING id`);
        const orgId = num(row!.id);
        await tx.db.run(sql`INSERT INTO org_owners (org_id, user_id) VALUES (${orgId}, ${input.ownerId})`);
        return (await tx.users.getUserById(orgId))!;
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

  async createRepo(input: CreateRepoInput): Promise<RepoRow> {
    const name = checkName('repository', input.name);
    checkLength('repoDescription', input.description, 'repository description');
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
    const viewer = viewerId === null ? undefined : await this.users.getUserById(viewerId);
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
        WHERE u.lower_name = ${ownerName.toLowerCase()}
        AND r.lower_name = ${repoName.toLowerCase()}`,
    );
    return row && { repo: toRepo(row), permission: permissionOf(row, viewerId) };
  }
}
