/**
 * @module
 * Gitea's `Label` and `Milestone` JSON.
 */
import type { LabelRow, MilestoneRow } from '../../store/store.js';
import type { IssuesConfig } from '../config.js';
import { formatTimestamp } from '../time.js';
import type { ApiLabel, ApiMilestone } from './wire-types.js';

/**
 * Renders a label; `ownerPath` is `repos/{owner}/{repo}` for a repository label or
 * `orgs/{org}` for an organization label (it decides `url`).
 *
 * @example
 * renderLabel(bug, 'repos/alice/proj', config).url; // 'http://localhost:3000/api/v1/repos/alice/proj/labels/1'
 */
export function renderLabel(label: LabelRow, ownerPath: string, config: IssuesConfig): ApiLabel {
  return {
    id: label.id,
    name: label.name,
    exclusive: label.exclusive,
    is_archived: label.isArchived,
    color: label.color,
    description: label.description,
    url: `${config.publicUrl}api/v1/${ownerPath}/labels/${label.id}`,
  };
}

/**
 * Renders a milestone; a deadline in year 9999 or later is Gitea's "none" and comes out `null`.
 *
 * @example
 * renderMilestone(v1, config).due_on; // null when the milestone has no due date
 */
export function renderMilestone(milestone: MilestoneRow, config: IssuesConfig): ApiMilestone {
  const tz = config.timeZone;
  const noDue = milestone.deadlineUnix === null || milestone.deadlineUnix >= YEAR_9999_UNIX;
  return {
    id: milestone.id,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    open_issues: milestone.openIssues,
    closed_issues: milestone.closedIssues,
    created_at: formatTimestamp(milestone.createdUnix, tz),
    updated_at: formatTimestamp(milestone.updatedUnix, tz),
    closed_at: milestone.state === 'closed' && milestone.closedUnix !== null ? formatTimestamp(milestone.closedUnix, tz) : null,
    due_on: noDue ? null : formatTimestamp(milestone.deadlineUnix!, tz),
  };
}

/** 9999-01-01T00:00:00Z. */
const YEAR_9999_UNIX = 253370764800;
