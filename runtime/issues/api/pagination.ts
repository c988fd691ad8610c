/**
 * @module
 * Paging as Gitea does it: page/limit normalisation per endpoint and the `Link` header of
 * `genAPILinks` (order next, last, first, prev; query keys sorted like Go's `url.Values.Encode`).
 */

/** A normalised page request. */
export interface PageRequest {
  /** 1-based page, at least 1. */
  readonly page: number;
  /** Page size, between 1 and the configured maximum. */
  readonly limit: number;
}

/**
 * Normalises `page` and `limit`: page ≤ 0 → 1; limit absent or ≤ 0 → `defaultLimit`;
 * limit above `maxLimit` → `maxLimit`.
 *
 * @example
 * resolvePage(undefined, 500, { defaultLimit: 30, maxLimit: 50 }); // { page: 1, limit: 50 }
 */
export function resolvePage(
  page: number | undefined,
  limit: number | undefined,
  sizes: { readonly defaultLimit: number; readonly maxLimit: number },
): PageRequest {
  const size = limit === undefined || limit <= 0 ? sizes.defaultLimit : Math.min(limit, sizes.maxLimit);
  // Beyond this the offset would leave the range of exact integers; such a page is empty anyway.
  const lastAddressable = Math.floor(Number.MAX_SAFE_INTEGER / size);
  const current = page === undefined || page <= 0 ? 1 : Math.min(Math.floor(page), lastAddressable);
  return { page: current, limit: Math.min(size, sizes.maxLimit) };
}

/** Zero-based row offset of a page. */
export function pageOffset(request: PageRequest): number {
  return (request.page - 1) * request.limit;
}

/**
 * Builds Gitea's `Link` header value, or `undefined` when there is at most one page.
 *
 * @param publicUrl the public root URL ending in `/` (Gitea's `AppURL`).
 * @param path the request path, starting with `/` (`/api/v1/repos/o/r/issues`).
 * @param query the request's query parameters, kept in full except `page`.
 *
 * @example
 * buildLinkHeader('http://h/', '/api/v1/repos/o/r/issues', new URLSearchParams('limit=2&page=2'), 5, 2, 2);
 * // '<http://h/api/v1/repos/o/r/issues?limit=2&page=3>; rel="next",<…page=3>; rel="last",<…page=1>; rel="first",<…page=1>; rel="prev"'
 */
export function buildLinkHeader(
  publicUrl: string,
  path: string,
  query: URLSearchParams,
  total: number,
  pageSize: number,
  requestedPage: number,
): string | undefined {
  const totalPages = Math.ceil(total / pageSize);
  let current = requestedPage <= 0 ? 1 : requestedPage;
  if (totalPages > 0 && current > totalPages) current = totalPages;
  const isLast = total === 0 || current === totalPages;
  const link = (page: number, rel: string) => `<${publicUrl}${path.replace(/^\//, '')}?${encodeQueryWithPage(query, page)}>; rel="${rel}"`;
  const links: string[] = [];
  if (total > current * pageSize) links.push(link(current + 1, 'next'));
  if (!isLast) links.push(link(totalPages, 'last'));
  if (current !== 1) links.push(link(1, 'first'));
  if (current > 1) links.push(link(current - 1, 'prev'));
  return links.length === 0 ? undefined : links.join(',');
}

/** Go's `url.Values.Encode()` with `page` replaced: keys sorted, values in order, `QueryEscape`. */
function encodeQueryWithPage(query: URLSearchParams, page: number): string {
  const values = new Map<string, string[]>();
  for (const [key, value] of query) {
    if (key === 'page') continue;
    values.set(key, [...(values.get(key) ?? []), value]);
  }
  values.set('page', [String(page)]);
  return [...values.keys()]
    .sort()
    .flatMap((key) => values.get(key)!.map((value) => `${goQueryEscape(key)}=${goQueryEscape(value)}`))
    .join('&');
}

/** Go's `url.QueryEscape`: unreserved characters stay, space becomes `+`, the rest is %-encoded. */
function goQueryEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}
