/** @module Keyword normalisation and the words the full-text engines see. */

import { describe, expect, it } from 'vitest';
import { foldAccents, isPrefixWord, keywordWords, normaliseKeyword } from './keyword.js';

describe('keyword handling', () => {
  it('trims, and ignores blank values and values containing NUL', () => {
    expect(normaliseKeyword('  crash  ')).toBe('crash');
    expect(normaliseKeyword('   ')).toBeUndefined();
    expect(normaliseKeyword('cra\0sh')).toBeUndefined();
    expect(normaliseKeyword(undefined)).toBeUndefined();
  });

  it('keeps only letters and digits, so FTS and tsquery syntax cannot get through', () => {
    expect(keywordWords('"crash" OR start* NEAR(a b) -x:y')).toEqual(['crash', 'or', 'start', 'near', 'a', 'b', 'x', 'y']);
    expect(keywordWords("'; DROP TABLE issues; --")).toEqual(['drop', 'table', 'issues']);
    expect(keywordWords('Ünïcode 42 ünïcode')).toEqual(['unicode', '42']);
    expect(keywordWords('*()"')).toEqual([]);
    expect(keywordWords(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toHaveLength(16);
  });

  it("splits on every character but letters and digits, as both engines' indexes do", () => {
    expect(keywordWords('main.ts alice@example.com /usr/lib/foo.so v1.2.3 http://example.org/path foo_bar')).toEqual([
      'main',
      'ts',
      'alice',
      'example',
      'com',
      'usr',
      'lib',
      'foo',
      'so',
      'v1',
      '2',
      '3',
      'http',
      'org',
      'path',
      'bar',
    ]);
  });

  it('folds accents exactly as FTS5 does, and keeps letters it keeps', () => {
    expect(keywordWords('Café CRÈME Ångström ǖ İstanbul')).toEqual(['cafe', 'creme', 'angstrom', 'u', 'istanbul']);
    // Decomposed accents fold like precomposed ones.
    expect(keywordWords('cafe\u0301s')).toEqual(['cafes']);
    expect(keywordWords('ø ß æ ł й ά 東京')).toEqual(['ø', 'ß', 'æ', 'ł', 'й', 'ά', '東京']);
    expect(foldAccents('Crème brûlée')).toBe('Creme brulee');
  });

  it('matches short words exactly and longer ones by prefix', () => {
    expect(isPrefixWord('ab')).toBe(false);
    expect(isPrefixWord('abc')).toBe(true);
    expect(isPrefixWord('日本')).toBe(false);
  });
});
