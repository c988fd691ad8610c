/**
 * @module
 * Unit tests of `Accept` negotiation and mime matching.
 */
import { describe, expect, it } from 'vitest';
import { bareMime, mimeMatches, negotiate } from './negotiate.js';

describe('content negotiation', () => {
  it('without Accept the first supported type wins', () => {
    expect(negotiate(undefined, ['application/json', 'text/plain'])).toBe('application/json');
  });
  it('honours q-values', () => {
    expect(negotiate('application/json;q=0.2, text/plain;q=0.9', ['application/json', 'text/plain'])).toBe('text/plain');
  });
  it('prefers specific types over wildcards at equal q', () => {
    expect(negotiate('text/*, text/csv', ['text/plain', 'text/csv'])).toBe('text/csv');
  });
  it('q=0 excludes a type', () => {
    expect(negotiate('application/json;q=0', ['application/json'])).toBeUndefined();
  });
  it('*/* accepts the first supported type', () => {
    expect(negotiate('*/*', ['application/xml', 'application/json'])).toBe('application/xml');
  });
  it('nothing acceptable is undefined', () => {
    expect(negotiate('image/png', ['application/json'])).toBeUndefined();
  });
  it('bare mimes drop parameters and case', () => {
    expect(bareMime('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mimeMatches('text/*', 'text/csv; charset=utf-8')).toBe(true);
    expect(mimeMatches('application/json', 'text/json')).toBe(false);
  });
});
