import { describe, expect, it } from 'vitest';
import { healthRoutes, type ReadinessCheck } from './health.js';

const ok = (name: string): ReadinessCheck => ({ name, check: async () => {} });
const failing = (name: string, message: string): ReadinessCheck => ({ name, check: async () => Promise.reject(new Error(message)) });

describe('healthRoutes', () => {
  it('answers /healthz while the process is up, even when a dependency is down', async () => {
    const app = healthRoutes({ checks: () => [failing('database', 'down')], isDraining: () => false });
    const res = await app.request('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 with every check when all pass', async () => {
    const app = healthRoutes({ checks: () => [ok('database'), ok('hostAdapter')], isDraining: () => false });
    const res = await app.request('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { database: { status: 'ok' }, hostAdapter: { status: 'ok' } } });
  });

  it('answers /readyz 503 naming the failing check and why', async () => {
    const app = healthRoutes({
      checks: () => [failing('database', 'connect ECONNREFUSED 127.0.0.1:5432'), ok('hostAdapter')],
      isDraining: () => false,
    });
    const res = await app.request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'unavailable',
      checks: { database: { status: 'failed', error: 'connect ECONNREFUSED 127.0.0.1:5432' }, hostAdapter: { status: 'ok' } },
    });
  });

  it('fails a check that does not answer within the bound, and aborts it', async () => {
    let aborted = false;
    const hung: ReadinessCheck = {
      name: 'hostAdapter',
      check: (signal) =>
        new Promise(() => {
          signal.addEventListener('abort', () => (aborted = true));
        }),
    };
    const app = healthRoutes({ checks: () => [hung], isDraining: () => false, timeoutMs: 20 });
    const res = await app.request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'unavailable',
      checks: { hostAdapter: { status: 'failed', error: 'no answer within 20 ms' } },
    });
    expect(aborted).toBe(true);
  });

  it('reports not ready while shutting down', async () => {
    const app = healthRoutes({ checks: () => [ok('database')], isDraining: () => true });
    const res = await app.request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'shutting_down', checks: {} });
  });
});
