/**
 * @module
 * The seam between the composition root and each service. A service module opens what
 * it needs (database, host adapter), mounts its routes on the shared Hono app, may start
 * listeners of its own (gRPC), reports readiness checks and API documents, tells the
 * banner what it is using, and closes everything on shutdown. Adding a service to the
 * server is one factory in `services/` and one line in `services/index.ts`.
 */
import type { Hono } from 'hono';
import type { ServerConfig } from './config.js';
import type { ApiDocument } from './docs-page.js';
import type { ReadinessCheck } from './health.js';
import type { Logger } from './logger.js';
import type { ServiceName } from './options.js';

/** What a service factory gets. */
export interface ServiceContext {
  readonly config: ServerConfig;
  /** Child logger named after the service. */
  readonly logger: Logger;
  /** Repository (or install) root: `generated/` is found under it. */
  readonly rootDir: string;
  /** Origin clients reach the HTTP server on (`LOOM_PUBLIC_URL`, else `http://localhost:<bound port>`). */
  readonly origin: string;
}

/** A listener a service opened besides the shared HTTP server. */
export interface Endpoint {
  /** `gRPC`, `gRPC (unix socket)`. */
  readonly label: string;
  /** `127.0.0.1:50051`, `unix:/run/loom.sock`. */
  readonly address: string;
}

/** What the start-up banner prints for a service. */
export interface ServiceSummary {
  /** Facts such as `database: SQLite ./data/loom.db`, as label/value pairs. */
  readonly facts: readonly (readonly [string, string])[];
  /** Copy-pasteable commands that call the running service. */
  readonly examples: readonly string[];
}

/** A running service, as the composition root sees it. */
export interface ServiceModule {
  readonly name: ServiceName;
  /** Checks `/readyz` runs for this service. */
  readonly checks: readonly ReadinessCheck[];
  /** Generated OpenAPI documents `/docs` shows for this service. */
  readonly documents: readonly ApiDocument[];
  /** Adds the service's routes to the shared app. */
  mount(app: Hono): void;
  /** Starts listeners of its own after the HTTP server listens (gRPC). */
  listen?(): Promise<readonly Endpoint[]>;
  /** Banner facts and example calls, given the origin the HTTP server is reachable on. */
  summary(origin: string): ServiceSummary;
  /**
   * Shutdown has begun: stop accepting on own listeners and let in-flight calls finish (within
   * the shutdown bound). Runs at the same time as the HTTP drain, so every transport stops
   * taking new work at once.
   */
  drain?(timeoutMs: number): Promise<void>;
  /** Releases everything (after the HTTP drain and `drain`); stops own listeners if still open. */
  close(): Promise<void>;
}

/**
 * Opens a service. Throws {@link StartupError} for problems the user can fix.
 *
 * @example
 * ```ts
 * const createHelloModule: ServiceFactory = async () => ({
 *   name: 'issues', checks: [], documents: [],
 *   mount: (app) => void app.get('/hello', (c) => c.text('hi')),
 *   summary: (origin) => ({ facts: [], examples: [`curl ${origin}/hello`] }),
 *   close: async () => {},
 * });
 * ```
 */
export type ServiceFactory = (context: ServiceContext) => Promise<ServiceModule>;

/** A start-up failure with a one-line message for the operator (no stack trace needed). */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}
