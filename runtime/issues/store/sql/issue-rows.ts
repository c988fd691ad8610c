/**
 * @module How the SQL store reads issue rows: the columns of an issue with its assignees, labels
 * and review requests as list columns, and the part base that turns such rows into `IssueRow`s,
 * shared by the issues, the search and the dependencies.
 */

import type { IssueRow } from '../store.js';
import { raw, type SqlFragment, sql } from './fragment.js';
import { type DbRow, toIssue } from './row-mappers.js';
import type { SqlDialect } from './sql-dialect.js';
import { SqlAggregate } from './sql-session.js';

const ISSUE_COLUMNS = raw(
  'i.id, i.repo_id, i.idx, i.poster_id, i.title, i.body, i.ref, i.is_closed, i.is_locked, i.is_pull, i.pr_merged, ' +
    'i.pr_merged_unix, i.pr_draft, i.milestone_id, i.deadline_unix, i.num_comments, i.pin_order, i.time_estimate, ' +
    'i.created_unix, i.updated_unix, i.closed_unix',
);

/**
 * {@link ISSUE_COLUMNS} with the issue's assignees, labels and review requests as three list
 * columns, so that a row arrives whole: one query for an issue or a page instead of four (on
 * PostgreSQL four pooled connections at once). Built once per dialect.
 */
const issueColumnsByDialect = new WeakMap<SqlDialect, SqlFragment>();
export function issueColumns(d: SqlDialect): SqlFragment {
  let columns = issueColumnsByDialect.get(d);
  if (!columns) {
    const assignees = d.idArray(raw('a.user_id'), raw('FROM issue_assignees a WHERE a.issue_id = i.id'), raw('a.position'));
    const labels = d.idArray(
      raw('l.id'),
      raw('FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id = i.id'),
      raw('l.name, l.id'),
    );
    const reviewers = d.idArray(raw('rr.user_id'), raw('FROM review_requests rr WHERE rr.issue_id = i.id'), raw('rr.user_id'));
    columns = sql`${ISSUE_COLUMNS}, ${assignees} AS assignee_ids, ${labels} AS label_ids, ${reviewers} AS review_request_ids`;
    issueColumnsByDialect.set(d, columns);
  }
  return columns;
}

/** A part of the store that reads whole issue rows. */
export abstract class IssueRowsAggregate extends SqlAggregate {
  /** The issues of rows selected with {@link issueColumns}. */
  protected hydrate(rows: readonly DbRow[]): IssueRow[] {
    const d = this.dialect;
    return rows.map((row) =>
      toIssue(row, {
        assigneeIds: d.idList(row.assignee_ids),
        labelIds: d.idList(row.label_ids),
        reviewRequestIds: d.idList(row.review_request_ids),
      }),
    );
  }

  /** The columns of an issue row with its lists (see {@link issueColumns}). */
  protected get issueColumns(): SqlFragment {
    return issueColumns(this.dialect);
  }
}
