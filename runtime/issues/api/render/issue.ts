/**
 * @module
 * Gitea's `Issue` JSON for a page of issues: the referenced users, repositories, labels and
 * milestones are loaded in one batch per kind, never once per issue.
 */
import type { IssueRow, IssueStore, LabelRow, MilestoneRow, RepoRow, UserRow } from '../../store/store.js';
import type { IssuesConfig } from '../config.js';
import { formatTimestamp } from '../time.js';
import { renderLabel, renderMilestone } from './label.js';
import { renderRepositoryMeta, repoPath } from './repository.js';
import { renderGhostUser, renderUser } from './user.js';
import type { ApiIssue, ApiLabel, ApiMilestone, ApiUser } from './wire-types.js';

/** Everything an issue's JSON refers to, keyed by id. */
export interface IssueReferences {
  readonly repos: ReadonlyMap<number, RepoRow>;
  readonly users: ReadonlyMap<number, UserRow>;
  readonly labels: ReadonlyMap<number, LabelRow>;
  readonly milestones: ReadonlyMap<number, MilestoneRow>;
}

/**
 * Loads what a set of issues refers to, one query per kind. Repositories the caller already holds
 * (`knownRepos`, e.g. the one a request was addressed to) are not loaded again.
 *
 * @example
 * const refs = await loadIssueReferences(store, page.items, [repo]);
 */
export async function loadIssueReferences(
  store: IssueStore,
  issues: readonly IssueRow[],
  knownRepos: readonly RepoRow[] = [],
): Promise<IssueReferences> {
  const known = new Set(knownRepos.map((repo) => repo.id));
  const repoIds = unique(issues.map((i) => i.repoId)).filter((id) => !known.has(id));
  const labelIds = unique(issues.flatMap((i) => i.labelIds));
  const milestoneIds = unique(issues.flatMap((i) => (i.milestoneId === null ? [] : [i.milestoneId])));
  const userIds = unique(issues.flatMap((i) => [i.posterId, ...i.assigneeIds, ...i.reviewRequestIds]));
  // All four at once (one round trip on PostgreSQL); organization labels, rare, may need their
  // owners in a second query.
  const [loadedRepos, labels, milestones, people] = await Promise.all([
    repoIds.length ? store.getReposByIds(repoIds) : [],
    labelIds.length ? store.getLabelsByIds(labelIds) : [],
    milestoneIds.length ? store.getMilestonesByIds(milestoneIds) : [],
    userIds.length ? store.getUsersByIds(userIds) : [],
  ]);
  const loaded = new Set(people.map((user) => user.id));
  const orgIds = unique(labels.flatMap((l) => (l.orgId === null || loaded.has(l.orgId) ? [] : [l.orgId])));
  const users = orgIds.length ? [...people, ...(await store.getUsersByIds(orgIds))] : people;
  return {
    repos: byId([...knownRepos, ...loadedRepos]),
    users: byId(users),
    labels: byId(labels),
    milestones: byId(milestones),
  };
}

/**
 * Renders one issue from preloaded references.
 *
 * @example
 * const json = renderIssue(row, refs, viewer, config);
 */
export function renderIssue(issue: IssueRow, refs: IssueReferences, viewer: UserRow | null, config: IssuesConfig): ApiIssue {
  const tz = config.timeZone;
  const repo = refs.repos.get(issue.repoId);
  if (!repo) throw new Error(`issue ${issue.id} refers to missing repository ${issue.repoId}`);
  const poster = refs.users.get(issue.posterId);
  // Gitea converts assignees without a viewer, so they always get the anonymous view.
  const assignees = renderUserList(issue.assigneeIds, refs, config);
  const web = `${config.publicUrl}${repoPath(repo)}`;
  return {
    id: issue.id,
    url: `${config.publicUrl}api/v1/repos/${repoPath(repo)}/issues/${issue.index}`,
    html_url: `${web}/${issue.isPull ? 'pulls' : 'issues'}/${issue.index}`,
    number: issue.index,
    user: poster ? renderUser(poster, viewer, config) : renderGhostUser(config),
    original_author: '',
    original_author_id: 0,
    title: issue.title,
    body: issue.body,
    ref: issue.ref,
    assets: [],
    labels: renderIssueLabels(issue, refs, config),
    milestone: renderIssueMilestone(issue, refs, config),
    assignee: assignees[0] ?? null,
    // A Go nil slice: `null`, not `[]`, when there are none.
    assignees: assignees.length ? assignees : null,
    state: issue.state,
    is_locked: issue.isLocked,
    comments: issue.numComments,
    created_at: formatTimestamp(issue.createdUnix, tz),
    updated_at: formatTimestamp(issue.updatedUnix, tz),
    closed_at: issue.closedUnix === null ? null : formatTimestamp(issue.closedUnix, tz),
    due_date: issue.deadlineUnix === null ? null : formatTimestamp(issue.deadlineUnix, tz),
    time_estimate: issue.timeEstimate,
    pull_request:
      issue.isPull && issue.pull
        ? {
            merged: issue.pull.merged,
            merged_at: issue.pull.mergedUnix === null ? null : formatTimestamp(issue.pull.mergedUnix, tz),
            draft: issue.pull.draft,
            html_url: `${web}/pulls/${issue.index}`,
          }
        : null,
    repository: renderRepositoryMeta(repo),
    pin_order: issue.pinOrder,
  };
}

/**
 * Loads references and renders a list of issues, keeping their order; `knownRepos` as in
 * {@link loadIssueReferences}.
 *
 * @example
 * return await renderIssues(store, page.items, caller, config, [repo]);
 */
export async function renderIssues(
  store: IssueStore,
  issues: readonly IssueRow[],
  viewer: UserRow | null,
  config: IssuesConfig,
  knownRepos: readonly RepoRow[] = [],
): Promise<ApiIssue[]> {
  const refs = await loadIssueReferences(store, issues, knownRepos);
  return issues.map((issue) => renderIssue(issue, refs, viewer, config));
}

/** The issue's labels with their repository or organization URLs. */
export function renderIssueLabels(issue: IssueRow, refs: IssueReferences, config: IssuesConfig): ApiLabel[] {
  return issue.labelIds.flatMap((id) => {
    const label = refs.labels.get(id);
    if (!label) return [];
    const org = label.orgId === null ? undefined : refs.users.get(label.orgId);
    const repo = refs.repos.get(issue.repoId)!;
    const ownerPath = org ? `orgs/${encodeURIComponent(org.name)}` : `repos/${repoPath(repo)}`;
    return [renderLabel(label, ownerPath, config)];
  });
}

/** Users of a list of ids as the anonymous view (assignees, reviewers), in the given order. */
export function renderUserList(ids: readonly number[], refs: IssueReferences, config: IssuesConfig): ApiUser[] {
  return ids.flatMap((id) => {
    const user = refs.users.get(id);
    return user ? [renderUser(user, null, config)] : [];
  });
}

/** Renders a milestone reference of an issue, or `null`. */
export function renderIssueMilestone(issue: IssueRow, refs: IssueReferences, config: IssuesConfig): ApiMilestone | null {
  const milestone = issue.milestoneId === null ? undefined : refs.milestones.get(issue.milestoneId);
  return milestone ? renderMilestone(milestone, config) : null;
}

function unique(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}

function byId<T extends { readonly id: number }>(rows: readonly T[]): Map<number, T> {
  return new Map(rows.map((row) => [row.id, row]));
}
