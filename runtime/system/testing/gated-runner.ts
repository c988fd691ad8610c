/**
 * @module
 * A {@link CommandRunner} whose start/stop jobs block until the test releases them, for proving
 * what can and cannot run while jobs hold their slots (queries must not wait behind them).
 * Nothing is timed: the test waits for "n jobs are running" and releases when it has checked.
 */
import type { CommandOptions, CommandResult, CommandRunner } from '../command-runner.js';

/** One command as the gated runner saw it. */
export interface GatedCall {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>> | undefined;
}

/** What the runner needs to know about the adapter's commands. */
export interface GatedRunnerOptions {
  /** True for a command that is a start/stop job (it waits for {@link GatedRunner.release}). */
  readonly isJob: (call: GatedCall) => boolean;
  /** The reply to a command; for a job, given once it is released. */
  readonly reply: (call: GatedCall, released: boolean) => CommandResult;
}

/**
 * @example
 * ```ts
 * const runner = new GatedRunner({ isJob: (c) => c.args[0] === 'start', reply: () => ok('') });
 * const starts = names.map((n) => host.startService(n));
 * await runner.jobsRunning(4);   // every job slot is taken
 * await host.getService('other'); // and a query still answers
 * runner.release();
 * ```
 */
export class GatedRunner implements CommandRunner {
  /** The most jobs that ran at once. */
  peakJobs = 0;
  #jobs = 0;
  #released = false;
  #open!: () => void;
  readonly #gate = new Promise<void>((resolve) => (this.#open = resolve));
  readonly #waiters: Array<{ count: number; resolve: () => void }> = [];

  constructor(private readonly options: GatedRunnerOptions) {}

  async run(file: string, args: readonly string[], options: CommandOptions = {}): Promise<CommandResult> {
    const call: GatedCall = { file, args: [...args], env: options.env };
    if (!this.options.isJob(call)) return this.options.reply(call, this.#released);
    this.#jobs++;
    this.peakJobs = Math.max(this.peakJobs, this.#jobs);
    for (const waiter of this.#waiters.filter((w) => this.#jobs >= w.count)) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    try {
      await this.#gate;
      return this.options.reply(call, true);
    } finally {
      this.#jobs--;
    }
  }

  /** Resolves once `count` jobs are running (blocked at the gate) at the same time. */
  jobsRunning(count: number): Promise<void> {
    if (this.#jobs >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  /** Lets every job, running or to come, finish. */
  release(): void {
    this.#released = true;
    this.#open();
  }
}
