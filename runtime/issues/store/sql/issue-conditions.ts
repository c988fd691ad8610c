/**
 * @module `IssueFilter` → WHERE and ORDER BY fragments on the issue alias `i`. Names (labels,
 * milestones) are resolved to ids by the store before this runs, so every condition here is an
 * indexed equality, `IN` or `EXISTS`.
 */

import { assertNever } from '../../../util/assert-never.js';
import type { IssueFilter, IssueSort } from '../store.js';
import { and, raw, type SqlFragment, sql } from './fragment.js';
import { inList, type SqlDialect } from './sql-dialect.js';

/** The filter after name resolution. */
export interface ResolvedIssueFilter extends IssueFilter {
  /** Label ids to match any of; `undefined` for no label filter. */
  readonly resolvedLabelIds?: readonly number[];
  /** Milestone ids to match any of; `undefined` for no milestone filter. */
  readonly resolvedMilestoneIds?: readonly number[];
  /** Keyword words; `undefined` for no keyword filter. */
  readonly words?: readonly string[];
}

/**
 * The columns of `i` that {@link issueConditions} reads, with `created_unix` for the newest-first
 * order: what a subquery standing in for `issues i` must select. Keep it beside the conditions.
 */
export const FILTERED_COLUMNS = raw('i.id, i.repo_id, i.is_closed, i.is_pull, i.milestone_id, i.poster_id, i.created_unix, i.updated_unix');

/** The WHERE conditions (without the `WHERE` keyword). */
export function issueConditions(filter: ResolvedIssueFilter, dialect: SqlDialect): SqlFragment {
  const conditions: SqlFragment[] = [sql`i.repo_id IN ${inList(dialect, filter.repoIds)}`];
  const state = filter.state ?? 'open';
  if (state !== 'all') conditions.push(sql`i.is_closed = ${state === 'closed'}`);
  const type = filter.type ?? 'all';
  if (type !== 'all') conditions.push(sql`i.is_pull = ${type === 'pulls'}`);
  if (filter.resolvedLabelIds) {
    conditions.push(
      sql`EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id AND il.label_id IN ${inList(dialect, filter.resolvedLabelIds)})`,
    );
  }
  if (filter.resolvedMilestoneIds) conditions.push(sql`i.milestone_id IN ${inList(dialect, filter.resolvedMilestoneIds)}`);
  if (filter.words) conditions.push(dialect.keywordCondition(filter.words));
  if (filter.since !== undefined) conditions.push(sql`i.updated_unix >= ${filter.since}`);
  if (filter.before !== undefined) conditions.push(sql`i.updated_unix <= ${filter.before}`);
  if (filter.posterId !== undefined) conditions.push(sql`i.poster_id = ${filter.posterId}`);
  if (filter.assigneeId !== undefined) {
    conditions.push(sql`EXISTS (SELECT 1 FROM issue_assignees ia WHERE ia.issue_id = i.id AND ia.user_id = ${filter.assigneeId})`);
  }
  if (filter.mentionedId !== undefined) {
    conditions.push(sql`EXISTS (SELECT 1 FROM issue_mentions im WHERE im.issue_id = i.id AND im.user_id = ${filter.mentionedId})`);
  }
  if (filter.reviewRequestedId !== undefined) {
    conditions.push(sql`i.is_pull = ${true}`);
    conditions.push(sql`EXISTS (SELECT 1 FROM review_requests rr WHERE rr.issue_id = i.id AND rr.user_id = ${filter.reviewRequestedId})`);
  }
  return and(conditions);
}

function sortTerms(sort: IssueSort, filter: ResolvedIssueFilter, dialect: SqlDialect, rank: SqlFragment | undefined): SqlFragment {
  switch (sort) {
    case 'newest':
      return raw('i.created_unix DESC, i.id DESC');
    case 'oldest':
      return raw('i.created_unix ASC, i.id ASC');
    case 'recentupdate':
      return raw('i.updated_unix DESC, i.id DESC');
    case 'leastupdate':
      return raw('i.updated_unix ASC, i.id ASC');
    case 'mostcomment':
      return raw('i.num_comments DESC, i.created_unix DESC, i.id DESC');
    case 'relevance':
      return filter.words
        ? sql`${rank ?? dialect.keywordRank(filter.words)} ASC, i.created_unix DESC, i.id DESC`
        : raw('i.created_unix DESC, i.id DESC');
    default:
      return assertNever(sort, 'sort');
  }
}

/**
 * The ORDER BY terms (without the keywords): priority repository first, then the sort. `rank`, when
 * given, names a keyword rank computed beforehand, in place of the dialect's expression.
 */
export function issueOrder(filter: ResolvedIssueFilter, dialect: SqlDialect, rank?: SqlFragment): SqlFragment {
  const terms = sortTerms(filter.sort ?? 'newest', filter, dialect, rank);
  if (filter.priorityRepoId === undefined) return terms;
  return sql`CASE WHEN i.repo_id = ${filter.priorityRepoId} THEN 0 ELSE 1 END, ${terms}`;
}
