/**
 * @module
 * Issue dependencies ("blocked by"): add one and list an issue's blockers.
 */
import type { Context } from 'hono';
import { atLeast } from '../../domain/permission.js';
import { canWrite, getCaller, isPublicOnly, loadRepo, requireCaller, requireScope } from '../access.js';
import type { IssueCreateIssueDependenciesInput, IssueListIssueDependenciesInput } from '../contract-shapes.js';
import { forbidden, notFound } from '../errors.js';
import { pageOffset, resolvePage } from '../pagination.js';
import { renderIssues } from '../render/issue.js';
import type { ApiIssue } from '../render/wire-types.js';
import type { IssuesServices } from './services.js';
import { mapStoreErrors } from './store-errors.js';

/**
 * `POST /repos/{owner}/{repo}/issues/{index}/dependencies`: makes the issue `{index}` blocked by
 * the issue named in the body (`owner`/`repo` default to the path's). 201 with the blocked issue.
 */
export async function createDependency(s: IssuesServices, input: IssueCreateIssueDependenciesInput, c: Context): Promise<ApiIssue> {
  const caller0 = getCaller(c);
  requireScope(caller0, 'issue', 'write');
  const { repo, permission } = await loadRepo(s.store, input.owner, input.repo, caller0);
  const caller = requireCaller(c);
  const target = await s.store.getIssue(repo.id, parseIndex(input.index));
  if (!target) throw notFound();
  if (!canWrite(permission)) throw forbidden('user should have a permission to write to a repo');
  const depOwner = input.body.owner || input.owner;
  const depRepoName = input.body.repo || input.repo;
  const depRepo = await loadRepo(s.store, depOwner, depRepoName, caller);
  const dependency = input.body.index == null ? undefined : await s.store.getIssue(depRepo.repo.id, input.body.index);
  if (!dependency) throw notFound();
  await mapStoreErrors(() => s.store.addDependency(target.id, dependency.id), {
    invalid: [422, 'an issue cannot depend on itself'],
    conflict: [422, 'dependency already exists'],
    circular: [422, 'circular dependencies are not allowed'],
    not_found: [404, 'not found'],
  });
  const fresh = (await s.store.getIssueById(target.id)) ?? target;
  const [json] = await renderIssues(s.store, [fresh], caller.user, s.config);
  return json!;
}

/** `GET /repos/{owner}/{repo}/issues/{index}/dependencies`: the issues blocking `{index}` that the caller may see. */
export async function listDependencies(s: IssuesServices, input: IssueListIssueDependenciesInput, c: Context): Promise<ApiIssue[]> {
  const caller = getCaller(c);
  requireScope(caller, 'issue', 'read');
  const { repo } = await loadRepo(s.store, input.owner, input.repo, caller);
  const issue = await s.store.getIssue(repo.id, parseIndex(input.index));
  if (!issue) throw notFound();
  const blockers = await s.store.listBlockedBy(issue.id);
  const visible = [];
  for (const blocker of blockers) {
    const repoOfBlocker = await s.store.getRepoById(blocker.repoId);
    if (!repoOfBlocker || (repoOfBlocker.isPrivate && isPublicOnly(caller))) continue;
    if (atLeast(await s.store.getPermission(blocker.repoId, caller?.user.id ?? null), 'read')) visible.push(blocker);
  }
  const page = resolvePage(input.page, input.limit, { defaultLimit: s.config.defaultPagingNum, maxLimit: s.config.maxResponseItems });
  const start = pageOffset(page);
  return renderIssues(s.store, visible.slice(start, start + page.limit), caller?.user ?? null, s.config);
}

/** Gitea declares `{index}` of these routes as a string; anything but a positive integer finds nothing. */
function parseIndex(text: string | number): number {
  const value = typeof text === 'number' ? text : /^\d{1,15}$/.test(text) ? Number(text) : 0;
  return value;
}
