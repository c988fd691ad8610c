/**
 * @module
 * Resolving user names sent as assignees or reviewers: every name must exist (422 otherwise)
 * and be assignable, i.e. have write access to the repository (Gitea's `CanBeAssigned`).
 */
import { atLeast } from '../../domain/permission.js';
import type { RepoRow, UserRow } from '../../store/store.js';
import { validationError } from '../errors.js';
import type { IssuesServices } from './services.js';

/**
 * Gitea's assignee set: `assignees` plus the deprecated single `assignee`, without duplicates,
 * in the order given.
 *
 * @example
 * assigneeNames('bob', ['carol', 'bob']); // ['carol', 'bob']
 */
export function assigneeNames(assignee: string | null | undefined, assignees: readonly string[] | null | undefined): string[] {
  const names = [...(assignees ?? []), ...(assignee ? [assignee] : [])].filter((n) => n !== '');
  const seen = new Set<string>();
  return names.filter((n) => !seen.has(n.toLowerCase()) && seen.add(n.toLowerCase()));
}

/**
 * Looks the names up and checks that each may be assigned in `repo`; returns their ids in order.
 *
 * @example
 * await resolveAssignees(s, repo, ['bob']); // [2], or 422 "Assignee does not exist: [name: bob]"
 */
export async function resolveAssignees(s: IssuesServices, repo: RepoRow, names: readonly string[]): Promise<number[]> {
  if (names.length === 0) return [];
  const users = await s.store.findUsersByNames(names);
  const byName = new Map<string, UserRow>(users.map((u) => [u.name.toLowerCase(), u]));
  const ids: number[] = [];
  for (const name of names) {
    const user = byName.get(name.toLowerCase());
    if (user?.type !== 'user') throw validationError(`Assignee does not exist: [name: ${name}]`);
    const permission = await s.store.getPermission(repo.id, user.id);
    if (!atLeast(permission, 'write')) {
      throw validationError(`user does not have access to this repository [user: ${user.name}, repo: ${repo.ownerName}/${repo.name}]`);
    }
    ids.push(user.id);
  }
  return ids;
}
