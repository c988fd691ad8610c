/**
 * @module The longest values the store keeps, Gitea's field sizes: what its request bindings
 * allow (`MaxSize(40)` for a user name) and, where they allow anything, what its columns hold
 * (xorm makes a Go `string` a `VARCHAR(255)`). Both engines check them before writing, so that an
 * oversized value is the same `too_long` error on SQLite (which would store it) and PostgreSQL
 * (whose btree indexes refuse entries past ~2,700 bytes, a 500 before). Texts Gitea keeps in
 * `TEXT` columns (issue and comment bodies, milestone descriptions) have no limit here: the API's
 * request body limit bounds them.
 */

import { IssueStoreError } from './store.js';

/**
 * The limits, in characters (Unicode code points, as Gitea's `MaxSize` and SQL's `VARCHAR(n)`
 * count them).
 *
 * @example
 * FIELD_LIMITS.labelName; // 255
 */
export const FIELD_LIMITS = {
  /** User and organization names (Gitea's `MaxSize(40)`). */
  userName: 40,
  email: 254,
  fullName: 100,
  /** Descriptions of users and organizations. */
  description: 255,
  website: 255,
  location: 50,
  repoDescription: 2048,
  tokenName: 255,
  /** Each scope of a token. */
  tokenScope: 255,
  labelName: 255,
  labelDescription: 255,
  milestoneTitle: 255,
  issueTitle: 255,
  issueRef: 255,
} as const;

/** A field of {@link FIELD_LIMITS}. */
export type LimitedField = keyof typeof FIELD_LIMITS;

/**
 * The number of code points in `text`, counting no further than `stop` (a value longer than that
 * is not walked to its end).
 */
function codePoints(text: string, stop: number): number {
  let count = 0;
  for (let i = 0; i < text.length && count <= stop; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * Throws `IssueStoreError('too_long')` when `value` has more characters than `field` allows;
 * `undefined` and `null` pass.
 *
 * @example
 * checkLength('labelName', 'bug', 'label name'); // fine
 * checkLength('labelName', 'x'.repeat(300), 'label name'); // throws: label name is longer than 255 characters
 */
export function checkLength(field: LimitedField, value: string | null | undefined, what: string): void {
  if (value === undefined || value === null) return;
  const max = FIELD_LIMITS[field];
  // UTF-16 units are never fewer than code points: most values pass without counting.
  if (value.length <= max || codePoints(value, max) <= max) return;
  throw new IssueStoreError('too_long', `${what} is longer than ${max} characters`);
}
