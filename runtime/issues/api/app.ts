/**
 * @module
 * `createIssuesApp`: the Gitea-compatible Issues API as a Hono app (routes under `/api/v1`),
 * with authentication, the body size limit, Gitea's error shape and the event bus wired in.
 */
import { Hono } from 'hono';
import { PatternRouter } from 'hono/router/pattern-router';
import type { IssueStore } from '../store/store.js';
import { issuesAdmission } from './admission.js';
import { guardWrites } from './binding-order.js';
import { type IssuesConfig, resolveIssuesConfig } from './config.js';
import { createIssuesErrorHandler } from './error-handler.js';
import { apiErrorBody, giteaJson } from './errors.js';
import { createIssueEventBus, type IssueEventBus } from './events.js';
import { giteaRequestPath } from './request-path.js';
import { issuesRestRouter } from './rest-binding.js';

/** Options of {@link createIssuesApp}. */
export interface CreateIssuesAppOptions {
  /** Where issues, users and repositories live. */
  readonly store: IssueStore;
  /** Overrides of the Gitea-compatible defaults (public URL, page sizes, body limit, time zone). */
  readonly config?: Partial<IssuesConfig>;
  /** The bus edits publish to; pass one to subscribe. @default a new bus */
  readonly events?: IssueEventBus;
  /** Receives unexpected errors (answered 500). @default console.error */
  readonly onUnexpectedError?: (error: unknown) => void;
}

/**
 * Builds the Issues API.
 *
 * @example
 * const store = await createStore(':memory:');
 * const events = createIssueEventBus();
 * events.subscribe('issue.state_changed', (e) => console.log(e.issue.index, e.newState));
 * const app = createIssuesApp({ store, events, config: { publicUrl: 'https://git.example.com/' } });
 * serve({ fetch: app.fetch, port: 3000 });
 */
export function createIssuesApp(options: CreateIssuesAppOptions): Hono {
  const config = resolveIssuesConfig(options.config);
  const events = options.events ?? createIssueEventBus();
  const services = { store: options.store, config, events };
  // Hono's default router tries its RegExpRouter first, which cannot hold a literal segment beside
  // a variable one (Gitea's `/repos/issues/search` beside `/repos/{owner}/{repo}/issues`), and so
  // settles on its TrieRouter. For this fixed set of a few dozen routes a list of precompiled
  // patterns matches in less than half the time (docs/storage.md, "Benchmark").
  const app = new Hono({ router: new PatternRouter(), getPath: giteaRequestPath });
  const onUnexpected = options.onUnexpectedError;
  app.onError(createIssuesErrorHandler(config, onUnexpected ? { onUnexpected: (e) => onUnexpected(e) } : {}));
  app.notFound(() => giteaJson(apiErrorBody('not found', config.publicUrl), 404));
  app.use(
    '/api/v1/*',
    issuesAdmission({
      store: options.store,
      maxBodyBytes: config.maxBodyBytes,
      onTooLarge: () => giteaJson(apiErrorBody(`request body is larger than ${config.maxBodyBytes} bytes`, config.publicUrl), 413),
    }),
  );
  const errorOptions = onUnexpected ? { onUnexpected: (e: unknown) => onUnexpected(e) } : {};
  const router = issuesRestRouter(services, config, errorOptions);
  // Before the routes: anonymous writes are refused before their bodies are read, and overlong
  // arrays before they are parsed.
  guardWrites(app, router.routes(), options.store);
  app.route('/', router.app());
  return app;
}
