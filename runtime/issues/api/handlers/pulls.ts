/**
 * @module
 * Pull requests, as far as the issue API needs them: creating an issue that is a pull request
 * (so `type=pulls` and `review_requested` have data) and requesting reviews. Loom stores no git
 * data: `head` and `base` are echoed, not checked against branches.
 */
import type { Context } from 'hono';
import { atLeast } from '../../domain/permission.js';
import type { IssueRow, RepoRow, UserRow } from '../../store/store.js';
import { canWrite, getCaller, loadRepo, requireCaller, requireScope } from '../access.js';
import type { RepoCreatePullRequestInput, RepoCreatePullReviewRequestsInput } from '../contract-shapes.js';
import { forbidden, GiteaError, notFound, validationError } from '../errors.js';
import { loadIssueReferences, renderIssueLabels, renderIssueMilestone, renderUserList } from '../render/issue.js';
import { renderRepository, repoPath } from '../render/repository.js';
import { renderGhostUser, renderUser } from '../render/user.js';
import type { ApiPullRequest, ApiPullReview } from '../render/wire-types.js';
import { formatTimestamp } from '../time.js';
import { assigneeNames } from './assignees.js';
import { assertNotArchived, requireTitle, writerFields } from './issue-write.js';
import type { IssuesServices } from './services.js';

/** `POST /repos/{owner}/{repo}/pulls`: 201 PullRequest. */
export async function createPullRequest(s: IssuesServices, input: RepoCreatePullRequestInput, c: Context): Promise<ApiPullRequest> {
  const caller0 = getCaller(c);
  requireScope(caller0, 'repository', 'write');
  const { repo, permission } = await loadRepo(s.store, input.owner, input.repo, caller0);
  const caller = requireCaller(c);
  assertNotArchived(repo);
  const form = input.body;
  const title = requireTitle(form.title);
  const head = form.head?.trim() || '';
  const base = form.base?.trim() || 'main';
  if (head === '') throw new GiteaError(422, '[Head]: Required');
  const writer = canWrite(permission);
  const extra = writer ? await writerFields(s, repo, form) : {};
  const reviewRequestIds = writer ? await resolveReviewers(s, repo, caller.user, assigneeNames(undefined, form.reviewers)) : [];
  const issue = await s.store.createIssue({
    repoId: repo.id,
    posterId: caller.user.id,
    title,
    body: form.body ?? '',
    ref: `refs/heads/${head}`,
    pull: { merged: false, draft: false, mergedUnix: null },
    reviewRequestIds,
    ...extra,
  });
  return renderPullRequest(s, issue, repo, caller.user, { head, base });
}

/** `POST /repos/{owner}/{repo}/pulls/{index}/requested_reviewers`: 201 with the new review requests. */
export async function createReviewRequests(
  s: IssuesServices,
  input: RepoCreatePullReviewRequestsInput,
  c: Context,
): Promise<ApiPullReview[]> {
  const caller0 = getCaller(c);
  requireScope(caller0, 'repository', 'write');
  const { repo, permission } = await loadRepo(s.store, input.owner, input.repo, caller0);
  const caller = requireCaller(c);
  const issue = await s.store.getIssue(repo.id, input.index);
  if (!issue?.isPull) throw notFound();
  if (!canWrite(permission) && issue.posterId !== caller.user.id) throw forbidden('user should have a permission to write to a repo');
  if ((input.body.team_reviewers ?? []).length > 0) throw new GiteaError(422, 'team reviewers are not supported: Loom has no teams');
  const ids = await resolveReviewers(s, repo, caller.user, assigneeNames(undefined, input.body.reviewers));
  const added = ids.filter((id) => !issue.reviewRequestIds.includes(id));
  const updated = await s.store.updateIssue(issue.id, { reviewRequestIds: [...issue.reviewRequestIds, ...added] }, caller.user.id);
  const users = await s.store.getUsersByIds(added);
  const now = formatTimestamp(updated?.issue.updatedUnix ?? issue.updatedUnix, s.config.timeZone);
  const pullUrl = `${s.config.publicUrl}${repoPath(repo)}/pulls/${issue.index}`;
  return added.map((id) => {
    const user = users.find((u) => u.id === id);
    return {
      // Loom keeps review requests as a set of users, without review records of their own.
      id: 0,
      user: user ? renderUser(user, caller.user, s.config) : null,
      team: null,
      state: 'REQUEST_REVIEW',
      body: '',
      commit_id: '',
      stale: false,
      official: false,
      dismissed: false,
      comments_count: 0,
      submitted_at: now,
      updated_at: now,
      html_url: pullUrl,
      pull_request_url: pullUrl,
    };
  });
}

/**
 * Reviewer names → ids, checked as Gitea's `isValidReviewRequest` checks them: each name must be
 * an existing account (404 otherwise, as Gitea answers an unknown reviewer), a person rather than
 * an organization, and able to read the repository (422 otherwise: a review request would show a
 * private repository's pull request to someone who cannot see it).
 */
async function resolveReviewers(s: IssuesServices, repo: RepoRow, doer: UserRow, names: readonly string[]): Promise<number[]> {
  if (names.length === 0) return [];
  const users = await s.store.findUsersByNames(names);
  const ids: number[] = [];
  for (const name of names) {
    const user = users.find((u) => u.name.toLowerCase() === name.toLowerCase());
    if (!user) throw new GiteaError(404, `user does not exist [name: ${name}]`);
    const refused = (reason: string) => validationError(`${reason} [user_id: ${doer.id}, repo_id: ${repo.id}]`);
    if (user.type !== 'user') throw refused("Organization can't be added as reviewer");
    if (!atLeast(await s.store.getPermission(repo.id, user.id), 'read')) throw refused("Reviewer can't read");
    ids.push(user.id);
  }
  return ids;
}

async function renderPullRequest(
  s: IssuesServices,
  issue: IssueRow,
  repo: RepoRow,
  viewer: UserRow,
  branches: { head: string; base: string },
): Promise<ApiPullRequest> {
  const fresh = (await s.store.getIssueById(issue.id)) ?? issue;
  const refs = await loadIssueReferences(s.store, [fresh]);
  const tz = s.config.timeZone;
  const owner = (await s.store.getUserById(repo.ownerId))!;
  const permission = await s.store.getPermission(repo.id, viewer.id);
  const repoJson = renderRepository(repo, owner, permission, viewer, s.config);
  const web = `${s.config.publicUrl}${repoPath(repo)}/pulls/${fresh.index}`;
  const poster = refs.users.get(fresh.posterId);
  const assignees = renderUserList(fresh.assigneeIds, refs, s.config);
  const reviewers = renderUserList(fresh.reviewRequestIds, refs, s.config);
  const branch = (ref: string) => ({ label: ref, ref, sha: '', repo_id: repo.id, repo: repoJson });
  return {
    id: fresh.id,
    url: web,
    number: fresh.index,
    user: poster ? renderUser(poster, viewer, s.config) : renderGhostUser(s.config),
    title: fresh.title,
    body: fresh.body,
    labels: renderIssueLabels(fresh, refs, s.config),
    milestone: renderIssueMilestone(fresh, refs, s.config),
    assignee: assignees[0] ?? null,
    assignees: assignees.length ? assignees : null,
    requested_reviewers: reviewers.length ? reviewers : null,
    requested_reviewers_teams: null,
    state: fresh.state,
    draft: fresh.pull?.draft ?? false,
    is_locked: fresh.isLocked,
    comments: fresh.numComments,
    review_comments: 0,
    additions: 0,
    deletions: 0,
    changed_files: 0,
    html_url: web,
    diff_url: `${web}.diff`,
    patch_url: `${web}.patch`,
    mergeable: false,
    merged: fresh.pull?.merged ?? false,
    merged_at: fresh.pull?.mergedUnix ? formatTimestamp(fresh.pull.mergedUnix, tz) : null,
    merge_commit_sha: null,
    merged_by: null,
    allow_maintainer_edit: false,
    base: branch(branches.base),
    head: branch(branches.head),
    merge_base: '',
    due_date: fresh.deadlineUnix === null ? null : formatTimestamp(fresh.deadlineUnix, tz),
    created_at: formatTimestamp(fresh.createdUnix, tz),
    updated_at: formatTimestamp(fresh.updatedUnix, tz),
    closed_at: fresh.closedUnix === null ? null : formatTimestamp(fresh.closedUnix, tz),
    pin_order: fresh.pinOrder,
  };
}
