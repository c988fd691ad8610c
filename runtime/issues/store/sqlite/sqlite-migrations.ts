/**
 * @module The SQLite schema, as versioned steps. Tables and columns match `postgres-migrations.ts`
 * name for name; only types and the full-text index differ (FTS5 kept in sync by triggers).
 */

import type { Migration } from '../sql/migration.js';

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'issues schema',
    script: `
CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  lower_name TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL CHECK (type IN ('user', 'org')),
  full_name TEXT NOT NULL DEFAULT '',
  email TEXT NOT NULL DEFAULT '',
  password_hash TEXT,
  is_admin INTEGER NOT NULL DEFAULT 0,
  description TEXT NOT NULL DEFAULT '',
  website TEXT NOT NULL DEFAULT '',
  location TEXT NOT NULL DEFAULT '',
  visibility TEXT NOT NULL DEFAULT 'public',
  created_unix INTEGER NOT NULL,
  updated_unix INTEGER NOT NULL,
  last_login_unix INTEGER
);
CREATE TABLE access_tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  token_last_eight TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_unix INTEGER NOT NULL,
  updated_unix INTEGER NOT NULL,
  UNIQUE (user_id, name)
);
CREATE TABLE org_owners (
  org_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX org_owners_user ON org_owners (user_id);
CREATE TABLE repos (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  owner_id INTEGER NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  lower_name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  is_private INTEGER NOT NULL DEFAULT 0,
  is_archived INTEGER NOT NULL DEFAULT 0,
  next_index INTEGER NOT NULL DEFAULT 0,
  num_issues INTEGER NOT NULL DEFAULT 0,
  num_closed_issues INTEGER NOT NULL DEFAULT 0,
  num_pulls INTEGER NOT NULL DEFAULT 0,
  num_closed_pulls INTEGER NOT NULL DEFAULT 0,
  created_unix INTEGER NOT NULL,
  updated_unix INTEGER NOT NULL,
  UNIQUE (owner_id, lower_name)
);
CREATE TABLE collaborators (
  repo_id INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  permission TEXT NOT NULL CHECK (permission IN ('read', 'write', 'admin')),
  PRIMARY KEY (repo_id, user_id)
);
CREATE INDEX collaborators_user ON collaborators (user_id);
CREATE TABLE labels (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  repo_id INTEGER REFERENCES repos(id) ON DELETE CASCADE,
  org_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  color TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  exclusive INTEGER NOT NULL DEFAULT 0,
  is_archived INTEGER NOT NULL DEFAULT 0,
  CHECK ((repo_id IS NULL) <> (org_id IS NULL))
);
CREATE UNIQUE INDEX labels_repo_name ON labels (repo_id, name) WHERE repo_id IS NOT NULL;
CREATE UNIQUE INDEX labels_org_name ON labels (org_id, name) WHERE org_id IS NOT NULL;
CREATE INDEX labels_name ON labels (name);
CREATE TABLE milestones (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  repo_id INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  is_closed INTEGER NOT NULL DEFAULT 0,
  created_unix INTEGER NOT NULL,
  updated_unix INTEGER NOT NULL,
  closed_unix INTEGER,
  deadline_unix INTEGER
);
CREATE INDEX milestones_repo_title ON milestones (repo_id, title);
CREATE TABLE issues (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  repo_id INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  poster_id INTEGER NOT NULL REFERENCES users(id),
  title TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  ref TEXT NOT NULL DEFAULT '',
  is_closed INTEGER NOT NULL DEFAULT 0,
  is_locked INTEGER NOT NULL DEFAULT 0,
  is_pull INTEGER NOT NULL DEFAULT 0,
  pr_merged INTEGER NOT NULL DEFAULT 0,
  pr_merged_unix INTEGER,
  pr_draft INTEGER NOT NULL DEFAULT 0,
  milestone_id INTEGER REFERENCES milestones(id) ON DELETE SET NULL,
  deadline_unix INTEGER,
  num_comments INTEGER NOT NULL DEFAULT 0,
  pin_order INTEGER NOT NULL DEFAULT 0,
  time_estimate INTEGER NOT NULL DEFAULT 0,
  created_unix INTEGER NOT NULL,
  updated_unix INTEGER NOT NULL,
  closed_unix INTEGER,
  UNIQUE (repo_id, idx)
);
CREATE INDEX issues_repo_state_created ON issues (repo_id, is_closed, created_unix DESC, id DESC);
CREATE INDEX issues_state_created ON issues (is_closed, created_unix DESC, id DESC);
CREATE INDEX issues_poster ON issues (poster_id, created_unix DESC);
CREATE INDEX issues_milestone ON issues (milestone_id) WHERE milestone_id IS NOT NULL;
CREATE INDEX issues_updated ON issues (updated_unix);
CREATE TABLE issue_assignees (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (issue_id, user_id)
);
CREATE INDEX issue_assignees_user ON issue_assignees (user_id, issue_id);
CREATE TABLE issue_labels (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
  PRIMARY KEY (issue_id, label_id)
);
CREATE INDEX issue_labels_label ON issue_labels (label_id, issue_id);
CREATE TABLE issue_mentions (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (issue_id, user_id)
);
CREATE INDEX issue_mentions_user ON issue_mentions (user_id, issue_id);
CREATE TABLE review_requests (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (issue_id, user_id)
);
CREATE INDEX review_requests_user ON review_requests (user_id, issue_id);
CREATE TABLE comments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  poster_id INTEGER NOT NULL REFERENCES users(id),
  type TEXT NOT NULL CHECK (type IN ('comment', 'title', 'state')),
  body TEXT NOT NULL DEFAULT '',
  old_value TEXT,
  new_value TEXT,
  created_unix INTEGER NOT NULL,
  updated_unix INTEGER NOT NULL
);
CREATE INDEX comments_issue ON comments (issue_id, id);
CREATE TABLE issue_dependencies (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  blocked_by_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  created_unix INTEGER NOT NULL,
  PRIMARY KEY (issue_id, blocked_by_id),
  CHECK (issue_id <> blocked_by_id)
);
CREATE INDEX issue_dependencies_blocked_by ON issue_dependencies (blocked_by_id, issue_id);

-- External-content FTS5 index over title and body, kept in sync by triggers so that every write
-- path (single creates, bulk imports, edits) updates it inside the same transaction.
CREATE VIRTUAL TABLE issues_fts USING fts5(
  title, body, content='issues', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);
CREATE TRIGGER issues_fts_insert AFTER INSERT ON issues BEGIN
  INSERT INTO issues_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TRIGGER issues_fts_delete AFTER DELETE ON issues BEGIN
  INSERT INTO issues_fts (issues_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
END;
CREATE TRIGGER issues_fts_update AFTER UPDATE OF title, body ON issues BEGIN
  INSERT INTO issues_fts (issues_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
  INSERT INTO issues_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
`,
  },
  {
    version: 2,
    name: 'covering index for searches',
    // Keyword matches and filters visit many rows to find one page; reading them from this index
    // instead of the table (whose rows carry the bodies) makes a 4,000-match search ~2.5x faster.
    script:
      `
CREATE INDEX issues_search_cover ON issues (id, repo_id, is_closed, is_pull, created_unix, updated_unix, ` +
      `num_comments, poster_id, milestone_id);
`,
  },
  {
    version: 3,
    name: 'index-only list filters and milestone counts',
    // A repository's list filters on state and type together (`?state=open&type=issues`); with
    // `is_pull` in the index the rows are filtered without reading the table. Milestone JSON counts
    // open and closed issues per milestone; with `is_closed` beside `milestone_id` both counts come
    // from the index (what each saves: docs/storage.md, "What the plans were measured to save").
    // Each new index covers every query the one it replaces served.
    script: `
DROP INDEX issues_repo_state_created;
CREATE INDEX issues_repo_state_type_created ON issues (repo_id, is_closed, is_pull, created_unix DESC, id DESC);
DROP INDEX issues_milestone;
CREATE INDEX issues_milestone_state ON issues (milestone_id, is_closed) WHERE milestone_id IS NOT NULL;
`,
  },
  {
    version: 4,
    name: 'state and repository in the full-text index',
    // A search's total counts the matches of a word among the open (or closed) issues of the
    // repositories the caller sees. With state and repository as tokens of a third FTS column
    // (`facets`: `r<repo id> open|closed`), FTS5 counts them by merging its posting lists instead
    // of looking every match up in `issues` (docs/storage.md, "What the plans were measured to save").
    // The index is external-content over a view that computes the column;
    // the triggers compute it the same way, and also follow state changes. Rebuilt once from the view.
    script: `
DROP TRIGGER issues_fts_insert;
DROP TRIGGER issues_fts_delete;
DROP TRIGGER issues_fts_update;
DROP TABLE issues_fts;
CREATE VIEW issues_fts_content AS
  SELECT id, title, body, 'r' || repo_id || CASE WHEN is_closed THEN ' closed' ELSE ' open' END AS facets FROM issues;
CREATE VIRTUAL TABLE issues_fts USING fts5(
  title, body, facets, content='issues_fts_content', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);
INSERT INTO issues_fts (issues_fts) VALUES ('rebuild');
CREATE TRIGGER issues_fts_insert AFTER INSERT ON issues BEGIN
  INSERT INTO issues_fts (rowid, title, body, facets)
  VALUES (new.id, new.title, new.body, 'r' || new.repo_id || CASE WHEN new.is_closed THEN ' closed' ELSE ' open' END);
END;
CREATE TRIGGER issues_fts_delete AFTER DELETE ON issues BEGIN
  INSERT INTO issues_fts (issues_fts, rowid, title, body, facets)
  VALUES ('delete', old.id, old.title, old.body, 'r' || old.repo_id || CASE WHEN old.is_closed THEN ' closed' ELSE ' open' END);
END;
CREATE TRIGGER issues_fts_update AFTER UPDATE OF title, body, is_closed, repo_id ON issues BEGIN
  INSERT INTO issues_fts (issues_fts, rowid, title, body, facets)
  VALUES ('delete', old.id, old.title, old.body, 'r' || old.repo_id || CASE WHEN old.is_closed THEN ' closed' ELSE ' open' END);
  INSERT INTO issues_fts (rowid, title, body, facets)
  VALUES (new.id, new.title, new.body, 'r' || new.repo_id || CASE WHEN new.is_closed THEN ' closed' ELSE ' open' END);
END;
`,
  },
];
