/**
 * @module The issues of the SQL store: creation with gap-free per-repository numbers, patches with
 * their timeline entries, mentions; search is the planner's (`issue-search.ts`).
 */

import { checkLength } from '../limits.js';
import { parseMentions } from '../mentions.js';
import {
  type CommentRow,
  type CreateIssueInput,
  type IssueFilter,
  type IssuePage,
  type IssuePatch,
  type IssueRecordStore,
  type IssueRow,
  IssueStoreError,
  type UpdateIssueResult,
} from '../store.js';
import { join, raw, type SqlFragment, sql } from './fragment.js';
import { IssueRowsAggregate } from './issue-rows.js';
import { IssueSearch } from './issue-search.js';
import { type DbRow, num, toComment } from './row-mappers.js';
import { SqlLabels } from './sql-labels.js';
import { BATCH_ROWS, chunks, unique } from './sql-session.js';
import { SqlTimeline } from './sql-timeline.js';

/**
 * Issues and pull requests.
 *
 * @example
 * const issues = new SqlIssues(session);
 * const issue = await issues.createIssue({ repoId: repo.id, posterId: alice.id, title: 'Crash on start' });
 */
export class SqlIssues extends IssueRowsAggregate implements IssueRecordStore {
  async getIssue(repoId: number, index: number): Promise<IssueRow | undefined> {
    if (!Number.isSafeInteger(index)) return undefined;
    const row = await this.first(sql`SELECT ${this.issueColumns} FROM issues i WHERE i.repo_id = ${repoId} AND i.idx = ${index}`);
    return row && this.hydrate([row])[0];
  }

  async getIssueById(id: number): Promise<IssueRow | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    const row = await this.first(sql`SELECT ${this.issueColumns} FROM issues i WHERE i.id = ${id}`);
    return row && this.hydrate([row])[0];
  }

  /** Throws `invalid` unless the milestone belongs to the repository. */
  private async checkMilestone(repoId: number, milestoneId: number | null | undefined): Promise<void> {
    if (milestoneId === null || milestoneId === undefined) return;
    const row = await this.first(sql`SELECT id FROM milestones WHERE id = ${milestoneId} AND repo_id = ${repoId}`);
    if (!row) throw new IssueStoreError('invalid', `milestone ${milestoneId} does not exist in this repository`);
  }

  private async checkLabels(repoId: number, labelIds: readonly number[] | undefined): Promise<void> {
    if (!labelIds || labelIds.length === 0) return;
    const applicable = await new SqlLabels(this.s).filterApplicableLabelIds(repoId, labelIds);
    if (applicable.length !== unique(labelIds).length) throw new IssueStoreError('invalid', 'a label does not exist in this repository');
  }

  private async checkUsers(ids: readonly number[] | undefined): Promise<void> {
    if (!ids || ids.length === 0) return;
    const wanted = unique(ids);
    const rows = await this.db.all<DbRow>(sql`SELECT id FROM users WHERE id IN ${this.in(wanted)} AND type = 'user'`);
    if (rows.length !== wanted.length) throw new IssueStoreError('invalid', 'a user does not exist');
  }

  private async replaceSet(
    table: 'issue_assignees' | 'issue_labels' | 'review_requests',
    issueId: number,
    ids: readonly number[],
  ): Promise<void> {
    const column = raw(table === 'issue_labels' ? 'label_id' : 'user_id');
    await this.db.run(sql`DELETE FROM ${raw(table)} WHERE issue_id = ${issueId}`);
    const wanted = unique(ids);
    if (wanted.length === 0) return;
    const rows =
      table === 'issue_assignees'
        ? wanted.map((id, position) => sql`(${issueId}, ${id}, ${position})`)
        : wanted.map((id) => sql`(${issueId}, ${id})`);
    const columns = table === 'issue_assignees' ? raw('(issue_id, user_id, position)') : sql`(issue_id, ${column})`;
    // In batches: one statement for every row would pass the engines' parameter caps.
    for (const part of chunks(rows, BATCH_ROWS)) await this.db.run(sql`INSERT INTO ${raw(table)} ${columns} VALUES ${join(part)}`);
  }

  private async refreshMentions(issueId: number, title: string, body: string): Promise<void> {
    await this.db.run(sql`DELETE FROM issue_mentions WHERE issue_id = ${issueId}`);
    const names = parseMentions(title, body);
    if (names.length === 0) return;
    await this.db.run(sql`
      INSERT INTO issue_mentions (issue_id, user_id)
      SELECT ${issueId}, id FROM users WHERE lower_name IN ${this.in(names)} AND type = 'user'`);
  }

  async createIssue(input: CreateIssueInput): Promise<IssueRow> {
    const title = input.title.trim();
    if (title === '') throw new IssueStoreError('invalid', 'issue title is empty');
    checkLength('issueTitle', title, 'issue title');
    checkLength('issueRef', input.ref, 'issue ref');
    return this.atomic((tx) =>
      tx.guard('issue', async () => {
        await tx.checkMilestone(input.repoId, input.milestoneId);
        await tx.checkLabels(input.repoId, input.labelIds);
        await tx.checkUsers([input.posterId, ...(input.assigneeIds ?? []), ...(input.reviewRequestIds ?? [])]);
        const isPull = input.pull !== undefined;
        const closed = input.closed === true || input.pull?.merged === true;
        const now = input.createdUnix ?? this.now();
        // The row lock taken by this UPDATE serialises creators per repository until commit, so the
        // index it hands out is never handed out twice and never skipped.
        const counters = await tx.first(sql`
          UPDATE repos SET next_index = next_index + 1,
            num_issues = num_issues + ${isPull ? 0 : 1}, num_closed_issues = num_closed_issues + ${!isPull && closed ? 1 : 0},
            num_pulls = num_pulls + ${isPull ? 1 : 0}, num_closed_pulls = num_closed_pulls + ${isPull && closed ? 1 : 0}
          WHERE id = ${input.repoId} RETURNING next_index`);
        if (!counters) throw new IssueStoreError('not_found', `repository ${input.repoId} does not exist`);
        const body = input.body ?? '';
        const row = await tx.first(sql`
          INSERT INTO issues (repo_id, idx, poster_id, title, body, ref, is_closed, is_pull, pr_merged, pr_merged_unix, pr_draft,
            milestone_id, deadline_unix, created_unix, updated_unix, closed_unix)
          VALUES (${input.repoId}, ${num(counters.next_index)}, ${input.posterId}, ${title},
            ${body}, ${input.ref ?? ''}, ${closed}, ${isPull},
            ${input.pull?.merged ?? false}, ${input.pull?.merged ? (input.pull.mergedUnix ?? now) : null}, ${input.pull?.draft ?? false},
            ${input.milestoneId ?? null}, ${input.deadlineUnix ?? null}, ${now}, ${now}, ${closed ? now : null})
          RETURNING id`);
        const issueId = num(row!.id);
        if (input.assigneeIds?.length) await tx.replaceSet('issue_assignees', issueId, input.assigneeIds);
        if (input.labelIds?.length) await tx.replaceSet('issue_labels', issueId, input.labelIds);
        if (input.reviewRequestIds?.length) await tx.replaceSet('review_requests', issueId, input.reviewRequestIds);
        await tx.refreshMentions(issueId, title, body);
        return (await tx.getIssueById(issueId))!;
      }),
    );
  }

  async updateIssue(issueId: number, patch: IssuePatch, actorId: number): Promise<UpdateIssueResult | undefined> {
    checkLength('issueTitle', patch.title?.trim(), 'issue title');
    checkLength('issueRef', patch.ref, 'issue ref');
    return this.atomic((tx) => tx.guard('issue', () => tx.applyPatch(issueId, patch, actorId)));
  }

  private async applyPatch(issueId: number, patch: IssuePatch, actorId: number): Promise<UpdateIssueResult | undefined> {
    const locked = await this.first(sql`SELECT ${this.issueColumns} FROM issues i WHERE i.id = ${issueId}${this.dialect.forUpdate}`);
    if (!locked) return undefined;
    const issue = this.hydrate([locked])[0]!;
    const now = this.now();
    const sets: SqlFragment[] = [];
    const events: { type: 'title' | 'state'; oldValue: string; newValue: string }[] = [];

    const title = patch.title?.trim();
    if (title && title !== issue.title) {
      sets.push(sql`title = ${title}`);
      events.push({ type: 'title', oldValue: issue.title, newValue: title });
    }
    if (patch.body !== undefined && patch.body !== issue.body) sets.push(sql`body = ${patch.body}`);
    if (patch.ref !== undefined && patch.ref !== issue.ref) sets.push(sql`ref = ${patch.ref}`);
    if (patch.milestoneId !== undefined && patch.milestoneId !== issue.milestoneId) {
      await this.checkMilestone(issue.repoId, patch.milestoneId);
      sets.push(sql`milestone_id = ${patch.milestoneId}`);
    }
    if (patch.deadlineUnix !== undefined && patch.deadlineUnix !== issue.deadlineUnix)
      sets.push(sql`deadline_unix = ${patch.deadlineUnix}`);
    if (patch.isLocked !== undefined && patch.isLocked !== issue.isLocked) sets.push(sql`is_locked = ${patch.isLocked}`);
    if (patch.timeEstimate !== undefined && patch.timeEstimate !== issue.timeEstimate)
      sets.push(sql`time_estimate = ${patch.timeEstimate}`);
    if (patch.pinOrder !== undefined && patch.pinOrder !== issue.pinOrder) sets.push(sql`pin_order = ${patch.pinOrder}`);

    let nextState = patch.state ?? issue.state;
    if (patch.merged === true && issue.isPull && !issue.pull?.merged) {
      sets.push(sql`pr_merged = ${true}`, sql`pr_merged_unix = ${now}`);
      nextState = 'closed';
    } else if (patch.state !== undefined && patch.state !== issue.state && issue.pull?.merged) {
      throw new IssueStoreError('merged', 'cannot change state of this pull request, it was already merged');
    }
    if (nextState !== issue.state) {
      if (nextState === 'closed' && (await new SqlTimeline(this.s).countOpenBlockers(issueId)) > 0) {
        throw new IssueStoreError('open_dependencies', 'cannot close this issue or pull request because it still has open dependencies');
      }
      sets.push(sql`is_closed = ${nextState === 'closed'}`, sql`closed_unix = ${nextState === 'closed' ? now : null}`);
      events.push({ type: 'state', oldValue: issue.state, newValue: nextState });
      const delta = nextState === 'closed' ? 1 : -1;
      const counter = raw(issue.isPull ? 'num_closed_pulls' : 'num_closed_issues');
      await this.db.run(sql`UPDATE repos SET ${counter} = ${counter} + ${delta} WHERE id = ${issue.repoId}`);
    }

    const sameSet = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, i) => id === b[i]);
    let relationsChanged = false;
    if (patch.assigneeIds !== undefined && !sameSet(unique(patch.assigneeIds), issue.assigneeIds)) {
      await this.checkUsers(patch.assigneeIds);
      await this.replaceSet('issue_assignees', issueId, patch.assigneeIds);
      relationsChanged = true;
    }
    if (patch.labelIds !== undefined && !sameSet([...unique(patch.labelIds)].sort(), [...issue.labelIds].sort())) {
      await this.checkLabels(issue.repoId, patch.labelIds);
      await this.replaceSet('issue_labels', issueId, patch.labelIds);
      relationsChanged = true;
    }
    if (patch.reviewRequestIds !== undefined && !sameSet([...unique(patch.reviewRequestIds)].sort(), [...issue.reviewRequestIds].sort())) {
      await this.checkUsers(patch.reviewRequestIds);
      await this.replaceSet('review_requests', issueId, patch.reviewRequestIds);
      relationsChanged = true;
    }

    const recorded: CommentRow[] = [];
    for (const event of events) {
      const row = await this.first(sql`
        INSERT INTO comments (issue_id, poster_id, type, body, old_value, new_value, created_unix, updated_unix)
        VALUES (${issueId}, ${actorId}, ${event.type}, '', ${event.oldValue}, ${event.newValue}, ${now}, ${now})
        RETURNING *`);
      recorded.push(toComment(row!));
    }
    if (events.length > 0) sets.push(sql`num_comments = num_comments + ${events.length}`);
    if (sets.length > 0 || relationsChanged) {
      sets.push(sql`updated_unix = ${now}`);
      await this.db.run(sql`UPDATE issues SET ${join(sets)} WHERE id = ${issueId}`);
    }
    if (title !== undefined || patch.body !== undefined) {
      await this.refreshMentions(issueId, title || issue.title, patch.body ?? issue.body);
    }
    return { issue: (await this.getIssueById(issueId))!, events: recorded };
  }

  async listMentionedUserIds(issueId: number): Promise<number[]> {
    const rows = await this.db.all<DbRow>(sql`SELECT user_id FROM issue_mentions WHERE issue_id = ${issueId} ORDER BY user_id`);
    return rows.map((row) => num(row.user_id));
  }

  /** Paged, filtered, sorted issues plus the total (see `issue-search.ts`). */
  searchIssues(filter: IssueFilter): Promise<IssuePage> {
    return new IssueSearch(this.s).searchIssues(filter);
  }
}
