import { describe, expect, it } from 'vitest';
import { GiteaError } from './errors.js';
import { commaList, dateParam, normalizeKeyword, stateFilter, typeFilter } from './query.js';

describe('filter parameters', () => {
  it('reads state and type leniently', () => {
    expect([undefined, 'open', 'closed', 'all', 'CLOSED', 'x'].map(stateFilter)).toEqual(['open', 'open', 'closed', 'all', 'open', 'open']);
    expect([undefined, 'issues', 'pulls', 'all', 'pr'].map(typeFilter)).toEqual(['all', 'issues', 'pulls', 'all', 'all']);
  });

  it('splits comma lists, dropping blanks', () => {
    expect(commaList(' bug, ,ui,')).toEqual(['bug', 'ui']);
    expect(commaList(' , ')).toBeUndefined();
    expect(commaList(undefined)).toBeUndefined();
  });

  it('trims the keyword and ignores one containing NUL', () => {
    expect(normalizeKeyword('  crash  ')).toBe('crash');
    expect(normalizeKeyword('   ')).toBeUndefined();
    expect(normalizeKeyword('cr\u0000ash')).toBeUndefined();
  });

  it('parses since/before as RFC 3339 and answers 422 otherwise', () => {
    expect(dateParam('since', '2000-01-01T00:50:01+00:00')).toBe(946687801);
    expect(dateParam('since', new Date('2000-01-01T00:00:00Z'))).toBe(946684800);
    expect(dateParam('since', undefined)).toBeUndefined();
    for (const bad of ['yesterday', '2025-01-01', new Date(Number.NaN)]) {
      let caught: unknown;
      try {
        dateParam('since', bad);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(GiteaError);
      expect((caught as GiteaError).status).toBe(422);
    }
  });
});
