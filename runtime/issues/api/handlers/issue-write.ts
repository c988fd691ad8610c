/**
 * @module
 * The write operations on issues: create, edit (PATCH) and set deadline, with the Issues API's
 * permission rules (writer-only fields silently ignored for others, the poster may edit),
 * deadline normalisation and the 412 for closing an issue with open dependencies.
 */
import type { Context } from 'hono';
import type { IssuePatch, IssueRow, RepoRow, UpdateIssueResult, UserRow } from '../../store/store.js';
import { canWrite, getCaller, loadRepo, requireCaller, requireScope, requireSignedIn } from '../access.js';
import type { Caller } from '../auth.js';
import type { CreateIssueOption, IssueCreateIssueInput, IssueEditIssueDeadlineInput, IssueEditIssueInput } from '../contract-shapes.js';
import { forbidden, forbiddenEmpty, GiteaError, notFound, validationError } from '../errors.js';
import { loadIssueReferences, renderIssue } from '../render/issue.js';
import type { ApiIssue, ApiIssueDeadline } from '../render/wire-types.js';
import {
  endOfDayInOwnOffset,
  endOfDayInZone,
  formatTimestamp,
  isRenderableYear,
  isZeroOrEpoch,
  isZeroTime,
  parseRfc3339,
} from '../time.js';
import { assigneeNames, resolveAssignees } from './assignees.js';
import { isStorableId } from './input-guard.js';
import type { IssuesServices, LoadedIssue } from './services.js';
import { mapStoreErrors } from './store-errors.js';

const OPEN_DEPENDENCIES_ON_CREATE = 'cannot close this issue because it still has open dependencies';
const OPEN_DEPENDENCIES = 'cannot close this issue or pull request because it still has open dependencies';
const MERGED = 'cannot change state of this pull request, it was already merged';

/** `POST /repos/{owner}/{repo}/issues`: 201 with the reloaded issue. */
export async function createIssue(s: IssuesServices, input: IssueCreateIssueInput, c: Context): Promise<ApiIssue> {
  const caller = getCaller(c);
  const { issue, refs } = await createIssueAndLoad(s, caller, input);
  return renderIssue(issue, refs, requireSignedIn(caller).user, s.config);
}

/**
 * The data work of `POST /repos/{owner}/{repo}/issues`: the repository and permission, the
 * writer-only fields, the insert (and the close when asked) and the references of the new issue.
 * The Issues benchmark calls it directly as its database-only baseline.
 *
 * @example
 * const { issue } = await createIssueAndLoad(s, caller, { owner: 'alice', repo: 'proj', body: { title: 'Crash' } });
 */
export async function createIssueAndLoad(s: IssuesServices, caller0: Caller | null, input: IssueCreateIssueInput): Promise<LoadedIssue> {
  requireScope(caller0, 'issue', 'write');
  // Gitea resolves the repository before asking for a token: anonymous on a private repo gets 404.
  const { repo, permission } = await loadRepo(s.store, input.owner, input.repo, caller0);
  const caller = requireSignedIn(caller0);
  assertNotArchived(repo);
  const form = input.body;
  const title = requireTitle(form.title);
  const writer = canWrite(permission);
  const extra = writer ? await writerFields(s, repo, form) : {};
  const created = await s.store.createIssue({
    repoId: repo.id,
    posterId: caller.user.id,
    title,
    body: form.body ?? '',
    ref: form.ref ?? '',
    ...extra,
  });
  if (form.closed === true) {
    // Closed after creation, as Gitea does, so the close is on the timeline and on the bus; open
    // dependencies answer 412 while the issue stays created (and open).
    const result = await applyPatch(s, repo, created, { state: 'closed' }, caller.user, OPEN_DEPENDENCIES_ON_CREATE);
    // Reloaded: subscribers of the state event may have changed the issue meanwhile.
    return reload(s, result.issue);
  }
  // The store read the row back inside the creating transaction, and nothing has published an
  // event since, so it is what a reload would return; rendering it directly saves four queries.
  return { issue: created, refs: await loadIssueReferences(s.store, [created], [repo]) };
}

/** `PATCH /repos/{owner}/{repo}/issues/{index}`: 201 with the reloaded issue. */
export async function editIssue(s: IssuesServices, input: IssueEditIssueInput, c: Context): Promise<ApiIssue> {
  const caller0 = getCaller(c);
  requireScope(caller0, 'issue', 'write');
  const { repo, permission } = await loadRepo(s.store, input.owner, input.repo, caller0);
  const caller = requireCaller(c);
  const issue = await s.store.getIssue(repo.id, input.index);
  if (!issue) throw notFound();
  const writer = canWrite(permission);
  if (!writer && issue.posterId !== caller.user.id) throw forbiddenEmpty();
  // Gitea (Go) decodes a JSON `null` as an absent option, and its Go SDK and `tea` send `null` for
  // every option they leave out (`"state":null,"due_date":null,…`): `!= null` below reads both alike.
  const form = input.body ?? {};
  const patch: { -readonly [K in keyof IssuePatch]: IssuePatch[K] } = {};
  const title = typeof form.title === 'string' ? form.title.trim() : '';
  if (title !== '') patch.title = title;
  if (typeof form.body === 'string') patch.body = form.body;
  if (typeof form.ref === 'string') patch.ref = form.ref;
  if (writer) {
    // Everything is validated before anything is written, so a rejected PATCH changes nothing.
    if (form.due_date != null || form.unset_due_date != null) {
      if (form.unset_due_date === true) {
        patch.deadlineUnix = null;
      } else {
        // Only `unset_due_date: false` without a date gets here (Gitea's rule).
        if (form.due_date == null) throw new GiteaError(400, 'The due_date cannot be empty');
        const parsed = parseDate('DueDate', form.due_date);
        patch.deadlineUnix = isZeroTime(parsed) ? null : checkDeadline(endOfDayInOwnOffset(parsed), s.config.timeZone);
      }
    }
    if (form.assignees != null || form.assignee != null) {
      patch.assigneeIds = await resolveAssignees(s, repo, assigneeNames(form.assignee, form.assignees));
    }
    if (form.milestone != null && form.milestone !== (issue.milestoneId ?? 0)) {
      patch.milestoneId = form.milestone === 0 ? null : await milestoneOfRepo(s, repo, form.milestone);
    }
  }
  if (form.state != null) {
    // The Issues API's rule (docs/issues.md): `closed` closes, any other value opens.
    patch.state = form.state === 'closed' ? 'closed' : 'open';
  }
  const result = await applyPatch(s, repo, issue, patch, caller.user, OPEN_DEPENDENCIES);
  return renderOne(s, result.issue, caller.user);
}

/** `POST /repos/{owner}/{repo}/issues/{index}/deadline`: 201 `{ due_date }`. */
export async function editIssueDeadline(s: IssuesServices, input: IssueEditIssueDeadlineInput, c: Context): Promise<ApiIssueDeadline> {
  const caller0 = getCaller(c);
  requireScope(caller0, 'issue', 'write');
  const { repo, permission } = await loadRepo(s.store, input.owner, input.repo, caller0);
  const caller = requireCaller(c);
  const issue = await s.store.getIssue(repo.id, input.index);
  if (!issue) throw notFound();
  if (!canWrite(permission)) throw forbidden('Not repo writer');
  const value = input.body.due_date;
  let deadline: number | null = null;
  if (value !== null && value !== undefined) {
    const parsed = parseDate('DueDate', value);
    // The Issues API's rule (docs/issues.md): 23:59:59 of the given date in the server's time zone.
    deadline = isZeroOrEpoch(parsed) ? null : checkDeadline(endOfDayInZone(parsed, s.config.timeZone), s.config.timeZone);
  }
  await applyPatch(s, repo, issue, { deadlineUnix: deadline }, caller.user, OPEN_DEPENDENCIES);
  // Gitea answers a removal with the Unix epoch, not null.
  return { due_date: formatTimestamp(deadline ?? 0, s.config.timeZone) };
}

/**
 * Writes a patch through the store, maps its refusals to Gitea's 412s and publishes the
 * title/state events it recorded.
 */
export async function applyPatch(
  s: IssuesServices,
  repo: RepoRow,
  issue: IssueRow,
  patch: IssuePatch,
  actor: UserRow,
  openDependenciesMessage: string,
): Promise<UpdateIssueResult> {
  const result = await mapStoreErrors(() => s.store.updateIssue(issue.id, patch, actor.id), {
    open_dependencies: [412, openDependenciesMessage],
    merged: [412, MERGED],
    invalid: [422],
  });
  if (!result) throw notFound();
  for (const comment of result.events) {
    if (comment.type === 'title') {
      s.events.publish('issue.title_changed', {
        repo,
        issue: result.issue,
        actor,
        comment,
        oldTitle: comment.oldValue ?? '',
        newTitle: comment.newValue ?? '',
      });
    } else if (comment.type === 'state') {
      s.events.publish('issue.state_changed', {
        repo,
        issue: result.issue,
        actor,
        comment,
        oldState: comment.oldValue === 'closed' ? 'closed' : 'open',
        newState: comment.newValue === 'closed' ? 'closed' : 'open',
      });
    }
  }
  return result;
}

/** The fields only writers may set on create (labels, milestone, deadline, assignees). */
export async function writerFields(
  s: IssuesServices,
  repo: RepoRow,
  form: Pick<CreateIssueOption, 'assignee' | 'assignees' | 'due_date' | 'labels' | 'milestone'>,
): Promise<{ assigneeIds?: number[]; labelIds?: number[]; milestoneId?: number | null; deadlineUnix?: number | null }> {
  const assigneeIds = await resolveAssignees(s, repo, assigneeNames(form.assignee, form.assignees));
  const candidates = (form.labels ?? []).filter(isStorableId);
  const labelIds = candidates.length ? await s.store.filterApplicableLabelIds(repo.id, candidates) : [];
  let milestoneId: number | null = null;
  if (form.milestone != null && isStorableId(form.milestone)) {
    // Unknown or foreign milestones are dropped silently, as in Gitea.
    const milestone = await s.store.getMilestone(form.milestone);
    milestoneId = milestone && milestone.repoId === repo.id ? milestone.id : null;
  }
  let deadlineUnix: number | null = null;
  if (form.due_date != null) {
    const parsed = parseDate('DueDate', form.due_date);
    // The Issues API's rule (docs/issues.md): only the date counts; the day ends at 23:59:59 in the value's own offset.
    deadlineUnix = isZeroTime(parsed) ? null : checkDeadline(endOfDayInOwnOffset(parsed), s.config.timeZone);
  }
  return { assigneeIds, labelIds, milestoneId, deadlineUnix };
}

/** The trimmed title, or 422 `[Title]: Required`. */
export function requireTitle(title: string | null | undefined): string {
  const trimmed = typeof title === 'string' ? title.trim() : '';
  if (trimmed === '') throw validationError('[Title]: Required');
  return trimmed;
}

/** 423 for writes into an archived repository. */
export function assertNotArchived(repo: RepoRow): void {
  if (repo.isArchived) throw new GiteaError(423, `repo ${repo.ownerName}/${repo.name} is archived`);
}

async function milestoneOfRepo(s: IssuesServices, repo: RepoRow, id: number): Promise<number> {
  const milestone = isStorableId(id) ? await s.store.getMilestone(id) : undefined;
  if (!milestone || milestone.repoId !== repo.id) throw validationError(`milestone does not exist [id: ${id}]`);
  return milestone.id;
}

function parseDate(field: string, value: string) {
  const parsed = parseRfc3339(value);
  if (!parsed) throw validationError(`[${field}]: invalid date-time ${JSON.stringify(value)}`);
  return parsed;
}

/**
 * A deadline as stored, or 422 when it would not render in the server's zone with a year from
 * 0001 to 9999 (see `isRenderableYear`): Go's JSON encoder refuses later years, so Gitea cannot
 * answer with them, and JS and Go clients cannot parse them.
 */
function checkDeadline(unix: number, timeZone: string): number {
  if (!isRenderableYear(unix, timeZone)) throw validationError('[DueDate]: the deadline must fall between the years 0001 and 9999');
  return unix;
}

/** The issue as stored now, with its references. */
async function reload(s: IssuesServices, issue: IssueRow): Promise<LoadedIssue> {
  const fresh = (await s.store.getIssueById(issue.id)) ?? issue;
  return { issue: fresh, refs: await loadIssueReferences(s.store, [fresh]) };
}

async function renderOne(s: IssuesServices, issue: IssueRow, viewer: UserRow): Promise<ApiIssue> {
  const { issue: fresh, refs } = await reload(s, issue);
  return renderIssue(fresh, refs, viewer, s.config);
}
