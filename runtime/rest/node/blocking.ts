/**
 * @module
 * `@Blocking` on Node: the module a method names is resolved at registration, and its export runs
 * in a worker-thread pool of the router's Node piece, so CPU-heavy work never stalls the event loop.
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RegistrationError } from '../errors.js';
import type { BlockingOptions } from '../metadata/raw.js';
import type { WorkerPoolOptions } from '../worker/pool.js';
import { WorkerPool } from '../worker/pool.js';

/**
 * The module a `@Blocking` method runs in, as a URL the worker can import. A relative path would
 * resolve against an unknown directory (the worker's, not the decorating module's), so it is refused.
 *
 * @example
 * ```ts
 * blockingModuleUrl(new URL('./fib.js', import.meta.url), 'Math.fib'); // 'file:///…/fib.js'
 * ```
 */
export function blockingModuleUrl(module: string | URL, where: string): string {
  if (module instanceof URL) return module.href;
  // Before the scheme test: a Windows drive (`C:\\…`) looks like one.
  if (isAbsolute(module)) return pathToFileURL(module).href;
  if (/^[a-z][a-z0-9+.-]+:/i.test(module)) return new URL(module).href;
  throw new RegistrationError(
    `${where}: @Blocking module "${module}" is relative; pass new URL('${module}', import.meta.url) or an absolute path`,
  );
}

/** The worker pools of one Node piece, by name, created on first use. */
export class BlockingPools {
  private readonly pools = new Map<string, WorkerPool>();

  constructor(private readonly options: Readonly<Record<string, WorkerPoolOptions>> = {}) {}

  /** What runs a `@Blocking` method: its module's export, in the pool it names. */
  runner(options: BlockingOptions, where: string): (args: readonly unknown[]) => Promise<unknown> {
    const url = blockingModuleUrl(options.module, where);
    const name = options.pool ?? 'default';
    return (args) => this.pool(name).run(url, options.export, args);
  }

  /** Terminates every pool; a later task starts new ones. */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.close()));
  }

  private pool(name: string): WorkerPool {
    let pool = this.pools.get(name);
    if (!pool) {
      pool = new WorkerPool({ name: `loom-rest-${name}`, ...this.options[name] });
      this.pools.set(name, pool);
    }
    return pool;
  }
}
