/**
 * @module
 * `loom implement` as a library: plan the methods and files that bring hand-written handlers in
 * step with the generated contracts (in memory), then write the plan (all files or none).
 * ts-morph is loaded by {@link loadTsMorph} only; importing this module does not load it.
 *
 * @example
 * import { loadTsMorph, planImplementation, writePlan } from 'loom/generator/implement';
 * const plan = planImplementation({
 *   tsMorph: await loadTsMorph(),
 *   readFile: (path) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined),
 *   handlerFiles: ['/repo/runtime/system/system-handler.ts'],
 *   contractFiles: ['/repo/generated/system/v1alpha1/system.server.ts'],
 *   defaultFolder: '/repo/runtime',
 * });
 * if (plan.problems.every((p) => p.severity !== 'error')) await writePlan(plan.files);
 */
export { loadTsMorph, type TsMorph, TsMorphMissingError } from './load-ts-morph.js';
export type { NamingOptions } from './naming.js';
export {
  type AddedMethod,
  type ImplementOptions,
  type ImplementPlan,
  type ImplementProblem,
  type PlannedFile,
  planImplementation,
  type StaleMethod,
} from './plan.js';
export { WriteRefusedError, writePlan } from './write.js';
