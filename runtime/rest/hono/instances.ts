/**
 * @module
 * The object a route calls: the registered instance, a cached singleton, a fresh `@NoCache` instance,
 * or a per-request view when fields carry parameter decorators.
 */
import type { RouterState } from '../config.js';
import type { Violation } from '../errors.js';
import { RegistrationError } from '../errors.js';
import type { ResolvedClass } from '../metadata/builder.js';
import type { Registered } from './compile.js';
import type { Exchange } from './exchange.js';
import type { ParamPlan } from './extract.js';
import { compileParam } from './extract.js';

/** How a route gets the object whose method it calls. */
export interface InstanceFactory {
  get(x: Exchange, violations: Violation[]): object | Promise<object>;
  readonly async: boolean;
}

/**
 * Singletons by default; a new instance per request for `@NoCache` classes; fields with parameter
 * decorators (`@Context` fields) make the instance per request: a thin object over the singleton
 * that holds the request's values.
 */
export function compileInstance(registered: Registered, resolved: ResolvedClass, state: RouterState): InstanceFactory {
  const fieldPlans: [string, ParamPlan][] = [];
  for (const [field, raw] of resolved.fields) {
    if (!raw.source) throw new RegistrationError(`${resolved.name} field ${field}: modifiers without a source decorator`);
    fieldPlans.push([
      field,
      compileParam(raw, raw.source, { where: `${resolved.name} field ${field}`, variables: undefined, state, suppressCheck: false }),
    ]);
  }
  for (const [field, plan] of fieldPlans) {
    if (plan.needs !== 'none')
      throw new RegistrationError(`${resolved.name} field ${field}: body and form values cannot be injected into fields`);
  }
  const cls = registered.cls as new () => object;
  const create = (): object => (state.injector ? (state.injector.getInstance(cls) as object) : new cls());
  const base = registered.instance
    ? () => registered.instance!
    : resolved.noCache
      ? create
      : () => {
          let inst = state.instances.get(cls);
          if (!inst) {
            inst = create();
            state.instances.set(cls, inst);
          }
          return inst;
        };
  if (fieldPlans.length === 0) return { get: base, async: false };
  const isAsync = fieldPlans.some(([, p]) => p.async);
  return {
    async: isAsync,
    get: (x, violations) => {
      const target = resolved.noCache && !registered.instance ? base() : (Object.create(base()) as object);
      const values = fieldPlans.map(([, p]) => p.extract(x, violations));
      const assign = (vals: unknown[]): object => {
        fieldPlans.forEach(([field], i) => {
          (target as Record<string, unknown>)[field] = vals[i];
        });
        return target;
      };
      return isAsync ? Promise.all(values).then(assign) : assign(values);
    },
  };
}
