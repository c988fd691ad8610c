/**
 * @module The PostgreSQL schema, as versioned steps. Tables and columns match `sqlite-migrations.ts`
 * name for name; only types (BIGSERIAL, BOOLEAN) and the full-text index differ: a generated
 * `tsvector` column (title weighted above body) with a GIN index.
 */

import { ACCENT_FOLDS, DROPPED_MARKS, SEPARATORS } from '../keyword.js';
import type { Migration } from '../sql/migration.js';

/**
 * The most characters of the title and of the body the `tsvector` holds. A `tsvector` stores at
 * most 1 MiB of lexemes and positions (more is the error "string is too long for tsvector"), and
 * each character of text costs it at most 4 bytes (a one-character word of a 4-byte character:
 * the character, a position count and one position), so 4,096 + 258,000 characters always fit.
 * Words past these prefixes are stored but not found by keyword on PostgreSQL.
 */
export const INDEXED_TITLE_CHARS = 4096;
export const INDEXED_BODY_CHARS = 258_000;

/**
 * The body of `loom_search_text(t)`: accented letters folded to their ASCII letter and dropped
 * marks removed, then every run of separators made one space. Built of regular expressions, each
 * one pass over the text whatever the size of its character class: a single `translate()` over
 * the ~600 characters compares each character of the text with each of them, some twenty times
 * slower (docs/storage.md, "Full-text index"). Texts without any accented letter or dropped mark (most) skip the
 * folding passes.
 */
function searchTextSql(): string {
  // `]`, `\`, `^`, `-` and `[` are escaped inside a bracket expression; the other characters are literal.
  const bracket = (chars: string) => `[${[...chars].map((c) => (']\\^-['.includes(c) ? `\\${c}` : c)).join('')}]`;
  let folded = 't';
  for (const [base, letters] of Object.entries(ACCENT_FOLDS))
    folded = `regexp_replace(${folded}, $r$${bracket(letters)}$r$, '${base}', 'g')`;
  folded = `regexp_replace(${folded}, $r$${bracket(DROPPED_MARKS)}$r$, '', 'g')`;
  const accented = bracket(Object.values(ACCENT_FOLDS).join('') + DROPPED_MARKS);
  return `SELECT regexp_replace(CASE WHEN t ~ $r$${accented}$r$ THEN ${folded} ELSE t END, $r$${bracket(SEPARATORS)}+$r$, ' ', 'g')`;
}

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'issues schema',
    script: `
CREATE TABLE users (
  id BIGSERIAL PRIMARY KEY,
  name TEXT NOT NULL,
  lower_name TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL CHECK (type IN ('user', 'org')),
  full_name TEXT NOT NULL DEFAULT '',
  email TEXT NOT NULL DEFAULT '',
  password_hash TEXT,
  is_admin BOOLEAN NOT NULL DEFAULT FALSE,
  description TEXT NOT NULL DEFAULT '',
  website TEXT NOT NULL DEFAULT '',
  location TEXT NOT NULL DEFAULT '',
  visibility TEXT NOT NULL DEFAULT 'public',
  created_unix BIGINT NOT NULL,
  updated_unix BIGINT NOT NULL,
  last_login_unix BIGINT
);
CREATE TABLE access_tokens (
  id BIGSERIAL PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  token_last_eight TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_unix BIGINT NOT NULL,
  updated_unix BIGINT NOT NULL,
  UNIQUE (user_id, name)
);
CREATE TABLE org_owners (
  org_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX org_owners_user ON org_owners (user_id);
CREATE TABLE repos (
  id BIGSERIAL PRIMARY KEY,
  owner_id BIGINT NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  lower_name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  is_private BOOLEAN NOT NULL DEFAULT FALSE,
  is_archived BOOLEAN NOT NULL DEFAULT FALSE,
  next_index BIGINT NOT NULL DEFAULT 0,
  num_issues BIGINT NOT NULL DEFAULT 0,
  num_closed_issues BIGINT NOT NULL DEFAULT 0,
  num_pulls BIGINT NOT NULL DEFAULT 0,
  num_closed_pulls BIGINT NOT NULL DEFAULT 0,
  created_unix BIGINT NOT NULL,
  updated_unix BIGINT NOT NULL,
  UNIQUE (owner_id, lower_name)
);
CREATE TABLE collaborators (
  repo_id BIGINT NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  permission TEXT NOT NULL CHECK (permission IN ('read', 'write', 'admin')),
  PRIMARY KEY (repo_id, user_id)
);
CREATE INDEX collaborators_user ON collaborators (user_id);
CREATE TABLE labels (
  id BIGSERIAL PRIMARY KEY,
  repo_id BIGINT REFERENCES repos(id) ON DELETE CASCADE,
  org_id BIGINT REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  color TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  exclusive BOOLEAN NOT NULL DEFAULT FALSE,
  is_archived BOOLEAN NOT NULL DEFAULT FALSE,
  CHECK ((repo_id IS NULL) <> (org_id IS NULL))
);
CREATE UNIQUE INDEX labels_repo_name ON labels (repo_id, name) WHERE repo_id IS NOT NULL;
CREATE UNIQUE INDEX labels_org_name ON labels (org_id, name) WHERE org_id IS NOT NULL;
CREATE INDEX labels_name ON labels (name);
CREATE TABLE milestones (
  id BIGSERIAL PRIMARY KEY,
  repo_id BIGINT NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  is_closed BOOLEAN NOT NULL DEFAULT FALSE,
  created_unix BIGINT NOT NULL,
  updated_unix BIGINT NOT NULL,
  closed_unix BIGINT,
  deadline_unix BIGINT
);
CREATE INDEX milestones_repo_title ON milestones (repo_id, title);
CREATE TABLE issues (
  id BIGSERIAL PRIMARY KEY,
  repo_id BIGINT NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
  idx BIGINT NOT NULL,
  poster_id BIGINT NOT NULL REFERENCES users(id),
  title TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  ref TEXT NOT NULL DEFAULT '',
  is_closed BOOLEAN NOT NULL DEFAULT FALSE,
  is_locked BOOLEAN NOT NULL DEFAULT FALSE,
  is_pull BOOLEAN NOT NULL DEFAULT FALSE,
  pr_merged BOOLEAN NOT NULL DEFAULT FALSE,
  pr_merged_unix BIGINT,
  pr_draft BOOLEAN NOT NULL DEFAULT FALSE,
  milestone_id BIGINT REFERENCES milestones(id) ON DELETE SET NULL,
  deadline_unix BIGINT,
  num_comments BIGINT NOT NULL DEFAULT 0,
  pin_order BIGINT NOT NULL DEFAULT 0,
  time_estimate BIGINT NOT NULL DEFAULT 0,
  created_unix BIGINT NOT NULL,
  updated_unix BIGINT NOT NULL,
  closed_unix BIGINT,
  UNIQUE (repo_id, idx)
);
CREATE INDEX issues_repo_state_created ON issues (repo_id, is_closed, created_unix DESC, id DESC);
CREATE INDEX issues_state_created ON issues (is_closed, created_unix DESC, id DESC);
CREATE INDEX issues_poster ON issues (poster_id, created_unix DESC);
CREATE INDEX issues_milestone ON issues (milestone_id) WHERE milestone_id IS NOT NULL;
CREATE INDEX issues_updated ON issues (updated_unix);
CREATE TABLE issue_assignees (
  issue_id BIGINT NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  position BIGINT NOT NULL,
  PRIMARY KEY (issue_id, user_id)
);
CREATE INDEX issue_assignees_user ON issue_assignees (user_id, issue_id);
CREATE TABLE issue_labels (
  issue_id BIGINT NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  label_id BIGINT NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
  PRIMARY KEY (issue_id, label_id)
);
CREATE INDEX issue_labels_label ON issue_labels (label_id, issue_id);
CREATE TABLE issue_mentions (
  issue_id BIGINT NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (issue_id, user_id)
);
CREATE INDEX issue_mentions_user ON issue_mentions (user_id, issue_id);
CREATE TABLE review_requests (
  issue_id BIGINT NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (issue_id, user_id)
);
CREATE INDEX review_requests_user ON review_requests (user_id, issue_id);
CREATE TABLE comments (
  id BIGSERIAL PRIMARY KEY,
  issue_id BIGINT NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  poster_id BIGINT NOT NULL REFERENCES users(id),
  type TEXT NOT NULL CHECK (type IN ('comment', 'title', 'state')),
  body TEXT NOT NULL DEFAULT '',
  old_value TEXT,
  new_value TEXT,
  created_unix BIGINT NOT NULL,
  updated_unix BIGINT NOT NULL
);
CREATE INDEX comments_issue ON comments (issue_id, id);
CREATE TABLE issue_dependencies (
  issue_id BIGINT NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  blocked_by_id BIGINT NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  created_unix BIGINT NOT NULL,
  PRIMARY KEY (issue_id, blocked_by_id),
  CHECK (issue_id <> blocked_by_id)
);
CREATE INDEX issue_dependencies_blocked_by ON issue_dependencies (blocked_by_id, issue_id);

-- Full-text search: a stored generated tsvector ('simple' configuration: no stemming, so results
-- match SQLite's unicode61 tokenizer; words are prefix-matched at query time), title weighted A.
ALTER TABLE issues ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', body), 'B')
) STORED;
CREATE INDEX issues_search ON issues USING GIN (search_vector);
`,
  },
  {
    version: 2,
    name: 'index-only list filters and milestone counts',
    // As SQLite's step 3: state and type filtered from one index, milestone counts index-only.
    script: `
DROP INDEX issues_repo_state_created;
CREATE INDEX issues_repo_state_type_created ON issues (repo_id, is_closed, is_pull, created_unix DESC, id DESC);
DROP INDEX issues_milestone;
CREATE INDEX issues_milestone_state ON issues (milestone_id, is_closed) WHERE milestone_id IS NOT NULL;
`,
  },
  {
    version: 3,
    name: 'search words as SQLite and the query side see them, bounded',
    // Migration 1's comment claims this vector matched SQLite's words; it did not (released
    // migrations stay as they were run, so the correction is here). The query side reduces a
    // keyword to letters and digits, folding accents (keyword.ts), and so
    // does SQLite's FTS5 on both sides; PostgreSQL's default parser instead indexed
    // `alice@example.com`, `example.org/path`, `/usr/lib/foo.so`, `main.ts` and `v1.2.3` as single
    // tokens and `café` with its accent, so such words were never found. `loom_search_text` folds
    // accents with the fixed table of keyword.ts (no `unaccent`: an extension may not be
    // installable) and turns separators into spaces, independent of the database's locale for
    // ASCII and Latin text. The vector also indexes bounded prefixes (INDEXED_*_CHARS): a body of
    // many distinct words under the 1 MiB request limit made an insert fail with "string is too
    // long for tsvector". Re-adding the column rewrites the table once (how long: docs/storage.md,
    // "Migrations").
    script: `
CREATE FUNCTION loom_search_text(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $body$ ${searchTextSql()} $body$;
DROP INDEX issues_search;
ALTER TABLE issues DROP COLUMN search_vector;
ALTER TABLE issues ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple', loom_search_text(left(title, ${INDEXED_TITLE_CHARS}))), 'A') ||
  setweight(to_tsvector('simple', loom_search_text(left(body, ${INDEXED_BODY_CHARS}))), 'B')
) STORED;
CREATE INDEX issues_search ON issues USING GIN (search_vector);
`,
  },
];
