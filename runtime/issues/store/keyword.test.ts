/** @module Keyword normalisation and the words the full-text engines see. */

import { describe, expect, it } from 'vitest';
import { isPrefixWord, keywordWords, normaliseKeyword } from './keyword.js';

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
    expect(keywordWords('Ünïcode 42 ünïcode')).toEqual(['ünïcode', '42']);
    expect(keywordWords('*()"')).toEqual([]);
    expect(keywordWords(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toHaveLength(16);
  });

  it('matches short words exactly and longer ones by prefix', () => {
    expect(isPrefixWord('ab')).toBe(false);
    expect(isPrefixWord('abc')).toBe(true);
    expect(isPrefixWord('日本')).toBe(false);
  });
});
