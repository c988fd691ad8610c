/**
 * @module
 * Reading the filter parameters of the list operations the way Gitea does: lenient state and
 * type, comma-separated lists, the keyword's NUL and space rules, strict RFC 3339 dates (422).
 */
import type { IssueStateFilter, IssueTypeFilter, UnixSeconds } from '../store/store.js';
import { validationError } from './errors.js';
import { parseRfc3339 } from './time.js';

/**
 * `closed` and `all` select those; any other value (or none) means `open`.
 *
 * @example
 * stateFilter('bogus'); // 'open'
 */
export function stateFilter(value: string | undefined): IssueStateFilter {
  return value === 'closed' || value === 'all' ? value : 'open';
}

/**
 * `issues` and `pulls` select those; anything else means both.
 *
 * @example
 * typeFilter('all'); // 'all'
 */
export function typeFilter(value: string | undefined): IssueTypeFilter {
  return value === 'issues' || value === 'pulls' ? value : 'all';
}

/**
 * Splits a comma-separated list, trimming items and dropping empty ones; `undefined` when empty.
 *
 * @example
 * commaList(' bug, ,ui'); // ['bug', 'ui']
 */
export function commaList(value: string | undefined): string[] | undefined {
  const items = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return items.length ? items : undefined;
}

/**
 * The keyword: surrounding spaces trimmed; a value containing NUL is treated as empty.
 *
 * @example
 * normalizeKeyword('  crash '); // 'crash'
 * normalizeKeyword('a\u0000b');  // undefined
 */
export function normalizeKeyword(value: string | undefined): string | undefined {
  if (value === undefined || value.includes('\u0000')) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * Parses `since`/`before`: RFC 3339 or 422 with Go's parse message.
 *
 * @example
 * dateParam('since', '2000-01-01T00:50:01+00:00'); // 946687801
 * dateParam('since', 'yesterday');                  // throws 422
 */
export function dateParam(name: string, value: string | Date | undefined): UnixSeconds | undefined {
  if (value === undefined || value === '') return undefined;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw validationError(`[${name}]: invalid date`);
    return Math.floor(value.getTime() / 1000);
  }
  const parsed = parseRfc3339(value);
  if (!parsed) throw validationError(`parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse ${name}`);
  return parsed.unix;
}
