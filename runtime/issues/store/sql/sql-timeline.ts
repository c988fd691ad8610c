/**
 * @module The timeline and dependencies of the SQL store: plain comments, and "blocked by" links
 * with the loop check a recursive query makes.
 */

import {
  type CommentRow,
  type CreateCommentInput,
  type DependencyStore,
  type IssueRow,
  IssueStoreError,
  type TimelineStore,
} from '../store.js';
import { list, sql } from './fragment.js';
import { IssueRowsAggregate } from './issue-rows.js';
import { type DbRow, num, toComment } from './row-mappers.js';

/**
 * Comments and dependencies.
 *
 * @example
 * await new SqlTimeline(session).addDependency(issue.id, blocker.id);
 */
export class SqlTimeline extends IssueRowsAggregate implements TimelineStore, DependencyStore {
  async createComment(input: CreateCommentInput): Promise<CommentRow> {
    return this.atomic((tx) =>
      tx.guard('comment', async () => {
        const now = input.createdUnix ?? this.now();
        const changed = await tx.db.run(
          sql`UPDATE issues SET num_comments = num_comments + 1, updated_unix = ${now} WHERE id = ${input.issueId}`,
        );
        if (changed === 0) throw new IssueStoreError('not_found', `issue ${input.issueId} does not exist`);
        const row = await tx.first(sql`
          INSERT INTO comments (issue_id, poster_id, type, body, created_unix, updated_unix)
          VALUES (${input.issueId}, ${input.posterId}, 'comment', ${input.body}, ${now}, ${now}) RETURNING *`);
        return toComment(row!);
      }),
    );
  }

  async listComments(issueId: number): Promise<CommentRow[]> {
    return (await this.db.all<DbRow>(sql`SELECT * FROM comments WHERE issue_id = ${issueId} ORDER BY id`)).map(toComment);
  }

  async addDependency(issueId: number, blockedById: number): Promise<void> {
    if (issueId === blockedById) throw new IssueStoreError('invalid', 'an issue cannot depend on itself');
    await this.atomic(async (tx) => {
      const found = await tx.db.all<DbRow>(sql`SELECT id FROM issues WHERE id IN ${list([issueId, blockedById])}`);
      if (found.length !== 2) throw new IssueStoreError('invalid', 'issue does not exist');
      // Would the new edge close a loop? Walk what `blockedById` is (transitively) blocked by.
      const loop = await tx.first(sql`
        WITH RECURSIVE chain (id) AS (
          SELECT blocked_by_id FROM issue_dependencies WHERE issue_id = ${blockedById}
          UNION SELECT d.blocked_by_id FROM issue_dependencies d JOIN chain c ON d.issue_id = c.id
        ) SELECT 1 AS one FROM chain WHERE id = ${issueId}`);
      if (loop) throw new IssueStoreError('circular', 'the dependency would create a circular dependency');
      await tx.guard('dependency', () =>
        tx.db.run(
          sql`INSERT INTO issue_dependencies (issue_id, blocked_by_id, created_unix) VALUES (${issueId}, ${blockedById}, ${this.now()})`,
        ),
      );
    });
  }

  async removeDependency(issueId: number, blockedById: number): Promise<boolean> {
    return (await this.db.run(sql`DELETE FROM issue_dependencies WHERE issue_id = ${issueId} AND blocked_by_id = ${blockedById}`)) > 0;
  }

  async listBlockedBy(issueId: number): Promise<IssueRow[]> {
    const rows = await this.db.all<DbRow>(
      sql`SELECT ${this.issueColumns} FROM issues i JOIN issue_dependencies d ON d.blocked_by_id = i.id
        WHERE d.issue_id = ${issueId} ORDER BY i.created_unix, i.id`,
    );
    return this.hydrate(rows);
  }

  async listBlocking(issueId: number): Promise<IssueRow[]> {
    const rows = await this.db.all<DbRow>(
      sql`SELECT ${this.issueColumns} FROM issues i JOIN issue_dependencies d ON d.issue_id = i.id
        WHERE d.blocked_by_id = ${issueId} ORDER BY i.created_unix, i.id`,
    );
    return this.hydrate(rows);
  }

  async countOpenBlockers(issueId: number): Promise<number> {
    const row = await this.first(sql`
      SELECT COUNT(*) AS n FROM issue_dependencies d JOIN issues b ON b.id = d.blocked_by_id
      WHERE d.issue_id = ${issueId} AND b.is_closed = ${false}`);
    return num(row!.n);
  }
}
