/**
 * @module
 * A worker-thread pool for `@Blocking` methods. Node runs one event loop: CPU-heavy handlers run here
 * so they never stall other requests. A task past `maxExecutionTime` (counted from the moment the
 * worker starts executing it, after thread start-up and module loading) fails with 503 and its worker
 * is terminated and replaced, so a runaway loop cannot take a thread with it.
 */
import { Worker } from 'node:worker_threads';
import { HttpError } from '../errors.js';

/** A worker pool for `@Blocking` methods. */
export interface WorkerPoolOptions {
  /** @default 2 */
  readonly size?: number;
  /** Milliseconds before the answer is 503 and the worker is replaced. @default 30000 */
  readonly maxExecutionTime?: number;
  /** Shown as the worker threads' name. @default 'loom-rest' */
  readonly name?: string;
}

interface Task {
  readonly id: number;
  readonly module: string;
  readonly name: string;
  readonly args: readonly unknown[];
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  task?: Task;
  timer?: NodeJS.Timeout;
}

const WORKER_URL = new URL('./worker-main.js', import.meta.url);
const STARTUP_ALLOWANCE_MS = 10_000;

/** Raised inside a task; the message comes from the worker. */
export class BlockingTaskError extends Error {
  override readonly name = 'BlockingTaskError';
}

/**
 * A fixed-size pool of worker threads.
 *
 * @example
 * ```ts
 * const pool = new WorkerPool({ size: 2, maxExecutionTime: 5_000, name: 'reports' });
 * const total = await pool.run(new URL('./sum.js', import.meta.url).href, 'sum', [[1, 2, 3]]);
 * await pool.close();
 * ```
 */
export class WorkerPool {
  readonly size: number;
  readonly maxExecutionTime: number;
  readonly name: string;
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  /** How many workers were replaced after a timeout (for tests and metrics). */
  replaced = 0;

  constructor(options: WorkerPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? 2);
    this.maxExecutionTime = options.maxExecutionTime ?? 30_000;
    this.name = options.name ?? 'loom-rest';
  }

  /** Runs `name` exported by `module` (a `file:` URL or path) with `args` in a worker. */
  run(module: string, name: string, args: readonly unknown[]): Promise<unknown> {
    if (this.closed) return Promise.reject(new HttpError(503, `Worker pool ${this.name} is closed`));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, module, name, args, resolve, reject });
      this.dispatch();
    });
  }

  /** Terminates every worker; queued tasks fail with 503. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new HttpError(503, `Worker pool ${this.name} is closed`));
    await Promise.all(
      this.slots.splice(0).map((s) => {
        if (s.timer) clearTimeout(s.timer);
        s.task?.reject(new HttpError(503, `Worker pool ${this.name} is closed`));
        return s.worker.terminate();
      }),
    );
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL, { name: this.name });
    // Idle workers must not keep the process alive.
    worker.unref();
    const slot: Slot = { worker };
    worker.on('message', (msg: { id: number; started?: boolean; ok?: boolean; value?: unknown; message?: string }) => {
      const task = slot.task;
      if (!task || task.id !== msg.id) return;
      if (msg.started) {
        this.startTimer(slot, task);
        return;
      }
      this.finish(slot);
      if (msg.ok) task.resolve(msg.value);
      else task.reject(new BlockingTaskError(msg.message ?? 'task failed'));
    });
    worker.on('error', (error) => {
      const task = slot.task;
      this.retire(slot);
      task?.reject(error);
    });
    this.slots.push(slot);
    return slot;
  }

  /** Starts the time limit once the worker begins executing the task. */
  private startTimer(slot: Slot, task: Task, limit = this.maxExecutionTime): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      this.replaced++;
      slot.task = undefined;
      this.retire(slot);
      task.reject(new HttpError(503, `Service Unavailable: ${task.name} exceeded ${this.maxExecutionTime} ms in pool ${this.name}`));
    }, limit);
  }

  private finish(slot: Slot): void {
    this.free(slot);
    this.dispatch();
  }

  /** Makes a slot idle again; an idle worker must not keep the process alive. */
  private free(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.task = undefined;
    slot.worker.unref();
  }

  private retire(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    void slot.worker.terminate();
    if (!this.closed) this.dispatch();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => !s.task) ?? (this.slots.length < this.size ? this.spawn() : undefined);
      if (!slot) return;
      const task = this.queue.shift()!;
      slot.task = task;
      slot.worker.ref();
      // Until the worker says it started, allow for thread start-up and module loading on a busy machine.
      this.startTimer(slot, task, this.maxExecutionTime + STARTUP_ALLOWANCE_MS);
      try {
        slot.worker.postMessage({ id: task.id, module: task.module, name: task.name, args: task.args });
      } catch (error) {
        // Arguments that cannot be cloned (a function, a socket) throw here, synchronously. This loop also
        // runs from worker events, where the throw would be uncaught: fail the task, keep the worker.
        this.free(slot);
        task.reject(error);
      }
    }
  }
}
