/**
 * @module
 * The setup endpoints: users (admin), access tokens (Basic auth), the current user,
 * organizations, repositories (for the caller or an organization) and collaborators.
 */
import type { Context } from 'hono';
import type { RepoRow, UserRow, Visibility } from '../../store/store.js';
import { getCaller, loadRepo, requireCaller, requireScope, SCOPE_CATEGORIES } from '../access.js';
import type {
  AdminCreateUserInput,
  CreateCurrentUserRepoInput,
  CreateOrgRepoInput,
  CreateRepoOption,
  OrgCreateInput,
  RepoAddCollaboratorInput,
  UserCreateTokenInput,
} from '../contract-shapes.js';
import { forbidden, GiteaError, notFound, unauthorized, validationError } from '../errors.js';
import { renderOrganization, renderRepository } from '../render/repository.js';
import { renderUser } from '../render/user.js';
import type { ApiAccessToken, ApiOrganization, ApiRepository, ApiUser } from '../render/wire-types.js';
import { formatTimestamp } from '../time.js';
import type { IssuesServices } from './services.js';
import { mapStoreErrors } from './store-errors.js';

/** Gitea's user-name rule: letters, digits, `-`, `_`, `.`; no leading/trailing or doubled punctuation. */
const USER_NAME = /^[A-Za-z0-9]([A-Za-z0-9_.-]*[A-Za-z0-9])?$/;
/** Gitea's repository-name rule (`[-.\w]+`, not `.` or `..`). */
const REPO_NAME = /^[A-Za-z0-9_.-]+$/;
const EMAIL = /^[^\s@<>",;]+@[^\s@<>",;]+$/;

/** `POST /admin/users`: 201 User; site administrators only. */
export async function adminCreateUser(s: IssuesServices, input: AdminCreateUserInput, c: Context): Promise<ApiUser> {
  const caller = requireCaller(c);
  requireScope(caller, 'admin', 'write');
  if (!caller.user.isAdmin) throw forbidden('user should be the site admin');
  const form = input.body;
  const name = checkUserName(form.username, 'Username');
  if (!EMAIL.test(form.email)) throw validationError('[Email]: Email');
  const user = await mapStoreErrors(
    () =>
      s.store.createUser({
        name,
        email: form.email,
        password: form.password || undefined,
        fullName: form.full_name ?? '',
        visibility: visibility(form.visibility),
      }),
    {
      conflict: [422, `user already exists [name: ${name}]`],
      // Gitea's `ErrEmailAlreadyUsed`, answered 422 by its admin handler.
      email_taken: [422, `e-mail already in use [email: ${form.email}]`],
      invalid: [422],
    },
  );
  return renderUser(user, caller.user, s.config);
}

/** `POST /users/{username}/tokens`: 201 AccessToken; needs Basic auth as that user (or an admin). */
export async function userCreateToken(s: IssuesServices, input: UserCreateTokenInput, c: Context): Promise<ApiAccessToken> {
  const caller = getCaller(c);
  if (!caller || (caller.method !== 'basic-password' && caller.method !== 'basic-token')) throw unauthorized('auth required');
  const target = await s.store.findUserByName(input.username);
  if (target?.type !== 'user') throw notFound();
  if (target.id !== caller.user.id && !caller.user.isAdmin) throw forbidden('you are not allowed to create tokens for another user');
  const name = input.body.name.trim();
  if (name === '') throw validationError('[Name]: Required');
  const scopes = normalizeScopes(input.body.scopes ?? []);
  const created = await mapStoreErrors(() => s.store.createAccessToken({ userId: target.id, name, scopes }), {
    conflict: [400, 'access token name has been used already'],
    invalid: [400],
  });
  const tz = s.config.timeZone;
  return {
    id: created.row.id,
    name: created.row.name,
    sha1: created.token,
    token_last_eight: created.row.tokenLastEight,
    scopes: [...created.row.scopes],
    created_at: formatTimestamp(created.row.createdUnix, tz),
    last_used_at: formatTimestamp(created.row.updatedUnix, tz),
  };
}

/** `GET /user`: 200 the authenticated user. */
export async function userGetCurrent(s: IssuesServices, c: Context): Promise<ApiUser> {
  const caller = requireCaller(c);
  requireScope(caller, 'user', 'read');
  return renderUser(caller.user, caller.user, s.config);
}

/** `POST /orgs`: 201 Organization, owned by the caller. */
export async function orgCreate(s: IssuesServices, input: OrgCreateInput, c: Context): Promise<ApiOrganization> {
  const caller = requireCaller(c);
  requireScope(caller, 'organization', 'write');
  const form = input.body;
  const name = checkUserName(form.username, 'UserName');
  const org = await mapStoreErrors(
    () =>
      s.store.createOrg({
        name,
        ownerId: caller.user.id,
        fullName: form.full_name ?? '',
        email: form.email ?? '',
        description: form.description ?? '',
        website: form.website ?? '',
        location: form.location ?? '',
        visibility: visibility(form.visibility),
      }),
    { conflict: [422, `user already exists [name: ${name}]`], invalid: [422] },
  );
  return renderOrganization(org, s.config);
}

/** `POST /user/repos`: 201 Repository owned by the caller. */
export async function createCurrentUserRepo(s: IssuesServices, input: CreateCurrentUserRepoInput, c: Context): Promise<ApiRepository> {
  const caller = requireCaller(c);
  requireScope(caller, 'repository', 'write');
  return createRepoFor(s, caller.user, caller.user, input.body);
}

/** `POST /orgs/{org}/repos`: 201 Repository owned by the organization; org owners and admins only. */
export async function createOrgRepo(s: IssuesServices, input: CreateOrgRepoInput, c: Context): Promise<ApiRepository> {
  const caller = requireCaller(c);
  requireScope(caller, 'organization', 'write');
  const org = await s.store.findUserByName(input.org);
  if (org?.type !== 'org') throw notFound();
  if (!caller.user.isAdmin && !(await s.store.isOrgOwner(org.id, caller.user.id))) {
    throw forbidden(`Given user is not allowed to create repository in organization ${org.name}.`);
  }
  return createRepoFor(s, org, caller.user, input.body);
}

/** `PUT /repos/{owner}/{repo}/collaborators/{collaborator}`: 204; repository admins only. */
export async function repoAddCollaborator(s: IssuesServices, input: RepoAddCollaboratorInput, c: Context): Promise<void> {
  const caller0 = getCaller(c);
  requireScope(caller0, 'repository', 'write');
  const { repo, permission } = await loadRepo(s.store, input.owner, input.repo, caller0);
  requireCaller(c);
  if (permission !== 'admin') throw forbidden('user should be an owner or a collaborator with admin write of a repository');
  const user = await s.store.findUserByName(input.collaborator);
  if (user?.type !== 'user') throw validationError(`user does not exist [name: ${input.collaborator}]`);
  if (user.id === repo.ownerId) throw validationError('the repository owner cannot be a collaborator');
  const level = input.body?.permission ?? 'write';
  if (level !== 'read' && level !== 'write' && level !== 'admin') throw validationError('[Permission]: invalid permission');
  await s.store.setCollaborator(repo.id, user.id, level);
}

async function createRepoFor(s: IssuesServices, owner: UserRow, viewer: UserRow, form: CreateRepoOption): Promise<ApiRepository> {
  const name = form.name.trim();
  if (!REPO_NAME.test(name) || name === '.' || name === '..' || name.length > 100) throw validationError('[Name]: invalid repository name');
  const repo: RepoRow = await mapStoreErrors(
    () => s.store.createRepo({ ownerId: owner.id, name, description: form.description ?? '', isPrivate: form.private ?? false }),
    { conflict: [409, 'The repository with the same name already exists.'], invalid: [422] },
  );
  return renderRepository(repo, owner, 'admin', viewer, s.config);
}

function checkUserName(value: string, field: string): string {
  const name = value.trim();
  if (name === '') throw validationError(`[${field}]: Required`);
  if (name.length > 40 || !USER_NAME.test(name) || /[_.-]{2}/.test(name)) throw validationError(`[${field}]: invalid user name`);
  return name;
}

function visibility(value: string | null | undefined): Visibility {
  if (value == null || value === '') return 'public';
  if (value === 'public' || value === 'limited' || value === 'private') return value;
  throw validationError(`[Visibility]: invalid visibility ${JSON.stringify(value)}`);
}

/**
 * Gitea's scope rules for new tokens: at least one scope; each `all`, `public-only` or
 * `read:`/`write:` of a known category.
 */
function normalizeScopes(scopes: readonly string[]): string[] {
  const flat = scopes
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const scope of flat) {
    const [level, category] = scope.split(':');
    const ok =
      scope === 'all' ||
      scope === 'public-only' ||
      ((level === 'read' || level === 'write') && (SCOPE_CATEGORIES as readonly string[]).includes(category ?? ''));
    if (!ok) throw new GiteaError(400, `invalid access token scope provided: ${scope}`);
  }
  if (flat.filter((s) => s !== 'public-only').length === 0) throw new GiteaError(400, 'access token must have a scope');
  return [...new Set(flat)];
}
