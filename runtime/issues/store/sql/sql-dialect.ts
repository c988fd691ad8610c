/**
 * @module The per-engine SQL overrides and capability flags the shared store consults. Everything
 * else (tables, queries, transactions' shape) is written once in `sql-store.ts`; keep this
 * interface small, in the spirit of Kysely's `DialectAdapter`.
 */

import type { SqlFragment } from './fragment.js';

export interface SqlDialect {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * Appended to a `SELECT` that reads a row the transaction will update: `FOR UPDATE` on
   * PostgreSQL; empty on SQLite, where `BEGIN IMMEDIATE` already holds the write lock.
   */
  readonly forUpdate: SqlFragment;
  /** Statement run first inside the migration transaction to keep other instances out. */
  migrationLock(): SqlFragment | undefined;
  /**
   * A condition on the issue alias `i`: the issue matches every word (prefix match) of the
   * full-text index. `words` are already reduced to letters and digits.
   */
  keywordCondition(words: readonly string[]): SqlFragment;
  /**
   * An expression on `i` ordering keyword matches best first when sorted ascending (title matches
   * above body matches). Only evaluated for rows that passed `keywordCondition`.
   */
  keywordRank(words: readonly string[]): SqlFragment;
  /**
   * Set when `keywordRank` has just two values, "the title matches" (first) and "only the body
   * does": a condition on `i` that is true for the first tier. The store then pages each tier in
   * index order with a `LIMIT` instead of ranking and sorting every match (SQLite, a word in
   * 10,000 of 100,000 issues: 7.0 → 6.6 ms CPU; the total's count is the rest). Leave it out for a
   * graded rank (PostgreSQL's `ts_rank`).
   */
  keywordTitleTier?(words: readonly string[]): SqlFragment;
  /** Refreshes planner statistics after a bulk load (cheap, sampled). */
  readonly analyze: string;
  /** Whether a driver error is a unique-constraint violation. */
  isUniqueViolation(error: unknown): boolean;
  /** Whether a driver error is a foreign-key violation. */
  isForeignKeyViolation(error: unknown): boolean;
}
