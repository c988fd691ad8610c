/**
 * @module
 * One `loom generate` run: resolve inputs, load the schemas, run the emitters in memory,
 * then compare with (and, unless `--check`, update) the output folder.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Emitter, withDependencies } from '../emit.js';
import type { Diagnostic, SchemaFile } from '../model/model.js';
import type { GenerateArgs } from './args.js';
import { outputParameters, UsageError } from './args.js';
import { openCache } from './cache.js';
import { resolveInputs } from './inputs.js';
import type { OutputPlan } from './output.js';
import { applyPlan, compareFiles, findExtra, mergeComparisons } from './output.js';
import { loadPlugin } from './plugins.js';
import { startValidatorsCompiler } from './validators-prefetch.js';

export interface GenerateOutcome {
  readonly plan: OutputPlan;
  readonly warnings: readonly Diagnostic[];
  /** Absolute output folder. */
  readonly outDir: string;
  readonly root: string;
  /** True when nothing was written because of `--check`. */
  readonly checked: boolean;
}

/**
 * Runs one generation.
 *
 * @example
 * const outcome = await generate({ command: 'generate', inputs: ['schemas'], out: 'generated', … }, process.cwd());
 * outcome.plan.missing; // files written this run
 */
export async function generate(args: GenerateArgs, cwd: string): Promise<GenerateOutcome> {
  const outDir = resolve(cwd, args.out);
  const { files: inputFiles, root } = await resolveInputs(args.inputs, cwd, { out: outDir });
  // Started first: the worker loads ajv on the other core while this thread loads schemas.
  const compiler = startValidatorsCompiler();
  try {
    // Loaded lazily so `--help` and usage errors stay instant; the emitters (and handlebars)
    // only once the validators are compiling, as they are not needed before.
    const [loaders, { compileValidatorsAhead, emitStaged, mergeResults }] = await Promise.all([
      import('../loaders/index.js'),
      import('./emit-all.js'),
    ]);
    const templateDirs = args.templates.map((t) => resolve(cwd, t));
    for (const [i, dir] of templateDirs.entries()) {
      if (!existsSync(dir)) throw new UsageError(`--templates ${args.templates[i]}: no such folder`);
    }
    const plugins: Emitter[] = [];
    for (const p of args.plugins) plugins.push(...(await loadPlugin(p, cwd)));

    const loaded = await loaders.loadSchemas(inputFiles, {
      root,
      importPaths: args.importPaths.map((p) => resolve(cwd, p)),
      lenient: args.lenient,
    });
    const files = filesToEmit(loaded);
    const cache = openCache(cwd, process.env);
    const compiling = compileValidatorsAhead(files, cache, compiler);
    // Nothing for it to do (all cached, or every document too large to copy there): its memory back now.
    if (!compiling) compiler?.close();
    const [{ BUILTIN_EMITTERS }, { loadTemplates }] = await Promise.all([import('../emitters/index.js'), import('../templates.js')]);
    // The files asked for: `emit` adds what they import, and knows which were asked for.
    const staged = emitStaged(
      loaded,
      [...BUILTIN_EMITTERS, ...plugins],
      {
        runtimeImport: args.runtime,
        parameters: outputParameters(args),
        templates: loadTemplates(templateDirs, undefined, { cwd }),
        cache,
      },
      compiling,
    );
    // Compared with the output folder while the validators still compile; written only once
    // everything is produced, so that a schema error leaves the folder untouched.
    const [ready, rest] = await Promise.all([compareFiles(staged.ready.files, outDir), staged.pending]);
    compiler?.close();
    const result = mergeResults(staged.ready, rest);
    const [last, extra] = await Promise.all([
      compareFiles(rest.files, outDir),
      findExtra(new Set(result.files.map((f) => f.path)), outDir),
    ]);
    const plan = mergeComparisons([ready, last], extra);
    if (!args.check) await applyPlan(plan, result.files, outDir);
    return { plan, warnings: result.warnings, outDir, root, checked: args.check };
  } finally {
    compiler?.close();
  }
}

/**
 * The inputs plus every file they import, transitively (see `withDependencies`), so that
 * cross-file imports in generated code resolve.
 */
export function filesToEmit(inputs: readonly SchemaFile[]): SchemaFile[] {
  return withDependencies(inputs);
}
