/**
 * @module
 * Runs the emitters with validator compilation overlapped: the validators' compile jobs go
 * to a worker (when there is one) as soon as the model is loaded, every other emitter (and the
 * validators' declarations) runs meanwhile, and the validators' code is emitted last with the
 * worker's results at hand.
 *
 * The output is what one {@link emit} call with all emitters gives: emitters are
 * independent, each writes its own files, and the result is sorted by path. Only the order
 * of warnings could differ, and the validators emitter reports none.
 */

import type { EmitResult, Emitter, GeneratorCache, GeneratorOptions, OutputFile } from '../emit.js';
import { emit } from '../emit.js';
import type { ValidatorsJob } from '../emitters/validators/validators.js';
import { validatorCodeEmitter, validatorSchemasEmitter, validatorsEmitter, validatorsJob } from '../emitters/validators/validators.js';
import type { SchemaFile } from '../model/model.js';
import type { ValidatorsCompiler } from './validators-prefetch.js';
import { prefilledCache } from './validators-prefetch.js';

/**
 * Sends the validators' compile jobs of `files` to the worker, skipping what `cache` holds.
 * Call it as soon as the model exists: the worker compiles while the caller goes on
 * (loading templates, running the other emitters). Undefined without a worker or jobs.
 *
 * @example
 * const compiling = compileValidatorsAhead(files, cache, startValidatorsCompiler());
 * const result = await emitAll(files, emitters, { ...options, cache }, compiling);
 */
export function compileValidatorsAhead(
  files: readonly SchemaFile[],
  cache: GeneratorCache | undefined,
  compiler: ValidatorsCompiler | undefined,
): Promise<ReadonlyMap<string, string>> | undefined {
  if (!compiler) return undefined;
  const jobs: ValidatorsJob[] = [];
  for (const file of files) {
    const job = validatorsJob(file);
    // What the on-disk cache holds already is not worth a round trip.
    // A large document stays here: the worker would hold a second copy of it (GitHub's 6 MB of
    // schemas cost ~100 MB there), and compiling takes this thread well under a second.
    if (job && job.documentsJson.length <= WORKER_LIMIT && cache?.get(job.key) === undefined) jobs.push(job);
  }
  return jobs.length > 0 ? compiler.compile(jobs) : undefined;
}

/** Characters of schema JSON past which a file's validators are compiled in process rather than in the worker. */
export const WORKER_LIMIT = 2 * 1024 * 1024;

/** A run's output in two parts: what needed no compiled validators, and the rest when it comes. */
export interface StagedEmit {
  /** Every emitter's output except the compiled validators (`X.validators.js`). */
  readonly ready: EmitResult;
  /** The compiled validators, once the worker (or this thread) has them. */
  readonly pending: Promise<EmitResult>;
}

/**
 * Emits `files` with `emitters`, the compiled validators last. The caller can compare `ready`
 * with the output folder while the worker still compiles: that work is then off the run's
 * critical path, which is the compile.
 *
 * @example
 * const { ready, pending } = emitStaged(files, BUILTIN_EMITTERS, options, compiling);
 */
export function emitStaged(
  files: readonly SchemaFile[],
  emitters: readonly Emitter[],
  options: GeneratorOptions,
  compiling?: Promise<ReadonlyMap<string, string>>,
): StagedEmit {
  if (!emitters.includes(validatorsEmitter))
    return { ready: emit(files, emitters, options), pending: Promise.resolve({ files: [], warnings: [] }) };
  const others = emitters.flatMap((e) => (e === validatorsEmitter ? [validatorSchemasEmitter] : [e]));
  const ready = emit(files, others, options);
  const pending = (async () => {
    const compiled = (await compiling) ?? new Map<string, string>();
    const code = emit(files, [validatorCodeEmitter], { ...options, cache: prefilledCache(compiled, options.cache) });
    // Each run reports the files' own (loader) warnings first; the first run has them already.
    const loaderWarnings = files.reduce((n, f) => n + f.warnings.length, 0);
    return { files: code.files, warnings: code.warnings.slice(loaderWarnings) };
  })();
  return { ready, pending };
}

/**
 * Emits `files` with `emitters`. With `compiling` (from {@link compileValidatorsAhead}), the
 * validators' code is emitted last and takes the worker's results; anything missing from them
 * it compiles itself, as it does without a worker.
 *
 * @example
 * const result = await emitAll(files, [...BUILTIN_EMITTERS, ...plugins], options, compiling);
 */
export async function emitAll(
  files: readonly SchemaFile[],
  emitters: readonly Emitter[],
  options: GeneratorOptions,
  compiling?: Promise<ReadonlyMap<string, string>>,
): Promise<EmitResult> {
  const { ready, pending } = emitStaged(files, emitters, options, compiling);
  return mergeResults(ready, await pending);
}

/** One result from the two parts of a {@link StagedEmit}: files sorted by path, warnings in order. */
export function mergeResults(first: EmitResult, second: EmitResult): EmitResult {
  const byPath = new Map<string, OutputFile>();
  for (const file of [...first.files, ...second.files]) {
    if (byPath.has(file.path)) throw new Error(`two emitters wrote ${file.path}`);
    byPath.set(file.path, file);
  }
  return {
    files: [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : 1)),
    warnings: [...first.warnings, ...second.warnings],
  };
}
