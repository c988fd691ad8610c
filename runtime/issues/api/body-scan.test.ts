import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_ARRAY_ITEMS } from './binding-order.js';
import { oversizedArray } from './body-scan.js';

/** What the scan must find, worked out on the parsed value. */
function expected(value: unknown, max: number, path: (string | number)[] = []): (string | number)[] | undefined {
  if (Array.isArray(value)) {
    if (value.length > max) {
      // The first array to reach item max + 1 in text order: an overflow inside one of its first
      // `max` items comes first; item max + 1 itself overflows this array as it begins.
      for (let i = 0; i < max; i++) {
        const inner = expected(value[i], max, [...path, i]);
        if (inner) return inner;
      }
      return path;
    }
    for (let i = 0; i < value.length; i++) {
      const inner = expected(value[i], max, [...path, i]);
      if (inner) return inner;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const inner = expected(item, max, [...path, key]);
      if (inner) return inner;
    }
  }
  return undefined;
}

describe('oversizedArray', () => {
  it('finds the first array past the limit, with its path', () => {
    expect(oversizedArray('{"title":"x","labels":[1,2,3]}', 2)).toEqual(['labels']);
    expect(oversizedArray('{"labels":[1,2]}', 2)).toBeUndefined();
    expect(oversizedArray('[[1],[1,2,3]]', 2)).toEqual([1]);
    expect(oversizedArray('{"a":{"b\\"c":["x","y","z"]}}', 2)).toEqual(['a', 'b"c']);
    expect(oversizedArray('{"s":"[1,2,3,4]","t":"\\\\","u":[{},{},[]]}', 2)).toEqual(['u']);
    expect(oversizedArray('[]', 0)).toBeUndefined();
    expect(oversizedArray('[ ]', 0)).toBeUndefined();
    expect(oversizedArray('[null]', 0)).toEqual([]);
  });

  it('stops at the first item past the limit, whatever follows', () => {
    expect(oversizedArray(`{"assignees":[${'0,'.repeat(2_000)}`, 1000)).toEqual(['assignees']);
    expect(oversizedArray('{"labels":[1,2,3', 2)).toEqual(['labels']);
  });

  it('leaves what is not JSON to the parser', () => {
    expect(oversizedArray('{"title":"unterminated', 2)).toBeUndefined();
    expect(oversizedArray('', 2)).toBeUndefined();
    expect(oversizedArray('x'.repeat(1_000), 2)).toBeUndefined();
  });

  it('scans deep nesting and long texts without recursion', () => {
    expect(oversizedArray('['.repeat(100_000), 5)).toBeUndefined();
    expect(oversizedArray(`{"body":"${'\\"'.repeat(200_000)}","labels":[1,2,3]}`, 2)).toEqual(['labels']);
  });

  it('agrees with JSON.parse on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 0, max: 4 }), (value, max) => {
        expect(oversizedArray(JSON.stringify(value), max)).toEqual(expected(value, max));
        expect(oversizedArray(JSON.stringify(value, null, 2), max)).toEqual(expected(value, max));
      }),
      { numRuns: 500, seed: 21 },
    );
  });
});

describe('MAX_BODY_ARRAY_ITEMS', () => {
  it('is the maxItems of every array of every request body in the contract', () => {
    const doc = JSON.parse(readFileSync(new URL('../../../generated/issues/openapi.openapi.json', import.meta.url), 'utf8')) as {
      components: { schemas: Record<string, { properties?: Record<string, { type?: string | string[]; maxItems?: number }> }> };
    };
    const arrays = Object.entries(doc.components.schemas)
      .filter(([name]) => /Options?$|^IssueMeta$/.test(name))
      .flatMap(([name, schema]) =>
        Object.entries(schema.properties ?? {})
          .filter(([, property]) => [property.type].flat().includes('array'))
          .map(([key, property]) => [`${name}.${key}`, property.maxItems] as const),
      );
    expect(arrays.length).toBeGreaterThan(5);
    for (const [where, maxItems] of arrays) expect(maxItems, where).toBe(MAX_BODY_ARRAY_ITEMS);
  });
});
