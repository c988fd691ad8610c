/**
 * @module
 * Validators compiled off the main thread, in parallel with the other emitters.
 *
 * Emitters are synchronous and see only the model, so the parallelism lives here: the CLI
 * starts a worker at the beginning of a run (it loads ajv while the schemas load), sends it
 * each file's compile input as soon as the model exists, runs every other emitter, then
 * hands the worker's results to the validators emitter as a {@link GeneratorCache} whose
 * entries are already there. The emitter's output is the same byte for byte: it is the same
 * `compileStandalone` on the same input, only run elsewhere.
 *
 * Only the compiled generator (`dist/`) uses a worker: a worker cannot load the TypeScript
 * sources without a loader of its own, whose start-up would cost more than it saves. Under
 * tsx and in tests the validators compile in process, as before.
 */
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { GeneratorCache } from '../emit.js';
import type { ValidatorsJob } from '../emitters/validators/validators.js';

/**
 * One compile job as the worker receives it. The documents travel as JSON text: for a large API
 * (~1 MB of schemas) copying a string and parsing it in the worker is several times faster than
 * the structured clone of the object graph, and this copy is on the run's critical path.
 */
export interface CompileRequest {
  readonly id: number;
  /** `CompileInput.documents` as JSON. */
  readonly documents: string;
  /** `CompileInput.exports` as entries. */
  readonly exports: readonly (readonly [string, string])[];
}

/** The worker's answer to one {@link CompileRequest}. */
export type CompileReply = { readonly id: number; readonly code: string } | { readonly id: number; readonly error: string };

/** A running validators worker. */
export interface ValidatorsCompiler {
  /**
   * Compiles the jobs in the worker. Resolves with key → code for every job that compiled;
   * a job that failed, or a worker that died, is simply missing (the emitter then compiles
   * it in process and reports any schema problem itself). Never rejects.
   */
  compile(jobs: readonly ValidatorsJob[]): Promise<Map<string, string>>;
  /** Stops the worker (without waiting: it never keeps the process alive). Safe to call twice. */
  close(): void;
}

/**
 * Starts the validators worker, or returns undefined when this module runs from TypeScript
 * sources (tsx, vitest): the worker entry is then not loadable by plain Node.
 *
 * @example
 * const compiler = startValidatorsCompiler();
 * const compiled = compiler?.compile(files.flatMap((f) => validatorsJob(f) ?? [])); // runs while other emitters do
 * … emit other files …
 * const cache = prefilledCache(await compiled, diskCache);
 * compiler?.close();
 */
export function startValidatorsCompiler(): ValidatorsCompiler | undefined {
  if (!import.meta.url.endsWith('.js')) return undefined;
  let worker: Worker;
  try {
    worker = new Worker(new URL('./validators-worker.js', import.meta.url), {
      // Not the parent's Node flags: some (`--input-type`, `--eval`) stop a worker from
      // starting at all. The one that matters here, the heap limit, is passed on explicitly.
      // (A larger young generation was measured too: no gain in time or CPU on Gitea's API.)
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: Math.ceil(getHeapStatistics().heap_size_limit / 2 ** 20) },
      stdout: false,
      stderr: false,
    });
  } catch {
    return undefined;
  }
  // Never keep the process alive, whatever happens to the run.
  worker.unref();
  let failure: Error | undefined;
  const waiting = new Set<(reply: CompileReply | undefined) => void>();
  const settleAll = () => {
    for (const resolve of waiting) resolve(undefined);
    waiting.clear();
  };
  const replies = new Map<number, CompileReply>();
  worker.on('message', (reply: CompileReply) => {
    replies.set(reply.id, reply);
    for (const resolve of [...waiting]) resolve(reply);
  });
  worker.on('error', (e) => {
    failure = e;
    settleAll();
  });
  worker.on('exit', () => {
    failure ??= new Error('validators worker exited');
    settleAll();
  });
  let nextId = 0;

  return {
    compile(jobs) {
      const pending = new Map<number, ValidatorsJob>();
      const sent = new Set<ValidatorsJob>();
      for (const job of jobs) {
        if (sent.has(job)) continue;
        sent.add(job);
        const id = nextId++;
        pending.set(id, job);
        worker.postMessage({ id, documents: job.documentsJson, exports: [...job.input.exports] } satisfies CompileRequest);
      }
      // Hashed while the worker compiles, not before it starts: the replies are handed on by key.
      for (const job of sent) void job.key;
      return new Promise((resolve) => {
        const done = () => {
          const out = new Map<string, string>();
          for (const [id, job] of pending) {
            const reply = replies.get(id);
            if (reply && 'code' in reply) out.set(job.key, reply.code);
          }
          resolve(out);
        };
        const answered = () => [...pending.keys()].every((id) => replies.has(id));
        if (failure || answered()) return done();
        const onReply = (reply: CompileReply | undefined) => {
          if (reply === undefined || answered()) {
            waiting.delete(onReply);
            done();
          }
        };
        waiting.add(onReply);
      });
    },
    close() {
      settleAll();
      void worker.terminate();
    },
  };
}

/**
 * A cache answering from `compiled` first, then from `fallback` (the on-disk cache, if any).
 * An entry served from `compiled` is also stored in `fallback`: the emitter stores only what
 * it compiled itself, and work done in the worker should be reused by the next run too.
 *
 * @example
 * emit(files, [validatorsEmitter], { ...options, cache: prefilledCache(compiled, options.cache) });
 */
export function prefilledCache(compiled: ReadonlyMap<string, string>, fallback: GeneratorCache | undefined): GeneratorCache {
  const unsaved = new Set(compiled.keys());
  return {
    get(key) {
      const code = compiled.get(key);
      if (code === undefined) return fallback?.get(key);
      if (unsaved.delete(key)) fallback?.set(key, code);
      return code;
    },
    set: (key, value) => fallback?.set(key, value),
  };
}
