/**
 * @module PostgreSQL's overrides: `tsvector` search with prefix `tsquery`, `FOR UPDATE` row locks,
 * a transaction-scoped advisory lock around migrations, and SQLSTATE error codes.
 */

import { isPrefixWord } from '../keyword.js';
import { raw, sql } from '../sql/fragment.js';
import type { SqlDialect } from '../sql/sql-dialect.js';

/** Chosen once; `pg_advisory_xact_lock(key, hashtext(schema))` scopes it to one schema. */
const MIGRATION_LOCK_KEY = 0x4c6f6f6d; // 'Loom'
/** The key space of `exclusiveLock`, apart from the migration lock's. */
const EXCLUSIVE_LOCK_KEY = 0x4c6f6f6e;

/** `'word':* & 'ab'`: longer words prefix-matched, short ones exact; words hold only letters and digits. */
function tsQuery(words: readonly string[]): string {
  return words.map((word) => `'${word.replaceAll("'", "''")}'${isPrefixWord(word) ? ':*' : ''}`).join(' & ');
}

function sqlState(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
}

export const postgresDialect: SqlDialect = {
  engine: 'postgres',
  forUpdate: raw(' FOR UPDATE'),
  migrationLock: () => sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY}::int, hashtext(current_schema()))`,
  keywordCondition: (words) => sql`i.search_vector @@ to_tsquery('simple', ${tsQuery(words)})`,
  // ts_rank weighs the title (weight A) above the body (B); evaluated only for matching rows.
  keywordRank: (words) => sql`-ts_rank(i.search_vector, to_tsquery('simple', ${tsQuery(words)}))`,
  rankBeforeTotal: true,
  // pg sends a JS array as an array literal; the cast gives it its element type.
  valueSet: (values) =>
    typeof values[0] === 'string' ? sql`(SELECT unnest(${values}::text[]))` : sql`(SELECT unnest(${values}::bigint[]))`,
  idArray: (value, from, orderBy) => sql`ARRAY(SELECT ${value} ${from} ORDER BY ${orderBy})`,
  // pg parses bigint[] to strings (only the scalar bigint parser is set to numbers).
  idList: (value) => (value as readonly (string | number)[]).map(Number),
  // Keyed per schema, like the migration lock, so that test schemas never wait for each other.
  exclusiveLock: (key) => sql`SELECT pg_advisory_xact_lock(${EXCLUSIVE_LOCK_KEY}::int, hashtext(current_schema() || '/' || ${key}))`,
  analyze: 'ANALYZE',
  isUniqueViolation: (error) => sqlState(error) === '23505',
  isForeignKeyViolation: (error) => sqlState(error) === '23503',
};
