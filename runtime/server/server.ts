/**
 * @module
 * Starting and stopping the whole server: open every service module, serve the shared
 * app over HTTP, start the services' own listeners, and on shutdown drain HTTP within
 * the bound before closing the services (gRPC, database) in reverse order. `main.ts`
 * adds only the process concerns (arguments, signals, exit codes) on top.
 */
import { createServerApp } from './app.js';
import { publicOrigin, type ServerConfig } from './config.js';
import { type DrainResult, type FetchHandler, listenHttp } from './http-server.js';
import type { Logger } from './logger.js';
import type { ServiceName } from './options.js';
import type { Endpoint, ServiceFactory, ServiceModule } from './service-module.js';

/** Options of {@link startServer}. */
export interface StartOptions {
  readonly config: ServerConfig;
  readonly logger: Logger;
  /** How to open each service; `services/index.ts` has the real ones, tests pass their own. */
  readonly factories: Readonly<Record<ServiceName, ServiceFactory>>;
  readonly rootDir: string;
}

/** A server that is up. */
export interface RunningServer {
  readonly config: ServerConfig;
  /** The HTTP port actually bound. */
  readonly port: number;
  /** Origin for the banner and examples. */
  readonly origin: string;
  /** Listeners the services opened (gRPC). */
  readonly endpoints: readonly Endpoint[];
  readonly modules: readonly ServiceModule[];
  /** HTTP requests accepted and not yet answered. */
  inFlight(): number;
  /** Drains and closes everything; safe to call more than once (later calls share the first). */
  shutdown(): Promise<ShutdownResult>;
}

/** How shutdown went. */
export interface ShutdownResult extends DrainResult {
  /** Services whose close failed, with the reason. */
  readonly failures: readonly { readonly service: ServiceName; readonly error: string }[];
}

/**
 * Opens the configured services and starts serving.
 *
 * @throws StartupError (or the service's own error) when a service or a listener cannot start;
 *   services opened before the failure are closed again.
 * @example
 * ```ts
 * const server = await startServer({ config, logger, factories: SERVICE_FACTORIES, rootDir });
 * process.once('SIGTERM', () => void server.shutdown().then(() => process.exit(0)));
 * ```
 */
export async function startServer({ config, logger, factories, rootDir }: StartOptions): Promise<RunningServer> {
  const modules: ServiceModule[] = [];
  let draining = false;
  // The port is bound first: a taken port fails in a second, not after a long migration,
  // and services learn the real origin (PORT=0) before they build their routes. Until
  // the app is ready every request gets a 503, which is also what /readyz must say then.
  let handler: FetchHandler = starting;
  const http = await listenHttp({
    fetch: (request, env) => handler(request, env),
    host: config.host,
    port: config.port,
    limits: {
      headersTimeoutMs: config.headersTimeoutMs,
      requestTimeoutMs: config.requestTimeoutMs,
      bodyIdleTimeoutMs: config.bodyIdleTimeoutMs,
      keepAliveTimeoutMs: config.keepAliveTimeoutMs,
      bodyBudgetBytes: config.bodyBudgetBytes,
      drainGraceMs: config.drainGraceMs,
    },
    log: logger,
  });
  const origin = publicOrigin(config, http.port);
  try {
    for (const name of config.services) {
      modules.push(await factories[name]({ config, logger: logger.child({ service: name }), rootDir, origin }));
    }
    const app = createServerApp({ logger, modules, isDraining: () => draining, publicUrl: config.publicUrl });
    handler = app.fetch;
    const endpoints: Endpoint[] = [];
    for (const module of modules) if (module.listen !== undefined) endpoints.push(...(await module.listen()));
    let stopping: Promise<ShutdownResult> | undefined;
    return {
      config,
      port: http.port,
      origin,
      endpoints,
      modules,
      inFlight: () => http.inFlight(),
      shutdown() {
        stopping ??= (async () => {
          draining = true;
          const [drained] = await Promise.all([
            http.drain(config.shutdownTimeoutMs),
            ...modules.map((module) => drainModule(module, config.shutdownTimeoutMs, logger)),
          ]);
          const failures = await closeAll(modules, logger);
          return { ...drained, failures };
        })();
        return stopping;
      },
    };
  } catch (error) {
    await http.drain(0);
    await closeAll(modules, logger);
    throw error;
  }
}

function starting(): Response {
  return Response.json({ error: 'unavailable', message: 'the server is starting' }, { status: 503, headers: { 'Retry-After': '1' } });
}

/** A failing drain is logged and left to `close`, which runs next anyway. */
async function drainModule(module: ServiceModule, timeoutMs: number, logger: Logger): Promise<void> {
  try {
    await module.drain?.(timeoutMs);
  } catch (error) {
    logger.error({ service: module.name, err: error }, `draining ${module.name} failed`);
  }
}

/** Closes services in reverse start order; one failing close does not keep the others open. */
async function closeAll(modules: readonly ServiceModule[], logger: Logger): Promise<ShutdownResult['failures']> {
  const failures: { service: ServiceName; error: string }[] = [];
  for (const module of [...modules].reverse()) {
    try {
      await module.close();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.error({ service: module.name, err: error }, `closing ${module.name} failed`);
      failures.push({ service: module.name, error: message });
    }
  }
  return failures;
}
