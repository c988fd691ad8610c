/**
 * @module The bulk import of the SQL store (demo data, benchmarks): many issues in one
 * transaction, with multi-row inserts, one counter update per repository and mentions resolved once.
 */

import { checkLength } from '../limits.js';
import { parseMentions } from '../mentions.js';
import { type BulkImportStore, type ImportIssueInput, IssueStoreError } from '../store.js';
import { join, list, raw, type SqlFragment, sql } from './fragment.js';
import { type DbRow, num } from './row-mappers.js';
import { BATCH_ROWS, chunks, SqlAggregate, unique } from './sql-session.js';

const ANALYZE_AFTER_ROWS = 1000;

/**
 * Bulk loading.
 *
 * @example
 * await new SqlImport(session).importIssues([{ repoId: repo.id, posterId: alice.id, title: 'Imported' }]); // 1
 */
export class SqlImport extends SqlAggregate implements BulkImportStore {
  async importIssues(inputs: readonly ImportIssueInput[]): Promise<number> {
    if (inputs.length === 0) return 0;
    for (const input of inputs) {
      if (input.title.trim() === '') throw new IssueStoreError('invalid', 'issue title is empty');
      checkLength('issueTitle', input.title.trim(), 'issue title');
      checkLength('issueRef', input.ref, 'issue ref');
    }
    return this.atomic((tx) => tx.guard('issue', () => tx.bulkInsert(inputs)));
  }

  private async bulkInsert(inputs: readonly ImportIssueInput[]): Promise<number> {
    // 1. Reserve index ranges per repository, bumping the counters once per repository.
    const perRepo = new Map<number, { count: number; closedIssues: number; issues: number; pulls: number; closedPulls: number }>();
    for (const input of inputs) {
      const entry = perRepo.get(input.repoId) ?? { count: 0, closedIssues: 0, issues: 0, pulls: 0, closedPulls: 0 };
      const isPull = input.pull !== undefined;
      const closed = input.closed === true || input.pull?.merged === true;
      entry.count++;
      if (isPull) {
        entry.pulls++;
        if (closed) entry.closedPulls++;
      } else {
        entry.issues++;
        if (closed) entry.closedIssues++;
      }
      perRepo.set(input.repoId, entry);
    }
    const nextIndex = new Map<number, number>();
    for (const [repoId, entry] of perRepo) {
      const row = await this.first(sql`
        UPDATE repos SET next_index = next_index + ${entry.count}, num_issues = num_issues + ${entry.issues},
          num_closed_issues = num_closed_issues + ${entry.closedIssues}, num_pulls = num_pulls + ${entry.pulls},
          num_closed_pulls = num_closed_pulls + ${entry.closedPulls}
        WHERE id = ${repoId} RETURNING next_index`);
      if (!row) throw new IssueStoreError('not_found', `repository ${repoId} does not exist`);
      nextIndex.set(repoId, num(row.next_index) - entry.count + 1);
    }
    // 2. Mentions resolved once for the whole batch.
    const mentionNames = new Map<ImportIssueInput, string[]>();
    const allNames = new Set<string>();
    for (const input of inputs) {
      const names = parseMentions(input.title, input.body ?? '');
      mentionNames.set(input, names);
      for (const name of names) allNames.add(name);
    }
    const userIdByName = new Map<string, number>();
    for (const part of chunks([...allNames], BATCH_ROWS)) {
      const rows = await this.db.all<DbRow>(sql`SELECT id, lower_name FROM users WHERE lower_name IN ${list(part)} AND type = 'user'`);
      for (const row of rows) userIdByName.set(String(row.lower_name), num(row.id));
    }
    // 3. Issues, then their relations, in multi-row statements.
    const now = this.now();
    const assignees: SqlFragment[] = [];
    const labels: SqlFragment[] = [];
    const reviewers: SqlFragment[] = [];
    const mentions: SqlFragment[] = [];
    const comments: SqlFragment[] = [];
    for (const part of chunks(inputs, BATCH_ROWS)) {
      const indexes: number[] = [];
      const values = part.map((input) => {
        const index = nextIndex.get(input.repoId)!;
        nextIndex.set(input.repoId, index + 1);
        indexes.push(index);
        const isPull = input.pull !== undefined;
        const closed = input.closed === true || input.pull?.merged === true;
        const created = input.createdUnix ?? now;
        const updated = input.updatedUnix ?? created;
        return sql`(${input.repoId}, ${index}, ${input.posterId}, ${input.title.trim()},
          ${input.body ?? ''}, ${input.ref ?? ''}, ${closed}, ${isPull},
          ${input.pull?.merged ?? false}, ${input.pull?.merged ? (input.pull.mergedUnix ?? updated) : null}, ${input.pull?.draft ?? false},
          ${input.milestoneId ?? null}, ${input.deadlineUnix ?? null}, ${input.comments?.length ?? 0},
            ${created}, ${updated}, ${closed ? updated : null})`;
      });
      const rows = await this.db.all<DbRow>(sql`
        INSERT INTO issues (repo_id, idx, poster_id, title, body, ref, is_closed, is_pull, pr_merged, pr_merged_unix, pr_draft,
          milestone_id, deadline_unix, num_comments, created_unix, updated_unix, closed_unix)
        VALUES ${join(values)} RETURNING id, repo_id, idx`);
      const idByKey = new Map(rows.map((row) => [`${num(row.repo_id)}:${num(row.idx)}`, num(row.id)]));
      part.forEach((input, i) => {
        const issueId = idByKey.get(`${input.repoId}:${indexes[i]}`)!;
        for (const [position, userId] of unique(input.assigneeIds ?? []).entries())
          assignees.push(sql`(${issueId}, ${userId}, ${position})`);
        for (const labelId of unique(input.labelIds ?? [])) labels.push(sql`(${issueId}, ${labelId})`);
        for (const userId of unique(input.reviewRequestIds ?? [])) reviewers.push(sql`(${issueId}, ${userId})`);
        for (const name of mentionNames.get(input)!) {
          const userId = userIdByName.get(name);
          if (userId !== undefined) mentions.push(sql`(${issueId}, ${userId})`);
        }
        for (const comment of input.comments ?? []) {
          const created = comment.createdUnix ?? input.createdUnix ?? now;
          comments.push(sql`(${issueId}, ${comment.posterId}, 'comment', ${comment.body}, ${created}, ${created})`);
        }
      });
    }
    const insertAll = async (head: SqlFragment, rows: readonly SqlFragment[]) => {
      for (const part of chunks(rows, BATCH_ROWS)) await this.db.run(sql`${head} VALUES ${join(part)}`);
    };
    await insertAll(raw('INSERT INTO issue_assignees (issue_id, user_id, position)'), assignees);
    await insertAll(raw('INSERT INTO issue_labels (issue_id, label_id)'), labels);
    await insertAll(raw('INSERT INTO review_requests (issue_id, user_id)'), reviewers);
    await insertAll(raw('INSERT INTO issue_mentions (issue_id, user_id)'), mentions);
    await insertAll(raw('INSERT INTO comments (issue_id, poster_id, type, body, created_unix, updated_unix)'), comments);
    // Large loads change the data's shape; without fresh statistics the planners keep plans made
    // for an empty database.
    if (inputs.length >= ANALYZE_AFTER_ROWS) await this.db.exec(this.dialect.analyze);
    return inputs.length;
  }
}
