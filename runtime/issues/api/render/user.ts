/**
 * @module
 * Gitea's `User` JSON, with its privacy rules: the real email only for signed-in viewers, the
 * private fields only for the user themself and admins, and the ghost user for a deleted poster.
 */
import type { UserRow } from '../../store/store.js';
import type { IssuesConfig } from '../config.js';
import { formatTimestamp, ZERO_TIME } from '../time.js';
import type { ApiUser } from './wire-types.js';

/** Gitea's stand-in for a deleted user (`user_model.NewGhostUser`). */
export const GHOST_USER_ID = -1;

/**
 * Renders a user as `viewer` may see it (`null`: anonymous, as Gitea renders assignees).
 *
 * @example
 * renderUser(alice, null, config).email; // 'alice@noreply.localhost'
 */
export function renderUser(user: UserRow, viewer: UserRow | null, config: IssuesConfig): ApiUser {
  const privileged = viewer !== null && (viewer.isAdmin || viewer.id === user.id);
  return {
    id: user.id,
    login: user.name,
    login_name: '',
    source_id: 0,
    full_name: user.fullName,
    // Gitea's DEFAULT_KEEP_EMAIL_PRIVATE is false, so any signed-in viewer sees the address.
    email: viewer !== null ? user.email : noReplyAddress(user.name, config),
    avatar_url: `${config.publicUrl}avatars/${encodeURIComponent(user.name.toLowerCase())}`,
    html_url: `${config.publicUrl}${encodeURIComponent(user.name)}`,
    language: '',
    is_admin: privileged ? user.isAdmin : false,
    last_login: privileged && user.lastLoginUnix !== null ? formatTimestamp(user.lastLoginUnix, config.timeZone) : ZERO_TIME,
    created: formatTimestamp(user.createdUnix, config.timeZone),
    restricted: false,
    active: privileged,
    prohibit_login: false,
    location: user.location,
    website: user.website,
    description: user.description,
    visibility: user.visibility,
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    username: user.name,
  };
}

/** The ghost user shown in place of a deleted poster. */
export function renderGhostUser(config: IssuesConfig): ApiUser {
  return {
    id: GHOST_USER_ID,
    login: 'Ghost',
    login_name: '',
    source_id: 0,
    full_name: 'Ghost',
    email: noReplyAddress('ghost', config),
    avatar_url: `${config.publicUrl}assets/img/avatar_default.png`,
    html_url: `${config.publicUrl}Ghost`,
    language: '',
    is_admin: false,
    last_login: ZERO_TIME,
    created: ZERO_TIME,
    restricted: false,
    active: false,
    prohibit_login: false,
    location: '',
    website: '',
    description: '',
    visibility: 'public',
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    username: 'Ghost',
  };
}

/** `name@noreply.<host>`, Gitea's placeholder for hidden addresses. */
function noReplyAddress(name: string, config: IssuesConfig): string {
  return `${name.toLowerCase()}@noreply.${hostnameOf(config.publicUrl)}`;
}

// Anonymous pages render this for every user they show; parse each public URL once.
const hostnames = new Map<string, string>();

function hostnameOf(url: string): string {
  let host = hostnames.get(url);
  if (host === undefined) {
    host = new URL(url).hostname;
    // Bounded: a process serves one or a few public URLs; tests may create many.
    if (hostnames.size >= 64) hostnames.clear();
    hostnames.set(url, host);
  }
  return host;
}
