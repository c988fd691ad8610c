/**
 * @module
 * What every Issues API request passes before it is routed, in Gitea's order: the body size limit
 * (413), authentication (401 for a wrong credential; the caller becomes `issuesCaller`), then the
 * Content-Type rules (422). One middleware rather than three: each step of Hono's middleware chain
 * is an async call with its own dispatch, and served between database work the two extra steps
 * cost a `get` and a `create` measurably (docs/storage.md, "Benchmark").
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { IssueStore } from '../store/store.js';
import { requestCaller } from './auth.js';
import { declaredBodySize, limitStreamedBody } from './body-limit.js';
import { applyGiteaContentType } from './content-type.js';

/** Options of {@link issuesAdmission}. */
export interface IssuesAdmissionOptions {
  /** Where credentials are looked up. */
  readonly store: IssueStore;
  /** The largest body accepted, in bytes. */
  readonly maxBodyBytes: number;
  /** The answer to a body over the limit. */
  readonly onTooLarge: (c: Context) => Response | Promise<Response>;
}

/**
 * The middleware.
 *
 * @example
 * app.use('/api/v1/*', issuesAdmission({ store, maxBodyBytes: 1 << 20, onTooLarge: (c) => c.json({ message: 'too large' }, 413) }));
 */
export function issuesAdmission({ store, maxBodyBytes, onTooLarge }: IssuesAdmissionOptions): MiddlewareHandler {
  const counted = limitStreamedBody(maxBodyBytes, onTooLarge);
  const admit = async (c: Context, next: () => Promise<void>): Promise<void> => {
    c.set('issuesCaller', await requestCaller(store, c));
    applyGiteaContentType(c);
    await next();
  };
  return function issuesAdmissionMiddleware(c, next) {
    switch (declaredBodySize(c, maxBodyBytes)) {
      case 'within':
        return admit(c, next);
      case 'over':
        return Promise.resolve(onTooLarge(c));
      case 'streamed':
        // A chunked body is counted as the handler reads it, past authentication as before.
        return counted(c, () => admit(c, next));
    }
  };
}
