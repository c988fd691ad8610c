/**
 * @module
 * Paging against xp-forge's `web.rest.paging` (`Paging`, `PageParameters('page', 'per_page')`,
 * `Pagination::paginate` and its `Link` header), with RFC 8288 links to the first, previous, next
 * and last pages. Over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Context, createRestRouter, GET, Pagination, Paging, Path, QueryParam } from '../../runtime/rest/index.js';
import { type Listening, listen, rawCall } from '../support/rest-answers.js';

const ITEMS = Array.from({ length: 95 }, (_, i) => i + 1);
const paging = new Paging({ size: 20, max: 50 });

@Path('/issues')
class Issues {
  /** Knows the total: links the last page too. */
  @GET
  list(@Context(Pagination) page: Pagination, @QueryParam('state') _state: string | undefined) {
    return page.paginate(ITEMS.slice(page.start, page.end), { total: ITEMS.length });
  }
  /** Reads one item more than a page (xp-forge's way): knows whether a next page exists. */
  @GET
  @Path('/stream')
  stream(@Context() c: Context) {
    const page = paging.on(c);
    return page.paginate(ITEMS.slice(page.start, page.end + 1));
  }
}

describe('paging', () => {
  let server: Listening;
  let origin: string;
  beforeAll(async () => {
    server = await listen(createRestRouter().addProvider(Pagination, paging).register(new Issues()).app());
    origin = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.close());
  const get = (path: string) => rawCall(server.port, 'GET', path);

  it('the first page: its items, and links to the next and the last page', async () => {
    const r = await get('/issues');
    expect(JSON.parse(r.text)).toEqual(ITEMS.slice(0, 20));
    expect(r.headers['link']).toBe(`<${origin}/issues?page=2>; rel="next", <${origin}/issues?page=5>; rel="last"`);
  });
  it('a middle page links first, prev, next and last, keeping the other query parameters', async () => {
    const r = await get('/issues?state=open&page=3&per_page=20');
    expect(JSON.parse(r.text)).toEqual(ITEMS.slice(40, 60));
    const url = (page: number) => `<${origin}/issues?state=open&page=${page}&per_page=20>`;
    expect(r.headers['link']).toBe(`${url(1)}; rel="first", ${url(2)}; rel="prev", ${url(4)}; rel="next", ${url(5)}; rel="last"`);
  });
  it('the last page links back only', async () => {
    const r = await get('/issues?page=5');
    expect(JSON.parse(r.text)).toEqual(ITEMS.slice(80, 95));
    expect(r.headers['link']).toBe(`<${origin}/issues?page=1>; rel="first", <${origin}/issues?page=4>; rel="prev"`);
  });
  it('a page size within the limit is the one asked for; a larger one is cut to the limit', async () => {
    expect(JSON.parse((await get('/issues?per_page=10')).text)).toHaveLength(10);
    const r = await get('/issues?per_page=500');
    expect(JSON.parse(r.text)).toHaveLength(50);
    expect(r.headers['link']).toBe(
      `<${origin}/issues?per_page=500&page=2>; rel="next", <${origin}/issues?per_page=500&page=2>; rel="last"`,
    );
  });
  it('without a total, one item more than a page says a next page exists (xp-forge)', async () => {
    const first = await get('/issues/stream?per_page=50');
    expect(JSON.parse(first.text)).toHaveLength(50);
    expect(first.headers['link']).toBe(`<${origin}/issues/stream?per_page=50&page=2>; rel="next"`);
    const second = await get('/issues/stream?per_page=50&page=2');
    expect(JSON.parse(second.text)).toHaveLength(45);
    expect(second.headers['link']).toBe(
      `<${origin}/issues/stream?per_page=50&page=1>; rel="first", <${origin}/issues/stream?per_page=50&page=1>; rel="prev"`,
    );
  });
  it('a single page has no Link header', async () => {
    class Few {
      @GET @Path('/few') few(@Context() c: Context) {
        return new Paging().on(c).paginate([1, 2, 3]);
      }
    }
    const one = await listen(createRestRouter().register(new Few()).app());
    const r = await rawCall(one.port, 'GET', '/few');
    await one.close();
    expect([r.text, r.headers['link']]).toEqual(['[1,2,3]', undefined]);
  });
  it('a page or size that is no positive whole number is a 400 naming the parameter', async () => {
    for (const [query, name] of [
      ['page=0', 'page'],
      ['page=x', 'page'],
      ['per_page=-5', 'per_page'],
    ] as const) {
      const r = await get(`/issues?${query}`);
      expect([r.status, JSON.parse(r.text).violations[0].name]).toEqual([400, name]);
    }
  });
});
