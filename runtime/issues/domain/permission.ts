/**
 * @module Repository permission levels and how they compare: the storage-level vocabulary of
 * access that both the store's resolver and the HTTP layer's checks speak.
 */

/** Access to a repository, weakest first (Gitea's `AccessMode` none/read/write/admin). */
export type PermissionLevel = 'none' | 'read' | 'write' | 'admin';

const RANK: Readonly<Record<PermissionLevel, number>> = { none: 0, read: 1, write: 2, admin: 3 };

/**
 * Whether `actual` grants at least `required`.
 *
 * @example
 * atLeast('admin', 'write'); // true
 * atLeast('read', 'write');  // false
 */
export function atLeast(actual: PermissionLevel, required: PermissionLevel): boolean {
  return RANK[actual] >= RANK[required];
}

/**
 * The stronger of two levels.
 *
 * @example
 * strongest('read', 'write'); // 'write'
 */
export function strongest(a: PermissionLevel, b: PermissionLevel): PermissionLevel {
  return RANK[a] >= RANK[b] ? a : b;
}

/** Type guard for values read from storage or requests. */
export function isPermissionLevel(value: unknown): value is PermissionLevel {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

/**
 * Visibility of the repository's owner, user or organization (Gitea's `VisibleType`): `limited`
 * owners show themselves to signed-in users only, `private` ones to their members only.
 */
export type OwnerVisibility = 'public' | 'limited' | 'private';

/** What the store knows about a viewer and a repository when resolving a permission. */
export interface PermissionFacts {
  readonly repoExists: boolean;
  readonly isPrivate: boolean;
  readonly ownerVisibility: OwnerVisibility;
  /** `null` for an anonymous viewer. */
  readonly viewerId: number | null;
  readonly viewerIsAdmin: boolean;
  readonly viewerIsOwner: boolean;
  /** The repository belongs to an organization the viewer owns (Loom's only organization members). */
  readonly viewerIsOrgOwner: boolean;
  /** The viewer's collaborator permission, when they are one. */
  readonly collaborator: PermissionLevel | null;
}

/**
 * Whether the viewer may see the repository's owner at all (Gitea's `HasOrgOrUserVisible`):
 * anyone sees a public owner, signed-in users a limited one, and a private one is seen by site
 * admins, the owner itself and (for an organization) its members only.
 */
function ownerVisible(facts: PermissionFacts): boolean {
  if (facts.ownerVisibility === 'public') return true;
  if (facts.viewerId === null) return false;
  if (facts.viewerIsAdmin || facts.viewerIsOwner || facts.viewerIsOrgOwner) return true;
  return facts.ownerVisibility === 'limited';
}

/**
 * Gitea's permission rules (`GetUserRepoPermission`) reduced to what the Issues service models:
 * site admins, owners and organization owners administer; a repository whose owner the viewer may
 * not see (a private owner for non-members, a limited one for anonymous callers) gives nothing,
 * unless the viewer collaborates on it; collaborators get their level (at least `read` on a public
 * repository); everyone else reads public repositories and sees nothing of private ones.
 *
 * @example
 * resolvePermission({ repoExists: true, isPrivate: true, ownerVisibility: 'public', viewerId: 7, viewerIsAdmin: false,
 *   viewerIsOwner: false, viewerIsOrgOwner: false, collaborator: 'write' }); // 'write'
 */
export function resolvePermission(facts: PermissionFacts): PermissionLevel {
  if (!facts.repoExists) return 'none';
  // Gitea lets a collaborator in even where the owner is hidden from them.
  if (!ownerVisible(facts) && !(facts.viewerId !== null && facts.collaborator)) return 'none';
  const base: PermissionLevel = facts.isPrivate ? 'none' : 'read';
  if (facts.viewerId === null) return base;
  if (facts.viewerIsAdmin || facts.viewerIsOwner || facts.viewerIsOrgOwner) return 'admin';
  return facts.collaborator ? strongest(base, facts.collaborator) : base;
}
