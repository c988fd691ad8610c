/**
 * @module
 * `GET /healthz` (the process is up and serving) and `GET /readyz` (every dependency
 * answers: the database, the host adapter). Orchestrators restart on a failing liveness
 * probe and stop routing on a failing readiness probe, so the two must stay apart:
 * a database outage makes the server unready, never "dead".
 */
import { Hono } from 'hono';

/** One dependency the server needs to serve traffic. */
export interface ReadinessCheck {
  /** Key in the `/readyz` body: `database`, `hostAdapter`. */
  readonly name: string;
  /** Resolves when the dependency answers; rejects with a message saying what is wrong. */
  check(signal: AbortSignal): Promise<void>;
}

/** Options of {@link healthRoutes}. */
export interface HealthOptions {
  /** The checks `/readyz` runs, all in parallel. */
  readonly checks: () => readonly ReadinessCheck[];
  /** True once shutdown began: `/readyz` answers 503 so load balancers stop sending traffic. */
  readonly isDraining: () => boolean;
  /** Bound on each check, so a hung database makes `/readyz` fail rather than hang. @default 2000 */
  readonly timeoutMs?: number;
}

/** A check's outcome as `/readyz` reports it. */
export type CheckResult = { readonly status: 'ok' } | { readonly status: 'failed'; readonly error: string };

/**
 * The health routes, to mount at the root of the server.
 *
 * @example
 * ```ts
 * app.route('/', healthRoutes({ checks: () => [{ name: 'database', check: () => store.ping() }], isDraining: () => false }));
 * // GET /readyz → 200 {"status":"ready","checks":{"database":{"status":"ok"}}}
 * // or         → 503 {"status":"unavailable","checks":{"database":{"status":"failed","error":"connect ECONNREFUSED"}}}
 * ```
 */
export function healthRoutes({ checks, isDraining, timeoutMs = 2000 }: HealthOptions): Hono {
  const app = new Hono();
  app.get('/healthz', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'ok' });
  });
  app.get('/readyz', async (c) => {
    c.header('Cache-Control', 'no-store');
    if (isDraining()) return c.json({ status: 'shutting_down', checks: {} }, 503);
    const list = checks();
    const results = await Promise.all(list.map((check) => runCheck(check, timeoutMs)));
    const body: Record<string, CheckResult> = {};
    list.forEach((check, i) => {
      body[check.name] = results[i]!;
    });
    const ready = results.every((result) => result.status === 'ok');
    return c.json({ status: ready ? 'ready' : 'unavailable', checks: body }, ready ? 200 : 503);
  });
  return app;
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    await Promise.race([check.check(controller.signal), timeout]);
    return { status: 'ok' };
  } catch (error) {
    return { status: 'failed', error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
