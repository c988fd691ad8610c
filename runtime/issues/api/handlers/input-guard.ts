/**
 * @module
 * Checks every operation input for values no database can hold before a handler runs: NUL
 * characters (PostgreSQL text refuses them; SQLite would store them and truncate in places) and
 * ids beyond the 64-bit range. Such input is answered like any other bad input, never with a 500.
 * A lone UTF-16 surrogate (JSON's `"\ud800"`, which no UTF-8 text can hold) becomes U+FFFD, as
 * Go's JSON decoder makes it in Gitea; stored as it is, SQLite would keep bytes that are not UTF-8
 * and PostgreSQL would keep U+FFFD, so the two engines would answer differently.
 */
import { notFound, validationError } from '../errors.js';

/** Path parameters: a name containing NUL names nothing, so the answer is 404. */
const PATH_KEYS = new Set(['owner', 'repo', 'org', 'username', 'collaborator', 'index']);

/**
 * Returns `input` unchanged (or, when a string holds a lone surrogate, a copy with U+FFFD in its
 * place), or throws 404 (path) / 422 (query, body) for a string containing NUL.
 * `pathKeys` names the input keys that come from the path (search has none: its `owner` is a query).
 * The keyword `q` is exempt: the Issues API reads a keyword with NUL as empty (docs/issues.md, "Rules implemented").
 *
 * @example
 * guardInput({ owner: 'alice', body: { title: 'a\u0000b' } }); // throws 422 "[Title]: must not contain NUL characters"
 */
export function guardInput<T extends object>(input: T, pathKeys: ReadonlySet<string> = PATH_KEYS): T {
  // Every request passes through here and almost none holds a NUL or a surrogate: one walk, which
  // allocates nothing, settles it.
  if (!someText(input, isSuspect, true)) return input;
  for (const key in input) {
    if (key === 'q' || !someText(input[key], hasNul, false)) continue;
    if (pathKeys.has(key)) throw notFound();
    throw validationError(`[${nulPath(input[key], key === 'body' ? [] : [wireName(key)])!.join('.')}]: must not contain NUL characters`);
  }
  return someText(input, hasLoneSurrogate, true) ? (wellFormed(input) as T) : input;
}

/** NUL, or either half of a surrogate pair: what {@link guardInput} looks at more closely. */
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

const isSuspect = (s: string): boolean => SUSPECT.test(s);
const hasNul = (s: string): boolean => s.includes('\u0000');
const hasLoneSurrogate = (s: string): boolean => LONE_SURROGATE.test(s);

/** Whether `test` holds for a string in `value` (and, with `keys`, for a key of its objects). */
function someText(value: unknown, test: (s: string) => boolean, keys: boolean): boolean {
  if (typeof value === 'string') return test(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (someText(value[i], test, keys)) return true;
    return false;
  }
  for (const key in value) if ((keys && test(key)) || someText((value as Record<string, unknown>)[key], test, keys)) return true;
  return false;
}

/** `value` with every lone surrogate, in strings and keys, replaced by U+FFFD. */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_SURROGATES, '\uFFFD');
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(wellFormed);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k) as string, wellFormed(v)]));
}

/**
 * True for ids a store can look up: positive integers within the exact range of a JS number
 * (which is inside PostgreSQL's `bigint`).
 *
 * @example
 * isStorableId(1e20); // false
 */
export function isStorableId(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

/** Where the first NUL in `value` is, as Gitea names fields (`[Assignees.1]`), or `undefined`. */
function nulPath(value: unknown, path: string[]): string[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = nulPath(item, [...path, String(i)]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = nulPath(v, [...path, goName(k)]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * A query parameter's name on the wire from its input key: the generated contract camel-cases
 * Gitea's snake_case names (`created_by` → `createdBy`), and 422s name parameters as sent.
 */
export function wireName(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function goName(key: string): string {
  return key
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}
