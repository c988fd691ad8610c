/**
 * @module
 * The Issues service's entry for the composition root: build the Hono app over a store,
 * bootstrap the administrator from the environment, subscribe to issue events.
 */
import type { Hono } from 'hono';
import { type CreateIssuesAppOptions, createIssuesApp } from './api/app.js';
import { adminFromEnv, bootstrapAdmin } from './api/bootstrap.js';
import { createIssueEventBus, type IssueEventBus } from './api/events.js';
import type { UserRow } from './store/store.js';

export { type CreateIssuesAppOptions, createIssuesApp } from './api/app.js';
export { adminFromEnv, type BootstrapAdminOptions, bootstrapAdmin } from './api/bootstrap.js';
export { DEFAULT_ISSUES_CONFIG, type IssuesConfig, resolveIssuesConfig } from './api/config.js';
export {
  createIssueEventBus,
  type IssueEventBus,
  type IssueEventListener,
  type IssueEventMap,
  type IssueEventType,
} from './api/events.js';
export type { IssueStore } from './store/store.js';

/** Options of {@link createIssuesService}. */
export interface IssuesServiceOptions extends Omit<CreateIssuesAppOptions, 'events'> {
  /** Environment holding `LOOM_ADMIN_USER` / `LOOM_ADMIN_PASSWORD`. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A ready Issues service. */
export interface IssuesService {
  /** Routes under `/api/v1`; mount it or serve `app.fetch`. */
  readonly app: Hono;
  /** Title and state changes of edits, for other code in the process. */
  readonly events: IssueEventBus;
  /** The administrator created from the environment on this start, if any. */
  readonly bootstrappedAdmin: UserRow | undefined;
}

/**
 * Bootstraps the administrator (first start) and builds the app.
 *
 * @example
 * const store = await createStore(process.env.DATABASE_URL);
 * const { app, events } = await createIssuesService({ store, config: { publicUrl: 'http://localhost:3000/' } });
 * serve({ fetch: app.fetch, port: 3000 });
 */
export async function createIssuesService(options: IssuesServiceOptions): Promise<IssuesService> {
  const admin = adminFromEnv(options.env ?? process.env);
  const bootstrappedAdmin = admin ? await bootstrapAdmin(options.store, admin) : undefined;
  const events = createIssueEventBus();
  const app = createIssuesApp({ ...options, events });
  return { app, events, bootstrappedAdmin };
}
