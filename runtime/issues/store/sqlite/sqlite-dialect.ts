/**
 * @module SQLite's overrides: FTS5 for keywords, no row locks (the transaction is `IMMEDIATE`),
 * no migration lock beyond that, and better-sqlite3's error codes.
 */

import { isPrefixWord } from '../keyword.js';
import { raw, sql, type SqlFragment } from '../sql/fragment.js';
import type { SqlDialect } from '../sql/sql-dialect.js';

/** FTS5 query text: every word quoted (so `AND`, `NEAR` or `*` are plain words), longer ones prefix-matched. */
function ftsQuery(words: readonly string[]): string {
  return words.map((word) => `"${word.replaceAll('"', '""')}"${isPrefixWord(word) ? '*' : ''}`).join(' ');
}

/** Ids of the issues whose title matches every word (the first tier of relevance). */
function titleMatches(words: readonly string[]): SqlFragment {
  return sql`(SELECT rowid FROM issues_fts WHERE issues_fts MATCH ${`title : (${ftsQuery(words)})`})`;
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
  // document-size lookup per match: 40+ ms for a word in 4,000 issues, against ~1 ms for this set test.
  keywordRank: (words) => sql`(i.id NOT IN ${titleMatches(words)})`,
  keywordTitleTier: (words) => sql`i.id IN ${titleMatches(words)}`,
  // analysis_limit samples each index instead of reading it whole: milliseconds on 100k rows.
  analyze: 'PRAGMA analysis_limit = 1000; ANALYZE;',
  isUniqueViolation: (error) => ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'].includes(sqliteCode(error)),
  isForeignKeyViolation: (error) => sqliteCode(error) === 'SQLITE_CONSTRAINT_FOREIGNKEY',
};
