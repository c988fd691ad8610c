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

/** The Issues API's keyword handling (docs/issues.md): `undefined` means "no keyword filter". */
export function normaliseKeyword(keyword: string | undefined): string | undefined {
  if (keyword === undefined || keyword.includes('\0')) return undefined;
  const trimmed = keyword.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * Latin letters with diacritics and the ASCII letter each folds to: exactly the letters SQLite's
 * FTS5 tokenizer (`unicode61 remove_diacritics 2`) folds, read off FTS5 itself, so that `cafe`
 * finds `café` and `café` finds `cafe` alike on both engines. Letters it keeps (`ø`, `ß`, `æ`,
 * `ł`, non-Latin scripts) are kept here too.
 *
 * Frozen: PostgreSQL migration 3 indexes every issue with this table (`loom_search_text`). A
 * different table needs a new migration that rebuilds `search_vector`, or queries and index drift.
 */
export const ACCENT_FOLDS: Readonly<Record<string, string>> = Object.freeze({
  a: 'ÀÁÂÃÄÅàáâãäåĀāĂăĄąǍǎǞǟǺǻȀȁȂȃȦȧḀḁẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặÅ',
  b: 'ḂḃḄḅḆḇ',
  c: 'ÇçĆćĈĉĊċČčḈḉ',
  d: 'ĎďḊḋḌḍḎḏḐḑḒḓ',
  e: 'ÈÉÊËèéêëĒēĔĕĖėĘęĚěȄȅȆȇȨȩḔḕḖḗḘḙḚḛḜḝẸẹẺẻẼẽẾếỀềỂểỄễỆệ',
  f: 'Ḟḟ',
  g: 'ĜĝĞğĠġĢģǦǧǴǵḠḡ',
  h: 'ĤĥȞȟḢḣḤḥḦḧḨḩḪḫẖ',
  i: 'ÌÍÎÏìíîïĨĩĪīĬĭĮįİǏǐȈȉȊȋḬḭḮḯỈỉỊị',
  j: 'Ĵĵǰ',
  k: 'ĶķǨǩḰḱḲḳḴḵ',
  l: 'ĹĺĻļĽľḶḷḸḹḺḻḼḽ',
  m: 'ḾḿṀṁṂṃ',
  n: 'ÑñŃńŅņŇňǸǹṄṅṆṇṈṉṊṋ',
  o: 'ÒÓÔÕÖòóôõöŌōŎŏŐőƠơǑǒǪǫǬǭȌȍȎȏȪȫȬȭȮȯȰȱṌṍṎṏṐṑṒṓỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợ',
  p: 'ṔṕṖṗ',
  r: 'ŔŕŖŗŘřȐȑȒȓṘṙṚṛṜṝṞṟ',
  s: 'ŚśŜŝŞşŠšſȘșṠṡṢṣṤṥṦṧṨṩẛ',
  t: 'ŢţŤťȚțṪṫṬṭṮṯṰṱẗ',
  u: 'ÙÚÛÜùúûüŨũŪūŬŭŮůŰűŲųƯưǓǔǕǖǗǘǙǚǛǜȔȕȖȗṲṳṴṵṶṷṸṹṺṻỤụỦủỨứỪừỬửỮữỰự',
  v: 'ṼṽṾṿ',
  w: 'ŴŵẀẁẂẃẄẅẆẇẈẉẘ',
  x: 'ẊẋẌẍ',
  y: 'ÝýÿŶŷŸȲȳẎẏẙỲỳỴỵỶỷỸỹ',
  z: 'ŹźŻżŽžẐẑẒẓẔẕ',
});

/**
 * Combining marks FTS5 drops from inside a word (`cafe\u0301s` is `cafes`), so that decomposed
 * text folds like precomposed text. Other combining marks separate words, on both engines.
 * Frozen with {@link ACCENT_FOLDS}.
 */
export const DROPPED_MARKS =
  '\u0300\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u0309\u030a\u030b\u030c\u030f\u0311\u031b' +
  '\u0323\u0324\u0325\u0326\u0327\u0328\u032d\u032e\u0330\u0331';

/**
 * Characters that separate words, spelled out for PostgreSQL (migration 3), where they become
 * spaces before its parser sees the text: every ASCII character other than letters and digits
 * that its parser would otherwise join into one token (`main.ts`, `alice@example.com`,
 * `/usr/lib`, `v1.2.3`, `http://…` each become several words, as in FTS5 and {@link keywordWords}),
 * and the common non-ASCII spaces and punctuation, which a database with a `C` ctype would read
 * as letters. Frozen with {@link ACCENT_FOLDS}.
 */
export const SEPARATORS =
  '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~' +
  '\u00a0\u00a1\u00a7\u00ab\u00b6\u00b7\u00bb\u00bf\u00d7\u00f7' +
  '\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u200b' +
  '\u2010\u2011\u2012\u2013\u2014\u2015\u2016\u2017\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f' +
  '\u2020\u2021\u2022\u2026\u2027\u2030\u2032\u2033\u2039\u203a\u3000\u3001\u3002\uff0c\uff0e';

const FOLD = new Map<string, string>();
for (const [base, letters] of Object.entries(ACCENT_FOLDS)) for (const letter of letters) FOLD.set(letter, base);
for (const mark of DROPPED_MARKS) FOLD.set(mark, '');

/**
 * Folds accented Latin letters to their ASCII letter and drops the combining marks FTS5 drops
 * ({@link ACCENT_FOLDS}, {@link DROPPED_MARKS}).
 *
 * @example
 * foldAccents('Crème brûlée'); // 'Creme brulee'
 */
export function foldAccents(text: string): string {
  let out = '';
  for (const char of text) out += FOLD.get(char) ?? char;
  return out;
}

/**
 * The words of a keyword, lower-cased, accent-folded ({@link foldAccents}), de-duplicated: letters
 * and digits only, every other character separates (`main.ts` is `main ts`), as in both engines'
 * indexes. `[]` when it has no letters or digits (such a keyword matches nothing).
 *
 * @example
 * keywordWords(' Crash "on" start!* '); // ['crash', 'on', 'start']
 * keywordWords('Café v1.2'); // ['cafe', 'v1', '2']
 */
export function keywordWords(keyword: string): string[] {
  const words = foldAccents(keyword.toLowerCase()).match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_WORDS);
}
