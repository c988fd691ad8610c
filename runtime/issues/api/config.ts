/**
 * @module
 * Configuration of the Issues HTTP API: the public base URL used in every URL the API
 * renders, Gitea's paging settings, the body size limit and the server time zone.
 */
import { canonicalTimeZone, processTimeZone } from './time.js';

/** Settings of the Issues API. Every field has a Gitea-compatible default. */
export interface IssuesConfig {
  /**
   * Public root URL of the service, ending in `/` (Gitea's `AppURL`). Used for `url`,
   * `html_url`, `Link` headers and the `url` of error bodies.
   * @default 'http://localhost:3000/'
   */
  readonly publicUrl: string;
  /** `[api] DEFAULT_PAGING_NUM`: page size of repository lists when `limit` is absent or ≤ 0. @default 30 */
  readonly defaultPagingNum: number;
  /** `[api] MAX_RESPONSE_ITEMS`: the largest page size any list returns. @default 50 */
  readonly maxResponseItems: number;
  /** `[ui] ISSUE_PAGING_NUM`: page size of the cross-repository search when `limit` is absent or 0. @default 20 */
  readonly issuePagingNum: number;
  /** Largest accepted request body in bytes; larger bodies get 413. @default 1048576 */
  readonly maxBodyBytes: number;
  /**
   * IANA time zone of the server (Gitea's `DEFAULT_UI_LOCATION`, whose default is the server's
   * local zone): times are rendered in it and the deadline endpoint stores 23:59:59 of the given
   * date in it. Stored canonical: `Etc/UTC`, `GMT` and the like become `UTC`.
   * @default the process's zone (`TZ`, else the system's), `UTC` when it cannot be told
   */
  readonly timeZone: string;
}

/**
 * Gitea's defaults (notes §2). `timeZone` is the process's zone when this module loaded;
 * {@link resolveIssuesConfig} asks the process again each time it is not given one.
 */
export const DEFAULT_ISSUES_CONFIG: IssuesConfig = {
  publicUrl: 'http://localhost:3000/',
  defaultPagingNum: 30,
  maxResponseItems: 50,
  issuePagingNum: 20,
  maxBodyBytes: 1024 * 1024,
  timeZone: processTimeZone(),
};

/**
 * Fills missing settings with the defaults and normalises the public URL to end in `/`.
 *
 * @example
 * resolveIssuesConfig({ publicUrl: 'https://git.example.com' }).publicUrl; // 'https://git.example.com/'
 */
export function resolveIssuesConfig(partial: Partial<IssuesConfig> = {}): IssuesConfig {
  const merged = { ...DEFAULT_ISSUES_CONFIG, timeZone: processTimeZone(), ...definedOnly(partial) };
  const publicUrl = merged.publicUrl.endsWith('/') ? merged.publicUrl : `${merged.publicUrl}/`;
  for (const key of ['defaultPagingNum', 'maxResponseItems', 'issuePagingNum', 'maxBodyBytes'] as const) {
    if (!Number.isInteger(merged[key]) || merged[key] <= 0) {
      throw new RangeError(`IssuesConfig.${key} must be a positive integer, got ${merged[key]}`);
    }
  }
  // A RangeError for an unknown zone now rather than on the first request.
  let timeZone: string;
  try {
    timeZone = canonicalTimeZone(merged.timeZone);
  } catch {
    throw new RangeError(
      `IssuesConfig.timeZone must be an IANA time zone such as Europe/Berlin or UTC, got ${JSON.stringify(merged.timeZone)}`,
    );
  }
  return { ...merged, publicUrl, timeZone };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
