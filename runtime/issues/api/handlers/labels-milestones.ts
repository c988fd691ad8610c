/**
 * @module
 * Labels and milestones of a repository: create (writers) and list (readers).
 */
import type { Context } from 'hono';
import type { RestResponse } from '../../../rest/response.js';
import { canWrite, getCaller, loadRepo, requireCaller, requireScope } from '../access.js';
import type {
  IssueCreateLabelInput,
  IssueCreateMilestoneInput,
  IssueGetMilestonesListInput,
  IssueListLabelsInput,
} from '../contract-shapes.js';
import { forbidden, validationError } from '../errors.js';
import { pageOffset, resolvePage } from '../pagination.js';
import { stateFilter } from '../query.js';
import { renderLabel, renderMilestone } from '../render/label.js';
import { repoPath } from '../render/repository.js';
import type { ApiLabel, ApiMilestone } from '../render/wire-types.js';
import { parseRfc3339 } from '../time.js';
import { assertNotArchived } from './issue-write.js';
import { type IssuesServices, pagedResponse } from './services.js';
import { mapStoreErrors } from './store-errors.js';

/** `POST /repos/{owner}/{repo}/labels`: 201 Label. */
export async function createLabel(s: IssuesServices, input: IssueCreateLabelInput, c: Context): Promise<ApiLabel> {
  const { repo } = await writableRepo(s, input.owner, input.repo, c);
  const name = input.body.name.trim();
  if (name === '') throw validationError('[Name]: Required');
  const color = input.body.color.trim();
  if (!/^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(color))
    throw validationError(`[Color]: invalid color ${JSON.stringify(input.body.color)}`);
  const label = await mapStoreErrors(
    () =>
      s.store.createLabel({
        repoId: repo.id,
        name,
        color,
        description: input.body.description ?? '',
        exclusive: input.body.exclusive ?? false,
      }),
    { conflict: [422, `label already exists [name: ${name}]`], invalid: [422] },
  );
  return renderLabel(label, `repos/${repoPath(repo)}`, s.config);
}

/** `GET /repos/{owner}/{repo}/labels`: 200 LabelList with `X-Total-Count`. */
export async function listLabels(s: IssuesServices, input: IssueListLabelsInput, c: Context): Promise<RestResponse> {
  const caller = getCaller(c);
  requireScope(caller, 'issue', 'read');
  const { repo } = await loadRepo(s.store, input.owner, input.repo, caller);
  const labels = await s.store.listLabels(repo.id);
  const page = resolvePage(input.page, input.limit, { defaultLimit: s.config.defaultPagingNum, maxLimit: s.config.maxResponseItems });
  const start = pageOffset(page);
  const items = labels.slice(start, start + page.limit).map((l) => renderLabel(l, `repos/${repoPath(repo)}`, s.config));
  return pagedResponse(c, s.config, items, labels.length, page, { link: false });
}

/** `POST /repos/{owner}/{repo}/milestones`: 201 Milestone. */
export async function createMilestone(s: IssuesServices, input: IssueCreateMilestoneInput, c: Context): Promise<ApiMilestone> {
  const { repo } = await writableRepo(s, input.owner, input.repo, c);
  const title = (input.body.title ?? '').trim();
  if (title === '') throw validationError('[Title]: Required');
  let deadlineUnix: number | null = null;
  if (input.body.due_on != null) {
    const parsed = parseRfc3339(input.body.due_on);
    if (!parsed) throw validationError(`[Deadline]: invalid date-time ${JSON.stringify(input.body.due_on)}`);
    deadlineUnix = parsed.unix;
  }
  const milestone = await mapStoreErrors(
    () =>
      s.store.createMilestone({
        repoId: repo.id,
        title,
        description: input.body.description ?? '',
        state: input.body.state === 'closed' ? 'closed' : 'open',
        deadlineUnix,
      }),
    { conflict: [422, `milestone already exists [title: ${title}]`], invalid: [422] },
  );
  return renderMilestone(milestone, s.config);
}

/** `GET /repos/{owner}/{repo}/milestones`: 200 MilestoneList with paging headers. */
export async function listMilestones(s: IssuesServices, input: IssueGetMilestonesListInput, c: Context): Promise<RestResponse> {
  const caller = getCaller(c);
  requireScope(caller, 'issue', 'read');
  const { repo } = await loadRepo(s.store, input.owner, input.repo, caller);
  const needle = (input.name ?? '').toLowerCase();
  const all = (await s.store.listMilestones(repo.id, stateFilter(input.state))).filter(
    (m) => needle === '' || m.title.toLowerCase().includes(needle),
  );
  const page = resolvePage(input.page, input.limit, { defaultLimit: s.config.defaultPagingNum, maxLimit: s.config.maxResponseItems });
  const start = pageOffset(page);
  return pagedResponse(
    c,
    s.config,
    all.slice(start, start + page.limit).map((m) => renderMilestone(m, s.config)),
    all.length,
    page,
  );
}

/** A repository the caller may write issues in (401 anonymous, 403 reader, 423 archived). */
async function writableRepo(s: IssuesServices, owner: string, name: string, c: Context) {
  const caller0 = getCaller(c);
  requireScope(caller0, 'issue', 'write');
  const access = await loadRepo(s.store, owner, name, caller0);
  requireCaller(c);
  if (!canWrite(access.permission)) throw forbidden('user should have a permission to write to a repo');
  assertNotArchived(access.repo);
  return access;
}
