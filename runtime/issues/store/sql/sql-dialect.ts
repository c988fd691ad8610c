/**
 * @module The per-engine SQL overrides and capability flags the shared store consults. Everything
 * else (tables, queries, transactions' shape) is written once in the store's parts (`sql-*.ts`); keep this
 * interface small, in the spirit of Kysely's `DialectAdapter`.
 */

import type { IssueStateFilter } from '../store.js';
import { list, type SqlFragment } from './fragment.js';

/** A set of repositories, as those it holds or, when that is shorter, those it leaves out. */
export type RepoSelection = { readonly only: readonly number[] } | { readonly except: readonly number[] };

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
   * Whether a page ranked by `keywordRank` computes the rank in a materialized step before counting
   * the total with a window function. Where the rank reads wide data (PostgreSQL's `search_vector`)
   * the window would otherwise buffer that data for every match and spill it to disk; where it does
   * not (SQLite), the extra step only costs.
   */
  readonly rankBeforeTotal: boolean;
  /**
   * Set when `keywordRank` has just two values, "the title matches" (first) and "only the body
   * does": a condition on `i` that is true for the first tier. The store then pages each tier in
   * index order with a `LIMIT` instead of ranking and sorting every match
   * (docs/storage.md, "What the plans were measured to save"). Leave it out for a graded rank (PostgreSQL's `ts_rank`).
   */
  keywordTitleTier?(words: readonly string[]): SqlFragment;
  /**
   * Set where the planner cannot tell how many issues a keyword matches (FTS5 keeps no
   * statistics): `keywordCondition` written so that it cannot drive the query. The query then
   * walks an index newest first and tests each row against the matches, which stops after a few
   * hundred rows for a common word; the store chooses this form by its own estimate of the rows
   * walked. Leave it out where the planner estimates that itself (PostgreSQL).
   */
  keywordFilter?(words: readonly string[]): SqlFragment;
  /**
   * Set where the full-text index also holds each issue's state and repository: a statement
   * giving `n`, the number of issues matching `words` in `state` within the repositories `repos`,
   * read from the index alone. The store uses it when nothing else filters.
   */
  keywordCount?(words: readonly string[], state: IssueStateFilter, repos: RepoSelection): SqlFragment;
  /**
   * An `IN` operand holding `values` (all numbers or all strings) as one parameter: a JSON array
   * read by `json_each` on SQLite, a `bigint[]`/`text[]` expanded by `unnest` on PostgreSQL. For
   * lists too long to bind one parameter per value (see {@link inList}).
   */
  valueSet(values: readonly number[] | readonly string[]): SqlFragment;
  /**
   * A statement that, run inside a transaction, makes other transactions asking for the same `key`
   * wait until it ends (a uniqueness check before an insert where no unique index can hold). Absent
   * where a write transaction already excludes all others (SQLite's `BEGIN IMMEDIATE`).
   */
  exclusiveLock?(key: string): SqlFragment;
  /**
   * A column expression: the `value`s of the rows `from` (a `FROM … WHERE …` correlated with the
   * outer row), in `orderBy` order, as one value that {@link idList} reads. Lets a row carry its
   * lists (an issue's assignees, labels, review requests) instead of a query per list.
   */
  idArray(value: SqlFragment, from: SqlFragment, orderBy: SqlFragment): SqlFragment;
  /** The numbers of a value {@link idArray} produced, in order. */
  idList(value: unknown): number[];
  /** Refreshes planner statistics after a bulk load (cheap, sampled). */
  readonly analyze: string;
  /** Whether a driver error is a unique-constraint violation. */
  isUniqueViolation(error: unknown): boolean;
  /** Whether a driver error is a foreign-key violation. */
  isForeignKeyViolation(error: unknown): boolean;
}

/**
 * Lists up to this long are bound one parameter per value (`(?, ?, …)`, the form the planners
 * know best); longer ones as one array parameter. Statements hold a few lists at most, so this
 * stays far below the engines' parameter caps (SQLite 32,766, PostgreSQL 65,535).
 */
export const MAX_INLINE_LIST = 500;

/**
 * The `IN` operand for a list of any length: {@link list} for short ones, the dialect's
 * {@link SqlDialect.valueSet} beyond {@link MAX_INLINE_LIST} values (the repositories a search
 * covers, ids or names sent by a client). An empty list matches nothing.
 *
 * @example
 * sql`i.repo_id IN ${inList(dialect, repoIds)}`
 */
export function inList(dialect: SqlDialect, values: readonly number[] | readonly string[]): SqlFragment {
  return values.length <= MAX_INLINE_LIST ? list(values) : dialect.valueSet(values);
}
