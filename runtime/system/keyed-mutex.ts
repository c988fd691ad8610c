/**
 * @module
 * A keyed async mutex: calls with the same key run one at a time, in arrival order; calls with
 * different keys run in parallel. The System handler keys it by service, so that fifty clients
 * racing start and stop on one service are applied in some serial order.
 */

interface Waiter {
  readonly wake: () => void;
}

/**
 * @example
 * ```ts
 * const mutex = new KeyedMutex();
 * await Promise.all([
 *   mutex.run('db', () => host.startService('db')),   // runs first
 *   mutex.run('db', () => host.stopService('db', { force: false })), // then this
 *   mutex.run('web', () => host.getService('web')),  // in parallel with both
 * ]);
 * ```
 */
export class KeyedMutex {
  /** Per key: the queue of callers waiting behind the one that holds the lock. Absent key = free. */
  readonly #queues = new Map<string, Waiter[]>();

  /** How many keys are held right now (for tests and health output). */
  get size(): number {
    return this.#queues.size;
  }

  /**
   * Runs `fn` once every earlier call with the same key has settled.
   *
   * When `signal` aborts while the call is still waiting, it leaves the queue and rejects with
   * the signal's reason; once `fn` runs, aborting is up to `fn`.
   */
  async run<T>(key: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#acquire(key, signal);
    try {
      return await fn();
    } finally {
      this.#release(key);
    }
  }

  #acquire(key: string, signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    const queue = this.#queues.get(key);
    if (queue === undefined) {
      this.#queues.set(key, []);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #release(key: string): void {
    const queue = this.#queues.get(key);
    const next = queue?.shift();
    // Hand the lock straight to the next waiter, so that no newcomer can overtake it.
    if (next) next.wake();
    else this.#queues.delete(key);
  }
}
