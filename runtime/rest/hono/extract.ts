/**
 * @module
 * Compiles each parameter into an extractor at registration: the source lookup, default, conversions,
 * type conversion, constraints and validation are chosen once, so a request only runs closures
 * that were built for it. Extractors push violations instead of throwing, so one 400 lists them all
 * (up to the router's `maxViolations`). This module dispatches on the source and builds beans; the
 * sources have their own modules (`extract-value`, `extract-body`, `extract-context`, …).
 */
import { getCookie } from 'hono/cookie';
import { assertNever } from '../../util/assert-never.js';
import type { RouterState } from '../config.js';
import type { Violation } from '../errors.js';
import { RegistrationError } from '../errors.js';
import { resolveClass } from '../metadata/builder.js';
import type { ParamSource, RawParam } from '../metadata/raw.js';
import type { Class, ContextProvider, ParamOptions, ValueReader } from '../types.js';
import type { Exchange } from './exchange.js';
import type { PlainBody } from './extract-body.js';
import { bodyPlan } from './extract-body.js';
import { contextPlan } from './extract-context.js';
import { objectQueryPlan } from './extract-object-query.js';
import type { SimpleValue } from './extract-value.js';
import { formPlan, pathPlan, queryPlan, stringPlan } from './extract-value.js';
import type { PathTemplate } from './path.js';

/** Reads one argument; may return a promise only when `async` is set on its plan. */
export type Extractor = (x: Exchange, violations: Violation[]) => unknown;

/**
 * How a parameter needs the body: not at all; as read by a reader (`body`); as a stream, unread
 * (`stream`); or as form fields (`form`), some perhaps written to the upload folder (`upload`).
 */
export type BodyNeed = 'none' | 'body' | 'stream' | 'form' | 'upload';

/** A compiled parameter. */
export interface ParamPlan {
  readonly extract: Extractor;
  readonly source: ParamSource;
  readonly needs: BodyNeed;
  readonly async: boolean;
  /** For body parameters: the reader fixed at registration, if any. */
  readonly bodyReader?: ValueReader;
  readonly bodyAsText?: boolean;
  /** For body, stream and form parameters: `maxBytes` of the options. */
  readonly maxBytes?: number;
  /** A path or query value the lean handler reads itself (see `lean-handler.ts`). */
  readonly simple?: SimpleValue;
  /** A body parameter the lean handler checks itself: read as plain JSON, kept as read. */
  readonly plainBody?: PlainBody;
}

/** What a parameter's compilation needs to know about its route. */
export interface ParamScope {
  /** `Class.method parameter 2` or `Class field x`: used in registration errors. */
  readonly where: string;
  readonly variables: readonly string[] | undefined;
  /** The route's path template: where each variable sits (see `PathTemplate`). */
  readonly template?: Pick<PathTemplate, 'compound' | 'fromEnd'>;
  readonly state: RouterState;
  readonly reader?: ValueReader;
  /** The method's and class's `@ContextReader`s by the type they provide (the method's first). */
  readonly contextReaders?: ReadonlyMap<unknown, ContextProvider>;
  readonly suppressCheck: boolean;
}

/** Compiles one parameter whose source is known. */
export function compileParam(param: RawParam, source: ParamSource, scope: ParamScope): ParamPlan {
  const options: ParamOptions = param.options ?? {};
  switch (source.kind) {
    case 'path':
      if (scope.variables && !scope.variables.includes(source.name)) {
        throw new RegistrationError(
          `${scope.where}: @PathParam('${source.name}') names no variable of the path (variables: ${scope.variables.join(', ') || 'none'})`,
        );
      }
      return pathPlan(param, source, scope, options);
    case 'query':
      if (options.object) return objectQueryPlan(param, source, scope, options, options.object);
      return queryPlan(param, source, scope, options);
    case 'header': {
      const lower = source.name.toLowerCase();
      return stringPlan(param, source, scope, options, (x) => x.header(lower));
    }
    case 'cookie':
      return stringPlan(param, source, scope, options, (x) => getCookie(x.c, source.name));
    case 'matrix': {
      const all = options.array !== undefined;
      return stringPlan(param, source, scope, options, (x) => {
        const values = x.matrix(source.name);
        return values === undefined ? undefined : all ? values : values[0];
      });
    }
    case 'form':
      return formPlan(param, source, scope, options);
    case 'body':
      return bodyPlan(param, scope, options);
    case 'bean':
      return beanPlan(source.bean, scope);
    case 'context':
      return contextPlan(param, source.token, scope);
    default:
      return assertNever(source, 'parameter source');
  }
}

/** `@BeanParam`: a class whose fields or constructor parameters are parameters themselves. */
function beanPlan(bean: Class, scope: ParamScope): ParamPlan {
  const resolved = resolveClass(bean);
  const fieldPlans: [string, ParamPlan][] = [];
  for (const [field, raw] of resolved.fields) {
    if (!raw.source)
      throw new RegistrationError(`${scope.where}: bean ${resolved.name} field ${field} has modifiers but no source decorator`);
    fieldPlans.push([field, compileParam(raw, raw.source, { ...scope, where: `${scope.where} (bean ${resolved.name}.${field})` })]);
  }
  const ctorPlans = resolved.ctorParams.map((raw, i) => {
    if (!raw?.source)
      throw new RegistrationError(`${scope.where}: bean ${resolved.name} constructor parameter ${i} has no source decorator`);
    return compileParam(raw, raw.source, { ...scope, where: `${scope.where} (bean ${resolved.name} constructor parameter ${i})` });
  });
  if (fieldPlans.length === 0 && ctorPlans.length === 0) {
    throw new RegistrationError(`${scope.where}: @BeanParam(${resolved.name}) has no decorated fields or constructor parameters`);
  }
  const all = [...ctorPlans, ...fieldPlans.map(([, p]) => p)];
  const reading = all.filter((p) => p.needs !== 'none');
  if (reading.length > 1 || reading.some((p) => p.needs === 'stream' || p.needs === 'upload')) {
    throw new RegistrationError(`${scope.where}: @BeanParam(${resolved.name}) may read the body once, as a value or form fields`);
  }
  const isAsync = all.some((p) => p.async);
  const Bean = bean as new (...args: unknown[]) => Record<string, unknown>;
  const build = (ctorArgs: unknown[], fieldValues: unknown[]): Record<string, unknown> => {
    const obj = new Bean(...ctorArgs);
    fieldPlans.forEach(([field], i) => {
      if (fieldValues[i] !== undefined) obj[field] = fieldValues[i];
    });
    return obj;
  };
  const extract: Extractor = (x, violations) => {
    const ctorArgs = ctorPlans.map((p) => p.extract(x, violations));
    const fieldValues = fieldPlans.map(([, p]) => p.extract(x, violations));
    if (!isAsync) return build(ctorArgs, fieldValues);
    return Promise.all([Promise.all(ctorArgs), Promise.all(fieldValues)]).then(([a, f]) => build(a, f));
  };
  const body = reading[0];
  return {
    extract,
    source: { kind: 'bean', bean },
    needs: body?.needs ?? 'none',
    async: isAsync,
    ...(body?.bodyReader ? { bodyReader: body.bodyReader } : {}),
    bodyAsText: body?.bodyAsText ?? false,
    ...(body?.maxBytes !== undefined ? { maxBytes: body.maxBytes } : {}),
  };
}
