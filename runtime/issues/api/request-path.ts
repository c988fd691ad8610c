/**
 * @module
 * The path the Issues API routes on, as Gitea's `stripSlashesMiddleware` makes it: trailing
 * slashes dropped and runs of slashes collapsed, so `/api/v1/repos/o/r/issues/` and
 * `/api/v1//repos/o/r/issues` reach the same operation as `/api/v1/repos/o/r/issues`.
 */
import { getPath } from 'hono/utils/url';

/**
 * `path` with trailing slashes removed and repeated slashes collapsed; `/` stays `/`.
 *
 * @example
 * giteaPath('/api/v1//repos/o/r/issues/'); // '/api/v1/repos/o/r/issues'
 */
export function giteaPath(path: string): string {
  // Almost every request is already clean: answer it without allocating.
  if (!path.includes('//') && (path.length <= 1 || !path.endsWith('/'))) return path;
  // Collapsed, the path ends in at most one slash; `/` alone is kept.
  const collapsed = path.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
}

/**
 * Hono's `getPath` for the Issues app: the request's path (percent-decoded as Hono does) made
 * Gitea's way by {@link giteaPath}.
 *
 * @example
 * const app = new Hono({ getPath: giteaRequestPath });
 */
export function giteaRequestPath(request: Request): string {
  return giteaPath(getPath(request));
}
