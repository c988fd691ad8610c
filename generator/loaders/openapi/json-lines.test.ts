/**
 * @module
 * Lines of JSON pointers in JSON text: what diagnostics on `.json` schemas point at.
 */
import { describe, expect, it } from 'vitest';
import { escapePointerSegment, jsonPointerLines } from './json-lines.js';

describe('jsonPointerLines', () => {
  it('gives the line of every key and array item, with escaped segments', () => {
    const text = JSON.stringify({ paths: { '/a/{id}': { get: { tags: ['x', 'y'], 'q"uote': true, n: -1.5e3 } } } }, null, 2);
    const lines = jsonPointerLines(text);
    expect([
      lines.get(''),
      lines.get('/paths'),
      lines.get('/paths/~1a~1{id}'),
      lines.get('/paths/~1a~1{id}/get/tags/1'),
      lines.get('/paths/~1a~1{id}/get/q"uote'),
      lines.get('/paths/~1a~1{id}/get/n'),
    ]).toEqual([1, 2, 3, 7, 9, 10]);
  });

  it('returns what it found before text that is not JSON', () => {
    expect([...jsonPointerLines('{"a": 1, "b": ').keys()]).toEqual(['', '/a', '/b']);
  });

  it('escapes ~ and / in segments', () => {
    expect(escapePointerSegment('a/b~c')).toBe('a~1b~0c');
  });
});
