/**
 * @module
 * Paging (xp-forge's `web.rest.paging`): `Paging` reads the page and page size a request asks for,
 * within limits, and a `Pagination` answers a page of items with RFC 8288 `Link` headers to the
 * first, previous, next and last pages.
 */
import type { Context } from 'hono';
import { BadRequestError } from './errors.js';
import { RestResponse } from './response.js';

/** Options of {@link Paging}. */
export interface PagingOptions {
  /** The page size of a request that names none. @default 20 */
  readonly size?: number;
  /** The largest page size a request may ask for; a larger one is cut to it. @default 100 */
  readonly max?: number;
  /** The query parameter of the page number, 1 being the first. @default 'page' */
  readonly page?: string;
  /** The query parameter of the page size. @default 'per_page' */
  readonly perPage?: string;
}

/** Options of {@link Pagination.paginate}. */
export interface PaginateOptions {
  /** How many items there are in all: gives the `last` link (without it, `next` follows from an extra item). */
  readonly total?: number;
  /** The answer to add the page to: a status, or a `RestResponse` with headers of its own. @default 200 */
  readonly response?: RestResponse | number;
}

const POSITIVE = /^[1-9]\d{0,15}$/;

/**
 * Paging of a list route: `on(c)` reads `?page=` and `?per_page=` (names and limits configurable).
 * It is a context provider too: `router.addProvider(Pagination, paging)` injects `@Context(Pagination)`.
 *
 * @example
 * ```ts
 * const paging = new Paging({ size: 20, max: 100 });
 * @GET @Path('/issues')
 * list(@Context() c: Context) {
 *   const page = paging.on(c);
 *   return page.paginate(store.list(page.start, page.size + 1)); // Link: <…?page=2>; rel="next"
 * }
 * ```
 */
export class Paging {
  readonly size: number;
  readonly max: number;
  readonly pageParameter: string;
  readonly sizeParameter: string;

  constructor(options: PagingOptions = {}) {
    this.size = options.size ?? 20;
    this.max = options.max ?? 100;
    this.pageParameter = options.page ?? 'page';
    this.sizeParameter = options.perPage ?? 'per_page';
    if (!Number.isSafeInteger(this.size) || this.size < 1) throw new TypeError(`Paging: size must be 1 or more, got ${this.size}`);
    if (!Number.isSafeInteger(this.max) || this.max < this.size)
      throw new TypeError(`Paging: max must be at least size (${this.size}), got ${this.max}`);
  }

  /** The pagination a request asks for; a page or size that is no positive whole number is a 400. */
  on(c: Context): Pagination {
    const page = this.number(c, this.pageParameter) ?? 1;
    const size = Math.min(this.number(c, this.sizeParameter) ?? this.size, this.max);
    return new Pagination(c.req.url, page, size, this.pageParameter);
  }

  /** As a context provider: `router.addProvider(Pagination, paging)`. */
  provide(c: Context): Pagination {
    return this.on(c);
  }

  private number(c: Context, name: string): number | undefined {
    const text = c.req.query(name);
    if (text === undefined || text === '') return undefined;
    if (!POSITIVE.test(text))
      throw new BadRequestError([{ location: 'query', name, message: `must be a whole number of 1 or more, got "${text}"` }]);
    return Number(text);
  }
}

/** One request's page: its number, size and the items it covers (xp-forge's `Pagination`). */
export class Pagination {
  constructor(
    /** The request's URL, whose other query parameters the links keep. */
    readonly url: string,
    /** The page number, 1 being the first. */
    readonly page: number,
    /** Items per page. */
    readonly size: number,
    private readonly pageParameter: string,
  ) {}

  /** The offset of the page's first item. */
  get start(): number {
    return (this.page - 1) * this.size;
  }

  /** The offset after the page's last item. */
  get end(): number {
    return this.start + this.size;
  }

  /**
   * Answers one page of `items` with its `Link` header. Pass one item more than a page (read
   * `size + 1`) and it knows whether a next page exists; pass `total` and it links the last page
   * too. Items past the page are left out of the answer.
   */
  paginate<T>(items: Iterable<T>, options: PaginateOptions = {}): RestResponse {
    const elements: T[] = [];
    let more = false;
    for (const item of items) {
      if (elements.length === this.size) {
        more = true;
        break;
      }
      elements.push(item);
    }
    const base = options.response instanceof RestResponse ? options.response : RestResponse.status(options.response ?? 200);
    const link = this.links(options.total === undefined ? { next: more } : { total: options.total });
    const answer = base.entity(elements);
    return link === undefined ? answer : answer.header('Link', link);
  }

  /**
   * The `Link` header value (RFC 8288) of this page: `first` and `prev` after the first page,
   * `next` when one follows (known from `total`, else from `next`), `last` when `total` is known.
   *
   * @example
   * ```ts
   * new Paging().on(c).links({ total: 95 });
   * // on ?page=2: <…?page=1>; rel="first", <…?page=1>; rel="prev", <…?page=3>; rel="next", <…?page=5>; rel="last"
   * ```
   */
  links(known: { readonly total?: number; readonly next?: boolean }): string | undefined {
    const last = known.total === undefined ? undefined : Math.max(1, Math.ceil(known.total / this.size));
    const rels: [string, number][] = [];
    if (this.page > 1) rels.push(['first', 1], ['prev', last === undefined ? this.page - 1 : Math.min(this.page - 1, last)]);
    if (last !== undefined ? this.page < last : known.next === true) rels.push(['next', this.page + 1]);
    if (last !== undefined && this.page < last) rels.push(['last', last]);
    if (rels.length === 0) return undefined;
    return rels.map(([rel, page]) => `<${this.urlOf(page)}>; rel="${rel}"`).join(', ');
  }

  private urlOf(page: number): string {
    const url = new URL(this.url);
    url.searchParams.set(this.pageParameter, String(page));
    return url.href;
  }
}
