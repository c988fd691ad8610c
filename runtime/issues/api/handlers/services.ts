/**
 * @module
 * What every handler needs: the store, the configuration and the event bus, the shapes the issue
 * handlers' data loading returns, and the paged answer shared by the list operations
 * (`X-Total-Count`, `Link`).
 */
import type { Context } from 'hono';
import { Response, type RestResponse } from '../../../rest/response.js';
import type { IssueRow, IssueStore } from '../../store/store.js';
import type { IssuesConfig } from '../config.js';
import type { IssueEventBus } from '../events.js';
import { buildLinkHeader, type PageRequest } from '../pagination.js';
import type { IssueReferences } from '../render/issue.js';
import { giteaPath } from '../request-path.js';

/** The dependencies of the Issues API handlers. */
export interface IssuesServices {
  readonly store: IssueStore;
  readonly config: IssuesConfig;
  readonly events: IssueEventBus;
}

/** One issue with everything its JSON refers to: what `renderIssue` needs. */
export interface LoadedIssue {
  readonly issue: IssueRow;
  readonly refs: IssueReferences;
}

/** A page of issues with everything their JSON refers to, the total and the page asked for. */
export interface LoadedIssuePage {
  readonly issues: readonly IssueRow[];
  readonly refs: IssueReferences;
  readonly total: number;
  readonly page: PageRequest;
}

/**
 * A 200 answer carrying a page of items with `X-Total-Count` and (unless `link` is false) Gitea's
 * `Link` header, both exposed to browsers like Gitea's `Access-Control-Expose-Headers`.
 *
 * @example
 * return pagedResponse(c, config, rendered, page.total, request);
 */
export function pagedResponse<T>(
  c: Context,
  config: IssuesConfig,
  items: readonly T[],
  total: number,
  page: PageRequest,
  options: { readonly link?: boolean } = {},
): RestResponse {
  let response = Response.ok(items).header('X-Total-Count', String(total));
  const exposed = ['X-Total-Count'];
  if (options.link !== false) {
    const url = new URL(c.req.url);
    const link = buildLinkHeader(config.publicUrl, giteaPath(url.pathname), url.searchParams, total, page.limit, page.page);
    if (link !== undefined) response = response.header('Link', link);
    exposed.unshift('Link');
  }
  return response.header('Access-Control-Expose-Headers', exposed.join(', '));
}
