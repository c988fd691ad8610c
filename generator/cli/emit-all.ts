/**
 * @module
 * Runs the emitters with validator compilation overlapped: the validators' compile jobs go
 * to a worker (when there is one) first, every other emitter runs meanwhile, and the
 * validators emitter runs last with the worker's results at hand.
 *
 * The output is what one {@link emit} call with all emitters gives: emitters are
 * independent, each writes its own files, and the result is sorted by path. Only the order
 * of warnings could differ, and the validators emitter reports none.
 */
import { emit } from '../emit.js';
import type { Emitter, EmitResult, GeneratorOptions, OutputFile } from '../emit.js';
import type { SchemaFile } from '../model/model.js';
import { validatorsEmitter, validatorsJob } from '../emitters/validators.js';
import type { ValidatorsJob } from '../emitters/validators.js';
import { prefilledCache } from './validators-prefetch.js';
import type { ValidatorsCompiler } from './validators-prefetch.js';

/**
 * Emits `files` with `emitters`; with a `compiler`, the validators compile on its thread.
 *
 * @example
 * const compiler = startValidatorsCompiler();
 * const result = await emitAll(files, [...BUILTIN_EMITTERS, ...plugins], options, compiler);
 */
export async function emitAll(
  files: readonly SchemaFile[],
  emitters: readonly Emitter[],
  options: GeneratorOptions,
  compiler: ValidatorsCompiler | undefined,
): Promise<EmitResult> {
  if (!emitters.includes(validatorsEmitter)) return emit(files, emitters, options);
  const cache = options.cache;
  const jobs: ValidatorsJob[] = [];
  if (compiler) {
    for (const file of files) {
      const job = validatorsJob(file);
      // What the on-disk cache holds already is not worth a round trip.
      if (job && cache?.get(job.key) === undefined) jobs.push(job);
    }
  }
  // Posted before the other emitters start, so the worker compiles while they run.
  const compiling = jobs.length > 0 && compiler ? compiler.compile(jobs) : undefined;
  const others = emit(files, emitters.filter((e) => e !== validatorsEmitter), options);
  const compiled = (await compiling) ?? new Map<string, string>();
  const validators = emit(files, [validatorsEmitter], { ...options, cache: prefilledCache(compiled, cache) });
  return merge(files, others, validators);
}

/**
 * One result from two runs over the same files. Each run reports the files' own (loader)
 * warnings first; the second run's copy of them is dropped.
 */
function merge(files: readonly SchemaFile[], first: EmitResult, second: EmitResult): EmitResult {
  const byPath = new Map<string, OutputFile>();
  for (const file of [...first.files, ...second.files]) {
    if (byPath.has(file.path)) throw new Error(`two emitters wrote ${file.path}`);
    byPath.set(file.path, file);
  }
  const loaderWarnings = files.reduce((n, f) => n + f.warnings.length, 0);
  return {
    files: [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : 1)),
    warnings: [...first.warnings, ...second.warnings.slice(loaderWarnings)],
  };
}
