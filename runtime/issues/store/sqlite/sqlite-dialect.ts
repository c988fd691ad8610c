/**
 * @module SQLite's overrides: FTS5 for keywords, no row locks (the transaction is `IMMEDIATE`),
 * no migration lock beyond that, and better-sqlite3's error codes.
 */

import { isPrefixWord } from '../keyword.js';
import { raw, type SqlFragment, sql } from '../sql/fragment.js';
import type { RepoSelection, SqlDialect } from '../sql/sql-dialect.js';
import type { IssueStateFilter } from '../store.js';

/** FTS5 query words: each quoted (so `AND`, `NEAR` or `*` are plain words), longer ones prefix-matched. */
function ftsWords(words: readonly string[]): string {
  return words.map((word) => `"${word.replaceAll('"', '""')}"${isPrefixWord(word) ? '*' : ''}`).join(' ');
}

/**
 * FTS5 query text for a keyword: every word, in the title or the body. The index's third column
 * (`facets`, state and repository tokens, migration 4) is never searched for a user's words.
 */
function ftsQuery(words: readonly string[]): string {
  return `{title body} : (${ftsWords(words)})`;
}

/** Ids of the issues whose title matches every word (the first tier of relevance). */
function titleMatches(words: readonly string[]): SqlFragment {
  return sql`(SELECT rowid FROM issues_fts WHERE issues_fts MATCH ${`title : (${ftsWords(words)})`})`;
}

/** `facets` tokens for repositories: `"r12" OR "r15"`. */
function repoTokens(ids: readonly number[]): string {
  return ids.map((id) => `"r${Math.trunc(id)}"`).join(' OR ');
}

/**
 * The keyword's matches among the issues in `state` within `repos`, counted by FTS5 from its
 * posting lists. Leaving out a few repositories (`NOT`) or keeping a few (`OR`) both stay cheap;
 * the store asks only then.
 */
function keywordCount(words: readonly string[], state: IssueStateFilter, repos: RepoSelection): SqlFragment {
  let query = ftsQuery(words);
  if (state !== 'all') query = `${query} AND facets : "${state === 'closed' ? 'closed' : 'open'}"`;
  if ('only' in repos) query = `${query} AND facets : (${repoTokens(repos.only)})`;
  else if (repos.except.length > 0) query = `(${query}) NOT facets : (${repoTokens(repos.except)})`;
  return sql`SELECT COUNT(*) AS n FROM issues_fts WHERE issues_fts MATCH ${query}`;
}

function sqliteCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
}

export const sqliteDialect: SqlDialect = {
  engine: 'sqlite',
  forUpdate: raw(''),
  migrationLock: () => undefined,
  keywordCondition: (words) => sql`i.id IN (SELECT rowid FROM issues_fts WHERE issues_fts MATCH ${ftsQuery(words)})`,
  // Title matches first (0), body-only matches after (1). bm25() would rank finer but costs a
  // document-size lookup per match, tens of times this set test (docs/storage.md, "Full-text index").
  keywordRank: (words) => sql`(i.id NOT IN ${titleMatches(words)})`,
  rankBeforeTotal: false,
  keywordTitleTier: (words) => sql`i.id IN ${titleMatches(words)}`,
  // The unary `+` keeps SQLite from driving the query by the matches: it walks the state's index
  // in `ORDER BY` order and probes the matches (a bloom filter, then a lookup) for each row.
  keywordFilter: (words) => sql`+i.id IN (SELECT rowid FROM issues_fts WHERE issues_fts MATCH ${ftsQuery(words)})`,
  keywordCount,
  valueSet: (values) => sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`,
  // An aggregate's own ORDER BY (SQLite 3.44): a subquery's order is not promised to reach it.
  idArray: (value, from, orderBy) => sql`(SELECT group_concat(${value}, ',' ORDER BY ${orderBy}) ${from})`,
  idList: (value) => (value === null ? [] : (value as string).split(',').map(Number)),
  // analysis_limit samples each index instead of reading it whole: milliseconds on 100k rows.
  analyze: 'PRAGMA analysis_limit = 1000; ANALYZE;',
  isUniqueViolation: (error) => ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'].includes(sqliteCode(error)),
  isForeignKeyViolation: (error) => sqliteCode(error) === 'SQLITE_CONSTRAINT_FOREIGNKEY',
};
