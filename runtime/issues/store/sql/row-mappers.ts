/**
 * @module Database rows to store rows. Both engines come through here: SQLite gives 0/1 for
 * booleans and numbers for integers, PostgreSQL gives booleans and (without a type parser) strings
 * for BIGINT, so every field is converted explicitly.
 */

import type {
  AccessTokenRow,
  CollaboratorPermission,
  CollaboratorRow,
  CommentRow,
  CommentType,
  IssueRow,
  LabelRow,
  MilestoneRow,
  RepoRow,
  UserRow,
  UserType,
  Visibility,
} from '../store.js';

export type DbRow = Record<string, unknown>;

export const num = (value: unknown): number => Number(value);
export const optNum = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
export const bool = (value: unknown): boolean => value === true || value === 1 || value === '1' || value === 't' || value === 1n;
const str = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

export function toUser(row: DbRow): UserRow {
  return {
    id: num(row.id),
    name: str(row.name),
    type: str(row.type) as UserType,
    fullName: str(row.full_name),
    email: str(row.email),
    isAdmin: bool(row.is_admin),
    description: str(row.description),
    website: str(row.website),
    location: str(row.location),
    visibility: str(row.visibility) as Visibility,
    createdUnix: num(row.created_unix),
    updatedUnix: num(row.updated_unix),
    lastLoginUnix: optNum(row.last_login_unix),
  };
}

export function toAccessToken(row: DbRow): AccessTokenRow {
  return {
    id: num(row.id),
    userId: num(row.user_id),
    name: str(row.name),
    scopes: str(row.scopes).split(',').filter(Boolean),
    tokenLastEight: str(row.token_last_eight),
    createdUnix: num(row.created_unix),
    updatedUnix: num(row.updated_unix),
  };
}

export function toRepo(row: DbRow): RepoRow {
  return {
    id: num(row.id),
    ownerId: num(row.owner_id),
    ownerName: str(row.owner_name),
    ownerType: str(row.owner_type) as UserType,
    name: str(row.name),
    description: str(row.description),
    isPrivate: bool(row.is_private),
    isArchived: bool(row.is_archived),
    numIssues: num(row.num_issues),
    numClosedIssues: num(row.num_closed_issues),
    numPulls: num(row.num_pulls),
    numClosedPulls: num(row.num_closed_pulls),
    createdUnix: num(row.created_unix),
    updatedUnix: num(row.updated_unix),
  };
}

export function toCollaborator(row: DbRow): CollaboratorRow {
  return { repoId: num(row.repo_id), userId: num(row.user_id), permission: str(row.permission) as CollaboratorPermission };
}

export function toLabel(row: DbRow): LabelRow {
  return {
    id: num(row.id),
    repoId: optNum(row.repo_id),
    orgId: optNum(row.org_id),
    name: str(row.name),
    color: str(row.color),
    description: str(row.description),
    exclusive: bool(row.exclusive),
    isArchived: bool(row.is_archived),
  };
}

export function toMilestone(row: DbRow): MilestoneRow {
  return {
    id: num(row.id),
    repoId: num(row.repo_id),
    title: str(row.title),
    description: str(row.description),
    state: bool(row.is_closed) ? 'closed' : 'open',
    openIssues: num(row.open_issues ?? 0),
    closedIssues: num(row.closed_issues ?? 0),
    createdUnix: num(row.created_unix),
    updatedUnix: num(row.updated_unix),
    closedUnix: optNum(row.closed_unix),
    deadlineUnix: optNum(row.deadline_unix),
  };
}

export function toComment(row: DbRow): CommentRow {
  return {
    id: num(row.id),
    issueId: num(row.issue_id),
    posterId: num(row.poster_id),
    type: str(row.type) as CommentType,
    body: str(row.body),
    oldValue: row.old_value === null || row.old_value === undefined ? null : String(row.old_value),
    newValue: row.new_value === null || row.new_value === undefined ? null : String(row.new_value),
    createdUnix: num(row.created_unix),
    updatedUnix: num(row.updated_unix),
  };
}

/** The related id lists of an issue, loaded in batch by the store. */
export interface IssueRelations {
  readonly assigneeIds: readonly number[];
  readonly labelIds: readonly number[];
  readonly reviewRequestIds: readonly number[];
}

export function toIssue(row: DbRow, relations: IssueRelations): IssueRow {
  const isPull = bool(row.is_pull);
  return {
    id: num(row.id),
    repoId: num(row.repo_id),
    index: num(row.idx),
    posterId: num(row.poster_id),
    title: str(row.title),
    body: str(row.body),
    ref: str(row.ref),
    state: bool(row.is_closed) ? 'closed' : 'open',
    isLocked: bool(row.is_locked),
    isPull,
    pull: isPull ? { merged: bool(row.pr_merged), mergedUnix: optNum(row.pr_merged_unix), draft: bool(row.pr_draft) } : null,
    milestoneId: optNum(row.milestone_id),
    deadlineUnix: optNum(row.deadline_unix),
    numComments: num(row.num_comments),
    pinOrder: num(row.pin_order),
    timeEstimate: num(row.time_estimate),
    createdUnix: num(row.created_unix),
    updatedUnix: num(row.updated_unix),
    closedUnix: optNum(row.closed_unix),
    ...relations,
  };
}
