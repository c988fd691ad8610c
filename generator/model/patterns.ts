/**
 * @module
 * Which `pattern`s need the regular expression `u` flag. Generated validators compile patterns
 * without it, because real schemas write `[\w-]` and `\/`, which it rejects; but `\p{L}`,
 * `\u{1F41B}` and characters beyond the Basic Multilingual Plane mean something else without it
 * (`\p{L}` matches the letters `p{L}`). Those patterns get the flag when they are valid with it.
 */

/** `\p{…}`, `\P{…}`, `\u{…}`, or a surrogate pair: what reads differently without `u`. */
export const UNICODE_ONLY = /\\[pP]\{|\\u\{|[\uD800-\uDFFF]/;

/** Whether `pattern` is written for the `u` flag (see the module documentation). */
export function usesUnicodeSyntax(pattern: string): boolean {
  return UNICODE_ONLY.test(pattern);
}

/**
 * Whether a validator compiles `pattern` with the `u` flag: written for it, and valid with it.
 *
 * @example
 * needsUnicodeFlag('^\\p{L}+$'); // true
 * needsUnicodeFlag('^[\\w-]+$'); // false
 */
export function needsUnicodeFlag(pattern: string): boolean {
  if (!usesUnicodeSyntax(pattern)) return false;
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
