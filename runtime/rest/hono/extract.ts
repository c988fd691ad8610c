/**
 * @module
 * Compiles each parameter into an extractor at registration: the source lookup, default, conversions,
 * type conversion, constraints and validation are chosen once, so a request only runs closures
 * that were built for it. Extractors push violations instead of throwing, so one 400 lists them all.
 */
import { getCookie } from 'hono/cookie';
import type { RouterState } from '../config.js';
import { WHOLE_SEGMENT } from '../convert/conversions.js';
import type { ConvertFn } from '../convert/convert.js';
import { ConversionError, compileConstraints, compileConversion, isConverter, typeName } from '../convert/convert.js';
import { HONO_CONTEXT } from '../decorators/params.js';
import type { Violation, ViolationLocation } from '../errors.js';
import { assertNever, errorMessage, RegistrationError } from '../errors.js';
import { type FormBodyReader, formBody } from '../form-coercion.js';
import { resolveClass } from '../metadata/builder.js';
import type { ParamSource, RawParam } from '../metadata/raw.js';
import type { Class, ContextProvider, Conversion, ObjectQuery, ParamOptions, TypeRef, ValidateFunction, ValueReader } from '../types.js';
import { createDefaultAjv, failedValidation } from '../validation.js';
import { decodeSegment, type Exchange, PUSHED_KEY, stripMatrix } from './exchange.js';
import type { PathTemplate } from './path.js';

/** Reads one argument; may return a promise only when `async` is set on its plan. */
export type Extractor = (x: Exchange, violations: Violation[]) => unknown;

/** A compiled parameter. */
export interface ParamPlan {
  readonly extract: Extractor;
  readonly source: ParamSource;
  /** The body or form must be read before extracting. */
  readonly needs: 'none' | 'body' | 'form';
  readonly async: boolean;
  /** For body parameters: the reader fixed at registration, if any. */
  readonly bodyReader?: ValueReader;
  readonly bodyAsText?: boolean;
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
  readonly contextReader?: ContextProvider;
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
      return stringPlan(param, source, scope, options, pathReader(param, source.name, scope));
    case 'query': {
      if (options.object) return objectQueryPlan(param, source, scope, options, options.object);
      const name = source.name;
      // `@Raw`: the value as sent, one value like any other query parameter unless `array`.
      const read = param.raw
        ? options.array === true
          ? (x: Exchange) => x.rawQuery(name)
          : (x: Exchange) => x.rawQuery(name)?.[0]
        : options.array === true
          ? (x: Exchange) => x.c.req.queries(name)
          : (x: Exchange) => x.c.req.query(name);
      return stringPlan(param, source, scope, options, read);
    }
    case 'header':
      return stringPlan(param, source, scope, options, (x) => x.c.req.header(source.name));
    case 'cookie':
      return stringPlan(param, source, scope, options, (x) => getCookie(x.c, source.name));
    case 'matrix':
      return stringPlan(param, source, scope, options, (x) => {
        const values = x.matrix(source.name);
        return values === undefined ? undefined : options.array ? values : values[0];
      });
    case 'form':
      return {
        ...stringPlan(param, source, scope, options, (x) => {
          const v = x.form?.[source.name];
          return Array.isArray(v) && options.array !== true ? v[0] : v;
        }),
        needs: 'form',
      };
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

function location(source: ParamSource): ViolationLocation {
  return source.kind;
}

/**
 * How a path variable is read. Hono hands out values decoded and, since routing strips matrix
 * parameters, without them. `@Raw` gets the segment as sent; `Matrix()` the whole segment with its
 * `;k=v` parts (decoded unless `@Raw`); a variable sharing its segment is cut from Hono's value.
 */
function pathReader(param: RawParam, name: string, scope: ParamScope): (x: Exchange) => string | undefined {
  const shared = scope.template?.compound.get(name);
  if (shared) return (x) => shared.pattern.exec(x.c.req.param(shared.param) ?? '')?.groups?.[shared.group];
  const wholeSegment = (param.conversions ?? []).some((c) => WHOLE_SEGMENT in c);
  const fromEnd = scope.template?.fromEnd.get(name);
  if ((param.raw || wholeSegment) && fromEnd !== undefined) {
    return (x) => {
      const sent = x.rawSegment(fromEnd);
      if (sent === undefined) return undefined;
      const value = wholeSegment ? sent : stripMatrix(sent);
      return param.raw ? value : decodeSegment(value);
    };
  }
  // Where the segment cannot be found (a variable spanning segments comes later), the best
  // approximation of "as sent".
  if (param.raw) {
    return (x) => {
      const v = x.c.req.param(name);
      return v === undefined ? undefined : encodeURIComponent(v);
    };
  }
  return (x) => x.c.req.param(name);
}

function checkReaderType(reader: ValueReader | undefined, type: TypeRef | undefined, scope: ParamScope, what: string): void {
  if (!reader?.type || type === undefined || scope.suppressCheck) return;
  const fits =
    reader.type === type ||
    (typeof reader.type === 'function' &&
      typeof type === 'function' &&
      (reader.type.prototype instanceof type || type.prototype instanceof reader.type)) ||
    typeName(reader.type) === typeName(type);
  if (!fits) {
    throw new RegistrationError(
      `${scope.where}: ${what} reader produces ${typeName(reader.type)} but the parameter is ${typeName(type)}` +
        ' (add @SuppressCheck() to skip this check)',
    );
  }
}

/** Path, query, header, cookie, matrix and form values: strings (or files) converted to the declared type. */
function stringPlan(
  param: RawParam,
  source: ParamSource & { name: string },
  scope: ParamScope,
  options: ParamOptions,
  read: (x: Exchange) => string | File | (string | File)[] | undefined,
): ParamPlan {
  const loc = location(source);
  const name = source.name;
  // The seed's order: the parameter's reader, then one registered for its class.
  const reader = options.reader ?? (typeof options.type === 'function' ? scope.state.readers.forType(options.type) : undefined);
  checkReaderType(reader, options.type, scope, 'the parameter');
  const conversion: ConvertFn | undefined = reader ? undefined : atRegistration(scope, () => compileConversion(options.type));
  const conversions: readonly Conversion[] = param.conversions ?? [];
  const separator = typeof options.array === 'object' ? options.array.separator : undefined;
  const required = source.kind === 'path' || options.required === true;
  const constraints = atRegistration(scope, () => compileConstraints(options));
  const validate = compileValidator(options, scope);
  const hasDefault = param.hasDefault === true;
  const defaultValue = param.defaultValue;
  // A default that cannot be converted would answer 400 to every request that omits the value.
  if (hasDefault && typeof defaultValue === 'string' && conversion && conversions.length === 0) {
    try {
      conversion(defaultValue);
    } catch (e) {
      throw new RegistrationError(`${scope.where}: @DefaultValue(${JSON.stringify(defaultValue)}) ${errorMessage(e)}`);
    }
  }
  // `?limit=` from a form or a generated client's empty field means "not given" for a number, a
  // boolean, a date or an enum (the seed's readers return null for empty input); a string keeps it.
  const emptyIsAbsent = !reader && conversions.length === 0 && options.array === undefined && isNonTextType(options.type);

  // Built once per route: a request allocates no closures here (tsx/esbuild also wraps each closure
  // created at run time in a naming helper, which shows up in profiles).
  const one = (v: string | File, x: Exchange): unknown => (conversion ? conversion(v) : reader!.read(typeof v === 'string' ? v : '', x.c));
  const convert = (value: unknown, x: Exchange): unknown => {
    for (const c of conversions) value = c.convert(value);
    if (separator !== undefined && typeof value === 'string') value = value === '' ? [] : value.split(separator);
    if (options.array && !Array.isArray(value)) value = [value];
    if (Array.isArray(value)) {
      const out = new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++)
        out[i] = typeof value[i] === 'string' || value[i] instanceof File ? one(value[i], x) : value[i];
      return out;
    }
    return typeof value === 'string' || value instanceof File ? one(value, x) : value;
  };
  const check = (value: unknown, violations: Violation[]): unknown => {
    if (constraints) for (const message of constraints(value)) violations.push({ location: loc, name, message });
    if (validate && !validate(value)) violations.push(...failedValidation(validate, loc, name));
    return value;
  };
  const reject = (e: unknown, violations: Violation[]): undefined => {
    violations.push({ location: loc, name, message: errorMessage(e) });
    return undefined;
  };

  const extract: Extractor = (x, violations) => {
    let value: unknown = read(x);
    if (emptyIsAbsent && value === '') value = undefined;
    if (value === undefined || (Array.isArray(value) && value.length === 0 && !hasDefault && options.array !== true)) {
      if (hasDefault) value = defaultValue;
      else if (required) {
        violations.push({ location: loc, name, message: 'is required' });
        return undefined;
      } else return options.array ? [] : undefined;
      if (typeof value !== 'string') return value;
    }
    try {
      value = convert(value, x);
    } catch (e) {
      return reject(e, violations);
    }
    if (value instanceof Promise) {
      return value.then(
        (v) => check(v, violations),
        (e) => reject(e, violations),
      );
    }
    return check(value, violations);
  };
  return { extract, source, needs: 'none', async: reader !== undefined };
}

/** Types whose conversion of `''` can only fail: an empty value of them is an absent one. */
function isNonTextType(type: TypeRef | undefined): boolean {
  if (type === undefined || type === 'string' || type === String || type === 'file') return false;
  if (typeof type === 'string' || type === Number || type === Boolean || type === Date) return true;
  // An enum object (not a class, not a converter): `''` is never one of its values.
  return typeof type === 'object' && !isConverter(type);
}

/** Runs registration-time compilation; a bad option (an unknown type, a broken pattern) names its parameter. */
function atRegistration<T>(scope: ParamScope, compile: () => T): T {
  try {
    return compile();
  } catch (e) {
    if (e instanceof RegistrationError) throw e;
    throw new RegistrationError(`${scope.where}: ${errorMessage(e)}`);
  }
}

/**
 * An object-valued query parameter: its fields gathered from the query as `style` says, converted
 * by type as form fields are, then validated as a whole; violations are named `filter/age`.
 */
function objectQueryPlan(
  param: RawParam,
  source: ParamSource & { name: string },
  scope: ParamScope,
  options: ParamOptions,
  object: ObjectQuery,
): ParamPlan {
  const name = source.name;
  const validator = compileValidator(options, scope);
  const typed = atRegistration(scope, () => formBody(object.fields, validator ? { validate: validator } : {}));
  const reader = typed.reader as FormBodyReader;
  const validate = typed.validate!;
  const fieldNames = Object.keys(object.fields);
  const explode = object.explode ?? true;
  const gather = (x: Exchange): Record<string, string | string[]> | undefined => {
    const form: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
    if (object.style === 'deepObject') {
      for (const [key, values] of Object.entries(x.c.req.queries())) {
        if (key.length > name.length + 2 && key.startsWith(`${name}[`) && key.endsWith(']'))
          form[key.slice(name.length + 1, -1)] = values.length === 1 ? values[0]! : values;
      }
    } else if (explode) {
      for (const field of fieldNames) {
        const values = x.c.req.queries(field);
        if (values !== undefined) form[field] = values.length === 1 ? values[0]! : values;
      }
    } else {
      const text = x.c.req.query(name);
      if (text === undefined) return undefined;
      const parts = text === '' ? [] : text.split(',');
      for (let i = 0; i < parts.length; i += 2) form[parts[i]!] = parts[i + 1] ?? '';
    }
    return Object.keys(form).length > 0 ? form : undefined;
  };
  const required = options.required === true;
  const extract: Extractor = (x, violations) => {
    const form = gather(x);
    if (form === undefined) {
      if (param.hasDefault) return param.defaultValue;
      if (required) violations.push({ location: 'query', name, message: 'is required' });
      return undefined;
    }
    return reader.readForm(form).then((value) => {
      if (!validate(value)) violations.push(...failedValidation(validate, 'query', name));
      return value;
    });
  };
  return { extract, source, needs: 'none', async: true };
}

function compileValidator(options: ParamOptions, scope: ParamScope): ValidateFunction | undefined {
  if (options.validate) return options.validate;
  if (!options.schema) return undefined;
  try {
    return (scope.state.ajv ??= createDefaultAjv()).compile(options.schema);
  } catch (e) {
    throw new RegistrationError(`${scope.where}: invalid JSON Schema: ${errorMessage(e)}`);
  }
}

/** The request body: read before extraction (see `readBody`), then defaulted, required and validated here. */
function bodyPlan(param: RawParam, scope: ParamScope, options: ParamOptions): ParamPlan {
  const typeReader = typeof options.type === 'function' ? scope.state.readers.forType(options.type) : undefined;
  const reader = options.reader ?? scope.reader ?? typeReader;
  checkReaderType(reader, options.type, scope, 'the body');
  const validate = compileValidator(options, scope);
  const constraints = atRegistration(scope, () => compileConstraints(options));
  const required = options.required === true;
  const hasDefault = param.hasDefault === true;
  const conversions = param.conversions ?? [];
  // Without a reader, `type` converts the body as it converts a query value (a text body `5` for
  // 'integer', `fromString` for a class), and checks what JSON gave against the scalar types.
  const typed = reader ? undefined : atRegistration(scope, () => compileBodyConversion(options.type));
  const extract: Extractor = (x, violations) => {
    let value = x.body;
    if (value === undefined) {
      if (hasDefault) return param.defaultValue;
      if (required) violations.push({ location: 'body', name: 'body', message: 'is required' });
      return undefined;
    }
    try {
      if (typed) value = typed(value);
      for (const c of conversions) value = c.convert(value);
    } catch (e) {
      violations.push({ location: 'body', name: 'body', message: errorMessage(e) });
      return undefined;
    }
    if (constraints) for (const message of constraints(value)) violations.push({ location: 'body', name: 'body', message });
    // Call the validator directly: the valid case must not allocate.
    if (validate && !validate(value)) violations.push(...failedValidation(validate, 'body', 'body'));
    return value;
  };
  return {
    extract,
    source: { kind: 'body' },
    needs: 'body',
    async: false,
    ...(reader ? { bodyReader: reader } : {}),
    bodyAsText: options.type === 'string' || options.type === String,
  };
}

/**
 * The conversion `type` gives a body read without a reader: a string (a text body, or a JSON
 * string) converts as a query value would; JSON numbers and booleans must be of a scalar type's
 * kind; other JSON values go to a class type as they are (JSON carries its own structure).
 * `undefined` for a body kept as read (no type, strings, JSON, files).
 */
function compileBodyConversion(type: ParamOptions['type']): ((value: unknown) => unknown) | undefined {
  if (type === undefined || type === 'string' || type === String || type === 'json' || type === 'file') return undefined;
  const fromText = compileConversion(type);
  const scalar: ((value: unknown) => boolean) | undefined =
    type === 'number' || type === Number
      ? (v) => typeof v === 'number'
      : type === 'integer' || type === 'int64'
        ? (v) => Number.isSafeInteger(v)
        : type === 'boolean' || type === Boolean
          ? (v) => typeof v === 'boolean'
          : type === 'date' || type === 'date-time' || type === Date
            ? () => false
            : undefined;
  return (value) => {
    if (typeof value === 'string') return fromText(value);
    if (scalar && !scalar(value))
      throw new ConversionError(`must be ${typeName(type)}, got ${JSON.stringify(value)?.slice(0, 40) ?? String(value)}`);
    return value;
  };
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
  const needs = all.some((p) => p.needs === 'body') ? 'body' : all.some((p) => p.needs === 'form') ? 'form' : 'none';
  const bodyPlanOf = all.find((p) => p.needs === 'body');
  return {
    extract,
    source: { kind: 'bean', bean },
    needs,
    async: isAsync,
    ...(bodyPlanOf?.bodyReader ? { bodyReader: bodyPlanOf.bodyReader } : {}),
    bodyAsText: bodyPlanOf?.bodyAsText ?? false,
  };
}

/** Built-in context tokens. */
function builtin(token: unknown): ((x: Exchange) => unknown) | undefined {
  if (token === HONO_CONTEXT) return (x) => x.c;
  switch (token) {
    case 'request':
      return (x) => x.c.req.raw;
    case 'headers':
      return (x) => x.headers();
    case 'user':
      return (x) => x.user;
    case 'route':
      return (x) => x.route;
    case 'env':
      return (x) => x.c.env;
    default:
      return undefined;
  }
}

function callProvider(provider: ContextProvider, x: Exchange): unknown {
  return typeof provider === 'function' ? provider(x.c) : provider.provide(x.c);
}

function tokenName(token: unknown): string {
  if (typeof token === 'function') return token.name;
  if (typeof token === 'symbol') return token.description ?? 'symbol';
  return String(token);
}

/** `@Context`: built-ins, then the parameter's or method's `@ContextReader`, pushed values, router providers, `c.get`. */
function contextPlan(param: RawParam, token: unknown, scope: ParamScope): ParamPlan {
  const hasDefault = param.hasDefault === true;
  const fallback = (violations: Violation[], value: unknown): unknown => {
    if (value !== undefined && value !== null) return value;
    if (hasDefault) return param.defaultValue;
    violations.push({ location: 'context', name: tokenName(token), message: `Can't provide @Context of type: ${tokenName(token)}` });
    return undefined;
  };
  const settle = (violations: Violation[], value: unknown): unknown =>
    value instanceof Promise ? value.then((v) => fallback(violations, v)) : fallback(violations, value);

  // A method's or class's @ContextReader provides the types it was written for; the built-in tokens
  // (the Hono context, the request, the user) stay what they are. One on the parameter is explicit.
  const reader = param.contextReader ?? (builtin(token) ? undefined : scope.contextReader);
  const source: ParamSource = { kind: 'context', token };
  if (reader) return { extract: (x, v) => settle(v, callProvider(reader, x)), source, needs: 'none', async: true };
  const fixed = builtin(token);
  if (fixed) {
    if (token === 'user') return { extract: (x, v) => fallback(v, x.user), source, needs: 'none', async: false };
    return { extract: fixed, source, needs: 'none', async: false };
  }
  const state = scope.state;
  const extract: Extractor = (x, violations) => {
    const pushed = x.c.get(PUSHED_KEY) as Map<unknown, unknown> | undefined;
    if (pushed?.has(token)) return fallback(violations, pushed.get(token));
    const provider = state.providers.get(token);
    if (provider) {
      const cache = (x.contextCache ??= new Map());
      if (!cache.has(token)) cache.set(token, callProvider(provider, x));
      return settle(violations, cache.get(token));
    }
    // Any Hono variable: its type is the app's, unknown here.
    return fallback(violations, typeof token === 'string' ? x.c.get(token as never) : undefined);
  };
  return { extract, source, needs: 'none', async: true };
}
