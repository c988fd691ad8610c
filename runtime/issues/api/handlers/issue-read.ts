/**
 * @module
 * The read operations: search across repositories, list one repository's issues, get one issue.
 * Each is split in two: `load…` does the permission checks and every store call in order and
 * returns the rows with what they refer to; the handler renders that to Gitea's JSON. The Issues
 * benchmark calls the `load…` functions directly as its database-only baseline.
 */
import type { Context } from 'hono';
import type { RestResponse } from '../../../rest/response.js';
import type { IssueFilter, IssuePage } from '../../store/store.js';
import { getCaller, isPublicOnly, loadRepo, requireScope } from '../access.js';
import type { Caller } from '../auth.js';
import type { IssueGetIssueInput, IssueListIssuesInput, IssueSearchIssuesInput } from '../contract-shapes.js';
import { GiteaError, notFound } from '../errors.js';
import { resolvePage } from '../pagination.js';
import { commaList, dateParam, normalizeKeyword, stateFilter, typeFilter } from '../query.js';
import { loadIssueReferences, renderIssue } from '../render/issue.js';
import type { ApiIssue } from '../render/wire-types.js';
import { type IssuesServices, type LoadedIssue, type LoadedIssuePage, pagedResponse } from './services.js';

/** `GET /repos/issues/search`. */
export async function searchIssues(s: IssuesServices, input: IssueSearchIssuesInput, c: Context): Promise<RestResponse> {
  const caller = getCaller(c);
  return renderPage(s, c, caller, await loadSearchIssues(s, caller, input));
}

/**
 * The data of `GET /repos/issues/search`: the visible repositories, the (ranked) search and the
 * references of the page.
 *
 * @example
 * const { issues, total } = await loadSearchIssues(s, null, { q: 'crash', limit: 20 });
 */
export async function loadSearchIssues(s: IssuesServices, caller: Caller | null, input: IssueSearchIssuesInput): Promise<LoadedIssuePage> {
  requireScope(caller, 'issue', 'read');
  const since = dateParam('since', input.since);
  const before = dateParam('before', input.before);
  const page = resolvePage(input.page, input.limit, { defaultLimit: s.config.issuePagingNum, maxLimit: s.config.maxResponseItems });
  let ownerId: number | undefined;
  if (input.owner) {
    const owner = await s.store.findUserByName(input.owner);
    if (!owner) throw new GiteaError(400, `user does not exist [name: ${input.owner}]`);
    ownerId = owner.id;
  }
  if (input.team) {
    // Loom has no teams; Gitea answers an unknown team (or one without owner) with 400 too.
    throw new GiteaError(
      400,
      ownerId === undefined ? 'Owner organisation is required for filtering on team' : `team does not exist [name: ${input.team}]`,
    );
  }
  const repoIds = await s.store.listVisibleRepoIds(caller?.user.id ?? null, { publicOnly: isPublicOnly(caller), ownerId });
  const me = caller?.user.id;
  // The personal filters apply only to a signed-in caller; anonymous callers get them ignored.
  const personal: Partial<IssueFilter> =
    me === undefined
      ? {}
      : {
          ...(input.assigned ? { assigneeId: me } : {}),
          ...(input.created ? { posterId: me } : {}),
          ...(input.mentioned ? { mentionedId: me } : {}),
          ...(input.reviewRequested ? { reviewRequestedId: me } : {}),
        };
  const labels = commaList(input.labels);
  const milestones = commaList(input.milestones);
  const filter: IssueFilter = {
    repoIds,
    state: stateFilter(input.state),
    type: typeFilter(input.type),
    labels,
    milestones,
    since,
    before,
    priorityRepoId: input.priorityRepoId,
    ...personal,
    page: page.page,
    limit: page.limit,
  };
  let result: IssuePage;
  if (me !== undefined && input.reviewed) {
    // Loom records review requests but no submitted reviews: nothing has been reviewed by anyone.
    result = { items: [], total: 0 };
  } else {
    const fallback = labels !== undefined || milestones !== undefined;
    result = await searchWithKeyword(s, filter, normalizeKeyword(input.q), async () => fallback);
  }
  return { issues: result.items, refs: await loadIssueReferences(s.store, result.items), total: result.total, page };
}

/** `GET /repos/{owner}/{repo}/issues`. */
export async function listIssues(s: IssuesServices, input: IssueListIssuesInput, c: Context): Promise<RestResponse> {
  const caller = getCaller(c);
  return renderPage(s, c, caller, await loadListIssues(s, caller, input));
}

/**
 * The data of `GET /repos/{owner}/{repo}/issues`: the repository and permission, the user filters,
 * the search and the references of the page.
 *
 * @example
 * const { issues } = await loadListIssues(s, caller, { owner: 'alice', repo: 'proj', state: 'open' });
 */
export async function loadListIssues(s: IssuesServices, caller: Caller | null, input: IssueListIssuesInput): Promise<LoadedIssuePage> {
  requireScope(caller, 'issue', 'read');
  const { repo } = await loadRepo(s.store, input.owner, input.repo, caller);
  const since = dateParam('since', input.since);
  const before = dateParam('before', input.before);
  const userFilter = async (name: string | undefined) => {
    if (name === undefined || name === '') return undefined;
    const user = await s.store.findUserByName(name);
    if (!user) throw notFound();
    return user.id;
  };
  const posterId = await userFilter(input.createdBy);
  const assigneeId = await userFilter(input.assignedBy);
  const mentionedId = await userFilter(input.mentionedBy);
  const page = resolvePage(input.page, input.limit, { defaultLimit: s.config.defaultPagingNum, maxLimit: s.config.maxResponseItems });
  const labels = commaList(input.labels);
  // The Issues API's rule (docs/issues.md): with a keyword that matches nothing, a matching label keeps the list alive.
  // Asked only then, so that a plain labelled list does not pay for a query it never reads.
  const hasMatchingLabel = async () =>
    labels !== undefined && (await repoHasAnyLabel(s, repo.id, repo.ownerType === 'org' ? repo.ownerId : undefined, labels));
  const filter: IssueFilter = {
    repoIds: [repo.id],
    state: stateFilter(input.state),
    type: typeFilter(input.type),
    labels,
    milestones: commaList(input.milestones),
    milestoneIdsAllowed: true,
    since,
    before,
    posterId,
    assigneeId,
    mentionedId,
    page: page.page,
    limit: page.limit,
  };
  const result = await searchWithKeyword(s, filter, normalizeKeyword(input.q), hasMatchingLabel);
  return { issues: result.items, refs: await loadIssueReferences(s.store, result.items, [repo]), total: result.total, page };
}

/** `GET /repos/{owner}/{repo}/issues/{index}`. */
export async function getIssue(s: IssuesServices, input: IssueGetIssueInput, c: Context): Promise<ApiIssue> {
  const caller = getCaller(c);
  const { issue, refs } = await loadGetIssue(s, caller, input);
  return renderIssue(issue, refs, caller?.user ?? null, s.config);
}

/**
 * The data of `GET /repos/{owner}/{repo}/issues/{index}`: the repository and permission, the
 * issue and its references.
 *
 * @example
 * const { issue } = await loadGetIssue(s, caller, { owner: 'alice', repo: 'proj', index: 1 });
 */
export async function loadGetIssue(s: IssuesServices, caller: Caller | null, input: IssueGetIssueInput): Promise<LoadedIssue> {
  requireScope(caller, 'issue', 'read');
  const { repo } = await loadRepo(s.store, input.owner, input.repo, caller);
  const issue = await s.store.getIssue(repo.id, input.index);
  if (!issue) throw notFound();
  return { issue, refs: await loadIssueReferences(s.store, [issue], [repo]) };
}

function renderPage(s: IssuesServices, c: Context, caller: Caller | null, loaded: LoadedIssuePage): RestResponse {
  const viewer = caller?.user ?? null;
  const rendered = loaded.issues.map((issue) => renderIssue(issue, loaded.refs, viewer, s.config));
  return pagedResponse(c, s.config, rendered, loaded.total, loaded.page);
}

/**
 * Runs a filter with the keyword; when the keyword matches nothing and `fallback()` holds (labels or
 * milestones were asked for), Gitea drops the keyword condition instead of answering empty.
 */
async function searchWithKeyword(
  s: IssuesServices,
  filter: IssueFilter,
  keyword: string | undefined,
  fallback: () => Promise<boolean>,
): Promise<IssuePage> {
  if (keyword === undefined) return s.store.searchIssues(filter);
  const ranked = await s.store.searchIssues({ ...filter, keyword, sort: 'relevance' });
  if (ranked.total > 0 || !(await fallback())) return ranked;
  const anyMatch = await s.store.searchIssues({
    ...filter,
    keyword,
    state: 'all',
    type: 'all',
    labels: undefined,
    milestones: undefined,
    posterId: undefined,
    assigneeId: undefined,
    mentionedId: undefined,
    reviewRequestedId: undefined,
    since: undefined,
    before: undefined,
    page: 1,
    limit: 1,
  });
  return anyMatch.total > 0 ? ranked : s.store.searchIssues(filter);
}

async function repoHasAnyLabel(s: IssuesServices, repoId: number, orgId: number | undefined, names: readonly string[]): Promise<boolean> {
  const own = await s.store.listLabels(repoId);
  const org = orgId === undefined ? [] : await s.store.listOrgLabels(orgId);
  const wanted = new Set(names);
  return [...own, ...org].some((label) => wanted.has(label.name));
}
