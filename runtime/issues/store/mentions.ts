/**
 * @module `@name` mentions in issue text, parsed on write so that the `mentioned` filters are an
 * indexed join rather than a text scan at query time.
 */

// A mention starts the text or follows a character that cannot be part of an e-mail address or a
// word (so `a@b.c` is not a mention), and ends before a trailing dot (`@alice.` mentions alice).
const MENTION = /(?:^|[^\p{L}\p{N}_.@/-])@([\p{L}\p{N}_](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}_])?)/gu;

/**
 * The distinct user names mentioned in the texts, lower-cased, in order of first appearance.
 *
 * @example
 * parseMentions('cc @Bob and @carol.', 'mail me: x@y.z'); // ['bob', 'carol']
 */
export function parseMentions(...texts: readonly string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(MENTION)) names.add(match[1]!.toLowerCase());
  }
  return [...names];
}
