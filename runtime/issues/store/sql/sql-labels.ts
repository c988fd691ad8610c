/**
 * @module The labels and milestones of the SQL store. Milestones carry their open and closed issue
 * counts, counted when read so that they are always consistent.
 */

import { checkLength } from '../limits.js';
import {
  type CreateLabelInput,
  type CreateMilestoneInput,
  type IssueStateFilter,
  IssueStoreError,
  type LabelRow,
  type LabelStore,
  type MilestoneRow,
  type MilestoneStore,
  type UpdateMilestoneInput,
} from '../store.js';
import { raw, sql } from './fragment.js';
import { type DbRow, num, toLabel, toMilestone } from './row-mappers.js';
import { SqlAggregate, unique } from './sql-session.js';

const MILESTONE_SELECT = raw(
  'SELECT m.*, (SELECT COUNT(*) FROM issues x WHERE x.milestone_id = m.id AND x.is_closed = FALSE) AS open_issues, ' +
    '(SELECT COUNT(*) FROM issues x WHERE x.milestone_id = m.id AND x.is_closed = TRUE) AS closed_issues FROM milestones m',
);

function normaliseColor(color: string): string {
  let hex = color.trim().replace(/^#/, '').toLowerCase();
  if (/^[0-9a-f]{3}$/.test(hex)) hex = [...hex].map((c) => c + c).join('');
  if (!/^[0-9a-f]{6}$/.test(hex)) throw new IssueStoreError('invalid', `invalid color: ${color}`);
  return hex;
}

/**
 * Labels of repositories and organizations, and milestones.
 *
 * @example
 * const labels = new SqlLabels(session);
 * await labels.createLabel({ repoId: repo.id, name: 'bug', color: '#ee0701' });
 */
export class SqlLabels extends SqlAggregate implements LabelStore, MilestoneStore {
  async createLabel(input: CreateLabelInput): Promise<LabelRow> {
    if ((input.repoId === undefined) === (input.orgId === undefined)) {
      throw new IssueStoreError('invalid', 'a label belongs to exactly one repository or organization');
    }
    const name = input.name.trim();
    if (name === '') throw new IssueStoreError('invalid', 'label name is empty');
    checkLength('labelName', name, 'label name');
    checkLength('labelDescription', input.description, 'label description');
    const color = normaliseColor(input.color);
    return this.guard(`label ${name}`, async () => {
      const row = await this.first(sql`
        INSERT INTO labels (repo_id, org_id, name, color, description, exclusive)
        VALUES (${input.repoId ?? null}, ${input.orgId ?? null}, ${name}, ${color}, ${input.description ?? ''}, ${input.exclusive ?? false})
        RETURNING *`);
      return toLabel(row!);
    });
  }

  async listLabels(repoId: number): Promise<LabelRow[]> {
    return (await this.db.all<DbRow>(sql`SELECT * FROM labels WHERE repo_id = ${repoId} ORDER BY name, id`)).map(toLabel);
  }

  async listOrgLabels(orgId: number): Promise<LabelRow[]> {
    return (await this.db.all<DbRow>(sql`SELECT * FROM labels WHERE org_id = ${orgId} ORDER BY name, id`)).map(toLabel);
  }

  async getLabelsByIds(ids: readonly number[]): Promise<LabelRow[]> {
    if (ids.length === 0) return [];
    return (await this.db.all<DbRow>(sql`SELECT * FROM labels WHERE id IN ${this.in(unique(ids))} ORDER BY name, id`)).map(toLabel);
  }

  async filterApplicableLabelIds(repoId: number, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.all<DbRow>(sql`
      SELECT l.id FROM labels l JOIN repos r ON r.id = ${repoId}
      WHERE l.id IN ${this.in(unique(ids))} AND (l.repo_id = r.id OR l.org_id = r.owner_id)
      ORDER BY l.name, l.id`);
    return rows.map((row) => num(row.id));
  }

  async createMilestone(input: CreateMilestoneInput): Promise<MilestoneRow> {
    const title = input.title.trim();
    if (title === '') throw new IssueStoreError('invalid', 'milestone title is empty');
    checkLength('milestoneTitle', title, 'milestone title');
    const now = this.now();
    const closed = input.state === 'closed';
    return this.guard(`milestone ${title}`, async () => {
      const row = await this.first(sql`
        INSERT INTO milestones (repo_id, title, description, is_closed, created_unix, updated_unix, closed_unix, deadline_unix)
        VALUES (${input.repoId}, ${title}, ${input.description ?? ''}, ${closed},
          ${now}, ${now}, ${closed ? now : null}, ${input.deadlineUnix ?? null})
        RETURNING id`);
      return (await this.getMilestone(num(row!.id)))!;
    });
  }

  async updateMilestone(id: number, input: UpdateMilestoneInput): Promise<MilestoneRow | undefined> {
    return this.atomic(async (tx) => {
      const current = await tx.getMilestone(id);
      if (!current) return undefined;
      const title = input.title?.trim() || current.title;
      checkLength('milestoneTitle', title, 'milestone title');
      const state = input.state ?? current.state;
      const now = this.now();
      const closedUnix = state === 'closed' ? (current.closedUnix ?? now) : null;
      await tx.db.run(sql`
        UPDATE milestones SET title = ${title}, description = ${input.description ?? current.description},
          is_closed = ${state === 'closed'},
          closed_unix = ${closedUnix}, deadline_unix = ${input.deadlineUnix === undefined ? current.deadlineUnix : input.deadlineUnix},
            updated_unix = ${now}
        WHERE id = ${id}`);
      return tx.getMilestone(id);
    });
  }

  async listMilestones(repoId: number, state: IssueStateFilter = 'all'): Promise<MilestoneRow[]> {
    const stateCondition = state === 'all' ? raw('1 = 1') : sql`m.is_closed = ${state === 'closed'}`;
    return (await this.db.all<DbRow>(sql`${MILESTONE_SELECT} WHERE m.repo_id = ${repoId} AND ${stateCondition} ORDER BY m.id`)).map(
      toMilestone,
    );
  }

  async getMilestone(id: number): Promise<MilestoneRow | undefined> {
    const row = await this.first(sql`${MILESTONE_SELECT} WHERE m.id = ${id}`);
    return row && toMilestone(row);
  }

  async getMilestonesByIds(ids: readonly number[]): Promise<MilestoneRow[]> {
    if (ids.length === 0) return [];
    return (await this.db.all<DbRow>(sql`${MILESTONE_SELECT} WHERE m.id IN ${this.in(unique(ids))} ORDER BY m.id`)).map(toMilestone);
  }

  async findMilestoneByName(repoId: number, title: string): Promise<MilestoneRow | undefined> {
    const row = await this.first(sql`${MILESTONE_SELECT} WHERE m.repo_id = ${repoId} AND m.title = ${title} ORDER BY m.id`);
    return row && toMilestone(row);
  }
}
