/**
 * @module
 * Unit tests of parameter-name reading (binding by name).
 */
import { describe, expect, it } from 'vitest';
import { parameterNames } from './builder.js';

describe('parameterNames', () => {
  it('reads plain, defaulted, rest and commented parameters', () => {
    function f(a: string, b = 1, /* c */ c?: { x: [number, number] }, ...rest: unknown[]) {
      return [a, b, c, rest];
    }
    expect(parameterNames(f)).toEqual(['a', 'b', 'c', 'rest']);
  });
  it('reads method parameters', () => {
    class K { m(id: string, q: string) { return id + q; } }
    expect(parameterNames(K.prototype.m)).toEqual(['id', 'q']);
  });
  it('a function without parameters has none', () => {
    expect(parameterNames(() => 1)).toEqual([]);
  });
});
