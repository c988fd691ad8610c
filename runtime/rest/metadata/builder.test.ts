/**
 * @module
 * Unit tests of parameter reading from source (binding by name): names, and which have defaults.
 */
import { describe, expect, it } from 'vitest';
import { parameterList } from './builder.js';

describe('parameterList', () => {
  it('reads plain, defaulted, rest and commented parameters', () => {
    function f(a: string, b = 1, /* c */ c?: { x: [number, number] }, ...rest: unknown[]) {
      return [a, b, c, rest];
    }
    expect(parameterList(f)).toEqual([
      { name: 'a', hasDefault: false },
      { name: 'b', hasDefault: true },
      { name: 'c', hasDefault: false },
      { name: 'rest', hasDefault: false },
    ]);
  });
  it('reads method parameters', () => {
    class K {
      m(id: string, q: string) {
        return id + q;
      }
    }
    expect(parameterList(K.prototype.m).map((p) => p.name)).toEqual(['id', 'q']);
  });
  it('a function without parameters has none', () => {
    expect(parameterList(() => 1)).toEqual([]);
  });
});
