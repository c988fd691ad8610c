/**
 * @module The query side's words (`keywordWords`) against the words SQLite's FTS5 index makes of
 * the same text, character by character, over ASCII, Latin, combining marks, Cyrillic and common
 * punctuation: a keyword must name exactly the tokens the index holds, or it cannot find them.
 * `ACCENT_FOLDS` and `DROPPED_MARKS` (which PostgreSQL migration 3 also indexes with) are FTS5's own.
 */

import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ACCENT_FOLDS, DROPPED_MARKS, keywordWords, SEPARATORS } from '../keyword.js';

/** Ranges checked one character at a time. */
const RANGES = [
  [0x20, 0x7e],
  [0xa0, 0x24f],
  [0x300, 0x36f],
  [0x400, 0x45f],
  [0x1e00, 0x1eff],
  [0x2000, 0x206f],
  [0x3000, 0x3003],
  [0xff01, 0xff0f],
] as const;

/**
 * Where the two differ, because FTS5 carries Unicode 6.1's tables: it folds the micro sign to a
 * Greek mu, and U+2065–U+2069 were unassigned then (FTS5 reads them as letters).
 */
const KNOWN_DIFFERENCES = new Set(['\u00b5', '\u2065', '\u2066', '\u2067', '\u2068', '\u2069']);

describe('keyword words and FTS5 tokens', () => {
  const db = new Database(':memory:');
  afterAll(() => db.close());
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);

  /** FTS5's tokens of each text, in order. */
  function tokens(texts: readonly string[]): string[][] {
    db.exec('DELETE FROM t');
    const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
    db.transaction(() => {
      for (const [i, text] of texts.entries()) insert.run(i + 1, text);
    })();
    const out = texts.map((): string[] => []);
    for (const row of db.prepare('SELECT doc, term FROM v ORDER BY doc, offset').all() as { doc: number; term: string }[])
      out[row.doc - 1]!.push(row.term);
    return out;
  }

  it('agrees on every character of the ranges, between two letters', () => {
    const chars: string[] = [];
    for (const [from, to] of RANGES) for (let c = from; c <= to; c++) chars.push(String.fromCodePoint(c));
    // `a<char>b`: a separator gives two words, a letter one, a dropped mark `ab`, a folded letter `a<base>b`.
    const fts = tokens(chars.map((char) => `a${char}b`));
    const differing = chars.filter((char, i) => JSON.stringify(keywordWords(`a${char}b`)) !== JSON.stringify(fts[i]));
    expect(differing.filter((char) => !KNOWN_DIFFERENCES.has(char)).map((char) => `U+${char.codePointAt(0)!.toString(16)}`)).toEqual([]);
  });

  it('folds exactly the letters of ACCENT_FOLDS, drops DROPPED_MARKS and splits at SEPARATORS', () => {
    const letters = Object.entries(ACCENT_FOLDS).flatMap(([base, all]) => [...all].map((letter) => [letter, base] as const));
    expect(tokens(letters.map(([letter]) => `x${letter}x`))).toEqual(letters.map(([, base]) => [`x${base}x`]));
    expect(tokens([...DROPPED_MARKS].map((mark) => `x${mark}y`))).toEqual([...DROPPED_MARKS].map(() => ['xy']));
    expect(tokens([...SEPARATORS].map((separator) => `x${separator}y`))).toEqual([...SEPARATORS].map(() => ['x', 'y']));
  });
});
