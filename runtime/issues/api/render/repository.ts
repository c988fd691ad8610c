/**
 * @module
 * Gitea's `Repository`, `RepositoryMeta` and `Organization` JSON.
 */

import { atLeast } from '../../domain/permission.js';
import type { PermissionLevel, RepoRow, UserRow } from '../../store/store.js';
import type { IssuesConfig } from '../config.js';
import { formatTimestamp } from '../time.js';
import { renderUser } from './user.js';
import type { ApiOrganization, ApiRepository, ApiRepositoryMeta } from './wire-types.js';

/** `owner/name` path segment, each part URL-encoded. */
export function repoPath(repo: RepoRow): string {
  return `${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
}

/** The short repository reference inside an issue. */
export function renderRepositoryMeta(repo: RepoRow): ApiRepositoryMeta {
  return { id: repo.id, name: repo.name, owner: repo.ownerName, full_name: `${repo.ownerName}/${repo.name}` };
}

/**
 * Renders a repository as `viewer` (with `permission` on it) sees it.
 *
 * @example
 * renderRepository(repo, owner, 'admin', alice, config).permissions; // { admin: true, push: true, pull: true }
 */
export function renderRepository(
  repo: RepoRow,
  owner: UserRow,
  permission: PermissionLevel,
  viewer: UserRow | null,
  config: IssuesConfig,
): ApiRepository {
  const tz = config.timeZone;
  const html = `${config.publicUrl}${repoPath(repo)}`;
  const host = new URL(config.publicUrl).hostname;
  return {
    id: repo.id,
    owner: renderUser(owner, viewer, config),
    name: repo.name,
    full_name: `${repo.ownerName}/${repo.name}`,
    description: repo.description,
    empty: true,
    private: repo.isPrivate,
    fork: false,
    template: false,
    parent: null,
    mirror: false,
    size: 0,
    language: '',
    languages_url: `${config.publicUrl}api/v1/repos/${repoPath(repo)}/languages`,
    html_url: html,
    url: `${config.publicUrl}api/v1/repos/${repoPath(repo)}`,
    link: '',
    ssh_url: `git@${host}:${repo.ownerName}/${repo.name}.git`,
    clone_url: `${html}.git`,
    original_url: '',
    website: '',
    stars_count: 0,
    forks_count: 0,
    watchers_count: 0,
    open_issues_count: repo.numIssues - repo.numClosedIssues,
    open_pr_counter: repo.numPulls - repo.numClosedPulls,
    release_counter: 0,
    default_branch: 'main',
    archived: repo.isArchived,
    created_at: formatTimestamp(repo.createdUnix, tz),
    updated_at: formatTimestamp(repo.updatedUnix, tz),
    archived_at: formatTimestamp(0, tz),
    permissions: { admin: atLeast(permission, 'admin'), push: atLeast(permission, 'write'), pull: atLeast(permission, 'read') },
    has_issues: true,
    internal_tracker: { enable_time_tracker: false, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true },
    has_wiki: false,
    has_pull_requests: true,
    has_projects: false,
    has_releases: false,
    has_packages: false,
    has_actions: false,
    ignore_whitespace_conflicts: false,
    allow_merge_commits: true,
    allow_rebase: true,
    allow_rebase_explicit: true,
    allow_squash_merge: true,
    allow_fast_forward_only_merge: false,
    allow_rebase_update: true,
    default_delete_branch_after_merge: false,
    default_merge_style: 'merge',
    default_allow_maintainer_edit: false,
    avatar_url: '',
    internal: false,
    mirror_interval: '',
    object_format_name: 'sha1',
    mirror_updated: '0001-01-01T00:00:00Z',
    repo_transfer: null,
    topics: null,
    licenses: null,
  };
}

/** Renders an organization. */
export function renderOrganization(org: UserRow, config: IssuesConfig): ApiOrganization {
  return {
    id: org.id,
    name: org.name,
    full_name: org.fullName,
    email: org.email,
    avatar_url: `${config.publicUrl}avatars/${encodeURIComponent(org.name.toLowerCase())}`,
    description: org.description,
    website: org.website,
    location: org.location,
    visibility: org.visibility,
    repo_admin_change_team_access: false,
    username: org.name,
  };
}
