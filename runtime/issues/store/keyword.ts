/**
 * @module Turns a user's `q` into words the full-text engines accept. Only letters and digits
 * survive, so nothing a user types can change the FTS5 or `tsquery` syntax; the words are then
 * quoted by each dialect as well.
 */

/** More words than this add nothing but cost; the rest are ignored. */
const MAX_WORDS = 16;

/**
 * Words shorter than this match exactly, longer ones by prefix: a one- or two-letter prefix
 * matches a large part of any corpus and would turn a search into a scan.
 */
export const MIN_PREFIX_LENGTH = 3;

/** Whether a word is matched as a prefix (`crash` finds `crashes`) or exactly. */
export function isPrefixWord(word: string): boolean {
  return [...word].length >= MIN_PREFIX_LENGTH;
}

/** The keyword handling of the seed: `undefined` means "no keyword filter". */
export function normaliseKeyword(keyword: string | undefined): string | undefined {
  if (keyword === undefined || keyword.includes('\0')) return undefined;
  const trimmed = keyword.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * The words of a keyword, lower-cased, de-duplicated. `[]` when it has no letters or digits
 * (such a keyword matches nothing).
 *
 * @example
 * keywordWords(' Crash "on" start!* '); // ['crash', 'on', 'start']
 */
export function keywordWords(keyword: string): string[] {
  const words = keyword.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_WORDS);
}
