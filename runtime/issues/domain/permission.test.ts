/** @module Permission levels and the repository access rule. */

import { describe, expect, it } from 'vitest';
import { atLeast, isPermissionLevel, type PermissionFacts, resolvePermission, strongest } from './permission.js';

const facts = (over: Partial<PermissionFacts>): PermissionFacts => ({
  repoExists: true,
  isPrivate: false,
  ownerVisibility: 'public',
  viewerId: 7,
  viewerIsAdmin: false,
  viewerIsOwner: false,
  viewerIsOrgOwner: false,
  collaborator: null,
  ...over,
});

describe('permissions', () => {
  it('orders levels', () => {
    expect(atLeast('admin', 'write')).toBe(true);
    expect(atLeast('read', 'write')).toBe(false);
    expect(strongest('read', 'write')).toBe('write');
    expect(isPermissionLevel('write')).toBe(true);
    expect(isPermissionLevel('toString')).toBe(false);
  });

  it('resolves Gitea-like repository access', () => {
    expect(resolvePermission(facts({ repoExists: false, viewerIsAdmin: true }))).toBe('none');
    expect(resolvePermission(facts({ viewerId: null }))).toBe('read');
    expect(resolvePermission(facts({ viewerId: null, isPrivate: true }))).toBe('none');
    expect(resolvePermission(facts({ isPrivate: true }))).toBe('none');
    expect(resolvePermission(facts({ isPrivate: true, collaborator: 'read' }))).toBe('read');
    expect(resolvePermission(facts({ collaborator: 'write' }))).toBe('write');
    expect(resolvePermission(facts({ isPrivate: true, viewerIsOwner: true }))).toBe('admin');
    expect(resolvePermission(facts({ isPrivate: true, viewerIsOrgOwner: true }))).toBe('admin');
    expect(resolvePermission(facts({ isPrivate: true, viewerIsAdmin: true }))).toBe('admin');
  });

  it('hides repositories of limited owners from anonymous callers and of private owners from non-members', () => {
    // A limited owner: signed-in users read its public repositories, anonymous callers do not.
    expect(resolvePermission(facts({ ownerVisibility: 'limited', viewerId: null }))).toBe('none');
    expect(resolvePermission(facts({ ownerVisibility: 'limited' }))).toBe('read');
    expect(resolvePermission(facts({ ownerVisibility: 'limited', isPrivate: true }))).toBe('none');
    // A private owner: only its members (and the owner itself), collaborators and site admins.
    expect(resolvePermission(facts({ ownerVisibility: 'private', viewerId: null }))).toBe('none');
    expect(resolvePermission(facts({ ownerVisibility: 'private' }))).toBe('none');
    expect(resolvePermission(facts({ ownerVisibility: 'private', viewerIsOrgOwner: true }))).toBe('admin');
    expect(resolvePermission(facts({ ownerVisibility: 'private', viewerIsOwner: true }))).toBe('admin');
    expect(resolvePermission(facts({ ownerVisibility: 'private', viewerIsAdmin: true }))).toBe('admin');
    expect(resolvePermission(facts({ ownerVisibility: 'private', collaborator: 'read' }))).toBe('read');
    expect(resolvePermission(facts({ ownerVisibility: 'private', isPrivate: true, collaborator: 'write' }))).toBe('write');
  });
});
