/**
 * @module
 * The JSON objects the Issues API sends, key for key as Gitea 1.25.3 renders them (notes §1).
 * Every key is always present; `null` only where Gitea's Go code emits it.
 */

/** RFC 3339 timestamp without fractional seconds, in the server zone. */
export type Timestamp = string;

export interface ApiUser {
  id: number;
  login: string;
  login_name: string;
  source_id: number;
  full_name: string;
  email: string;
  avatar_url: string;
  html_url: string;
  language: string;
  is_admin: boolean;
  last_login: Timestamp;
  created: Timestamp;
  restricted: boolean;
  active: boolean;
  prohibit_login: boolean;
  location: string;
  website: string;
  description: string;
  visibility: string;
  followers_count: number;
  following_count: number;
  starred_repos_count: number;
  /** Same as `login` (Gitea's custom marshaller adds it). */
  username: string;
}

export interface ApiLabel {
  id: number;
  name: string;
  exclusive: boolean;
  is_archived: boolean;
  color: string;
  description: string;
  url: string;
}

export interface ApiMilestone {
  id: number;
  title: string;
  description: string;
  state: 'open' | 'closed';
  open_issues: number;
  closed_issues: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  closed_at: Timestamp | null;
  due_on: Timestamp | null;
}

export interface ApiPullRequestMeta {
  merged: boolean;
  merged_at: Timestamp | null;
  draft: boolean;
  html_url: string;
}

export interface ApiRepositoryMeta {
  id: number;
  name: string;
  owner: string;
  full_name: string;
}

export interface ApiIssue {
  id: number;
  url: string;
  html_url: string;
  number: number;
  user: ApiUser;
  original_author: string;
  original_author_id: number;
  title: string;
  body: string;
  ref: string;
  /** Loom stores no attachments: always empty. */
  assets: never[];
  labels: ApiLabel[];
  milestone: ApiMilestone | null;
  assignee: ApiUser | null;
  assignees: ApiUser[] | null;
  state: 'open' | 'closed';
  is_locked: boolean;
  comments: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  closed_at: Timestamp | null;
  due_date: Timestamp | null;
  time_estimate: number;
  pull_request: ApiPullRequestMeta | null;
  repository: ApiRepositoryMeta;
  pin_order: number;
}

export interface ApiIssueDeadline {
  due_date: Timestamp;
}

export interface ApiPermission {
  admin: boolean;
  push: boolean;
  pull: boolean;
}

export interface ApiRepository {
  id: number;
  owner: ApiUser;
  name: string;
  full_name: string;
  description: string;
  empty: boolean;
  private: boolean;
  fork: boolean;
  template: boolean;
  parent: null;
  mirror: boolean;
  size: number;
  language: string;
  languages_url: string;
  html_url: string;
  url: string;
  link: string;
  ssh_url: string;
  clone_url: string;
  original_url: string;
  website: string;
  stars_count: number;
  forks_count: number;
  watchers_count: number;
  open_issues_count: number;
  open_pr_counter: number;
  release_counter: number;
  default_branch: string;
  archived: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: Timestamp;
  permissions: ApiPermission;
  has_issues: boolean;
  internal_tracker: { enable_time_tracker: boolean; allow_only_contributors_to_track_time: boolean; enable_issue_dependencies: boolean };
  has_wiki: boolean;
  has_pull_requests: boolean;
  has_projects: boolean;
  has_releases: boolean;
  has_packages: boolean;
  has_actions: boolean;
  ignore_whitespace_conflicts: boolean;
  allow_merge_commits: boolean;
  allow_rebase: boolean;
  allow_rebase_explicit: boolean;
  allow_squash_merge: boolean;
  allow_fast_forward_only_merge: boolean;
  allow_rebase_update: boolean;
  default_delete_branch_after_merge: boolean;
  default_merge_style: string;
  default_allow_maintainer_edit: boolean;
  avatar_url: string;
  internal: boolean;
  mirror_interval: string;
  object_format_name: 'sha1' | 'sha256';
  mirror_updated: Timestamp;
  repo_transfer: null;
  topics: string[] | null;
  licenses: string[] | null;
}

export interface ApiOrganization {
  id: number;
  name: string;
  full_name: string;
  email: string;
  avatar_url: string;
  description: string;
  website: string;
  location: string;
  visibility: string;
  repo_admin_change_team_access: boolean;
  /** Deprecated duplicate of `name`, still sent by Gitea. */
  username: string;
}

export interface ApiAccessToken {
  id: number;
  name: string;
  /** The secret; only ever shown in this response. */
  sha1: string;
  token_last_eight: string;
  scopes: string[];
  created_at: Timestamp;
  last_used_at: Timestamp;
}

export interface ApiBranchInfo {
  label: string;
  ref: string;
  sha: string;
  repo_id: number;
  repo: ApiRepository;
}

export interface ApiPullRequest {
  id: number;
  url: string;
  number: number;
  user: ApiUser;
  title: string;
  body: string;
  labels: ApiLabel[];
  milestone: ApiMilestone | null;
  assignee: ApiUser | null;
  assignees: ApiUser[] | null;
  requested_reviewers: ApiUser[] | null;
  requested_reviewers_teams: null;
  state: 'open' | 'closed';
  draft: boolean;
  is_locked: boolean;
  comments: number;
  review_comments: number;
  additions: number;
  deletions: number;
  changed_files: number;
  html_url: string;
  diff_url: string;
  patch_url: string;
  mergeable: boolean;
  merged: boolean;
  merged_at: Timestamp | null;
  merge_commit_sha: null;
  merged_by: null;
  allow_maintainer_edit: boolean;
  base: ApiBranchInfo;
  head: ApiBranchInfo;
  merge_base: string;
  due_date: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  closed_at: Timestamp | null;
  pin_order: number;
}

export interface ApiPullReview {
  id: number;
  user: ApiUser | null;
  team: null;
  state: 'REQUEST_REVIEW';
  body: string;
  commit_id: string;
  stale: boolean;
  official: boolean;
  dismissed: boolean;
  comments_count: number;
  submitted_at: Timestamp;
  updated_at: Timestamp;
  html_url: string;
  pull_request_url: string;
}
