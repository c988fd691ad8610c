import { describe, expect, it } from 'vitest';
import { buildLinkHeader, pageOffset, resolvePage } from './pagination.js';

describe('resolvePage', () => {
  const sizes = { defaultLimit: 30, maxLimit: 50 };
  it.each([
    [undefined, undefined, { page: 1, limit: 30 }],
    [0, 0, { page: 1, limit: 30 }],
    [-3, -1, { page: 1, limit: 30 }],
    [2, 10, { page: 2, limit: 10 }],
    [1, 500, { page: 1, limit: 50 }],
  ])('page %s limit %s → %j', (page, limit, expected) => {
    expect(resolvePage(page, limit, sizes)).toEqual(expected);
  });

  it('keeps offsets exact for absurd pages', () => {
    const request = resolvePage(Number.MAX_SAFE_INTEGER, 50, sizes);
    expect(Number.isSafeInteger(pageOffset(request))).toBe(true);
  });
});

describe('buildLinkHeader (genAPILinks)', () => {
  const link = (total: number, size: number, page: number, query = `limit=${size}&page=${page}`) =>
    buildLinkHeader('http://h/', '/api/v1/repos/o/r/issues', new URLSearchParams(query), total, size, page);

  it("matches Gitea's example for total 5, limit 2, page 2", () => {
    expect(link(5, 2, 2)).toBe(
      '<http://h/api/v1/repos/o/r/issues?limit=2&page=3>; rel="next",<http://h/api/v1/repos/o/r/issues?limit=2&page=3>; rel="last",' +
        '<http://h/api/v1/repos/o/r/issues?limit=2&page=1>; rel="first",<http://h/api/v1/repos/o/r/issues?limit=2&page=1>; rel="prev"',
    );
  });

  it('emits nothing for a single page or no results', () => {
    expect(link(2, 2, 1)).toBeUndefined();
    expect(link(0, 2, 1)).toBeUndefined();
  });

  it('has only next and last on the first page, only first and prev on the last', () => {
    expect(link(5, 2, 1)).toBe(
      '<http://h/api/v1/repos/o/r/issues?limit=2&page=2>; rel="next",<http://h/api/v1/repos/o/r/issues?limit=2&page=3>; rel="last"',
    );
    expect(link(5, 2, 3)).toBe(
      '<http://h/api/v1/repos/o/r/issues?limit=2&page=1>; rel="first",<http://h/api/v1/repos/o/r/issues?limit=2&page=2>; rel="prev"',
    );
  });

  it('clamps a page beyond the last to the last', () => {
    expect(link(5, 2, 40)).toBe(
      '<http://h/api/v1/repos/o/r/issues?limit=2&page=1>; rel="first",<http://h/api/v1/repos/o/r/issues?limit=2&page=2>; rel="prev"',
    );
  });

  it("keeps every parameter, sorts keys and escapes like Go's QueryEscape", () => {
    expect(link(3, 1, 1, "token=abc&state=all&q=a b!'&limit=1")).toBe(
      '<http://h/api/v1/repos/o/r/issues?limit=1&page=2&q=a+b%21%27&state=all&token=abc>; rel="next",' +
        '<http://h/api/v1/repos/o/r/issues?limit=1&page=3&q=a+b%21%27&state=all&token=abc>; rel="last"',
    );
  });
});
