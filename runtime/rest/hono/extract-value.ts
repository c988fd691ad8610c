/**
 * @module
 * Parameters read as strings (or uploaded files) and converted to their declared type: path, query,
 * header, cookie, matrix and form values. The common case (one value, a built-in type, no reader,
 * no conversions) gets a lean extractor of its own.
 */

import { ALL_VALUES, WHOLE_SEGMENT } from '../convert/conversions.js';
import type { ConvertFn } from '../convert/convert.js';
import { compileConstraints, compileConversion, isConverter } from '../convert/convert.js';
import type { Violation } from '../errors.js';
import { errorMessage, RegistrationError } from '../errors.js';
import type { ParamSource, RawParam } from '../metadata/raw.js';
import { needsNode } from '../node-support.js';
import type { Conversion, ParamOptions, TypeRef } from '../types.js';
import type { Exchange } from './exchange.js';
import { decodeSegment, stripMatrix } from './exchange.js';
import type { Extractor, ParamPlan, ParamScope } from './extract.js';
import { atRegistration, checkReaderType, compileChecks } from './extract-common.js';

/** A request value as read: a string, a form's `File` (or uploaded file), or several when repeated. */
type Read = (x: Exchange) => unknown;

/**
 * Where a value is read when Hono's own lookup gives it as is: a path variable (`c.req.param`) or
 * the first value of a query parameter (`c.req.query`). The common extractor calls Hono itself for
 * these instead of a `Read` closure: one call less per parameter and request, which counts once
 * the kernel's work between two requests has evicted the caches (docs/rest.md, "Performance").
 */
type Direct = { readonly param: string } | { readonly query: string };

/**
 * One value of a built-in type, with no conversions or reader: what the common extractor, and the
 * lean handler of a route (`lean-handler.ts`) for a path or query value, read it with. `param` or
 * `query` names where Hono gives the value as it is.
 */
export interface SimpleValue {
  readonly param: string | undefined;
  readonly query: string | undefined;
  readonly location: ParamSource['kind'];
  readonly name: string;
  readonly convert: ConvertFn;
  readonly check: ((value: unknown, violations: Violation[]) => void) | undefined;
  readonly required: boolean;
  readonly hasDefault: boolean;
  readonly defaultValue: unknown;
  /** `''` is an absent value (see `stringPlan`). */
  readonly emptyIsAbsent: boolean;
}

/** Converts and checks a {@link SimpleValue} as read; a failure is pushed to `violations` and gives `undefined`. */
export function convertValue(v: SimpleValue, read: unknown, violations: Violation[]): unknown {
  let value = read;
  if (value === undefined || (v.emptyIsAbsent && value === '')) {
    if (!v.hasDefault) {
      if (v.required) violations.push({ location: v.location, name: v.name, message: 'is required' });
      return undefined;
    }
    if (typeof v.defaultValue !== 'string') return v.defaultValue;
    value = v.defaultValue;
  }
  if (typeof value === 'string' || value instanceof File) {
    try {
      value = v.convert(value);
    } catch (e) {
      violations.push({ location: v.location, name: v.name, message: errorMessage(e) });
      return undefined;
    }
  }
  if (v.check) v.check(value, violations);
  return value;
}

/** A path variable (see {@link pathReader}). */
export function pathPlan(param: RawParam, source: ParamSource & { name: string }, scope: ParamScope, options: ParamOptions): ParamPlan {
  return stringPlan(param, source, scope, options, pathReader(param, source.name, scope) ?? { param: source.name });
}

/**
 * A query parameter: the first value, or every value when the parameter collects them (`array`,
 * or a conversion such as `SeparatedBy` that takes a repeated key as a list).
 */
export function queryPlan(param: RawParam, source: ParamSource & { name: string }, scope: ParamScope, options: ParamOptions): ParamPlan {
  const name = source.name;
  const separator = typeof options.array === 'object' ? options.array.separator : undefined;
  let read: Read | Direct;
  if (param.raw) {
    // `@Raw`: the value as sent, one value like any other query parameter unless `array`.
    read = options.array === true ? (x) => x.rawQuery(name) : (x) => x.rawQuery(name)?.[0];
  } else if (options.array === true) {
    read = (x) => x.c.req.queries(name);
  } else if (separator !== undefined) {
    // `?ids=1,2&ids=3`: each value holds elements; one value is split by the conversion as before.
    read = (x) => {
      const all = x.c.req.queries(name);
      return all === undefined || all.length === 1 ? all?.[0] : all.flatMap((v) => (v === '' ? [] : v.split(separator)));
    };
  } else if (takesAllValues(param)) {
    const bracketed = `${name}[]`;
    read = (x) => {
      const all = x.c.req.queries(name);
      if (all !== undefined) return all.length === 1 ? all[0] : all;
      return x.c.req.queries(bracketed);
    };
  } else {
    read = { query: name };
  }
  return stringPlan(param, source, scope, options, read);
}

/** A form field; `{ type: 'upload' }` fields are written to the upload folder (`loom/rest/node`). */
export function formPlan(param: RawParam, source: ParamSource & { name: string }, scope: ParamScope, options: ParamOptions): ParamPlan {
  const name = source.name;
  const upload = options.type === 'upload';
  if (upload && !scope.state.options.node) throw needsNode(scope.where, "a { type: 'upload' } form field (the upload folder)");
  const all = options.array !== undefined || takesAllValues(param);
  const plan = stringPlan(param, source, scope, options, (x) => {
    const v = x.form?.[name];
    return Array.isArray(v) && !all ? v[0] : v;
  });
  return { ...plan, needs: upload ? 'upload' : 'form', ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}) };
}

function takesAllValues(param: RawParam): boolean {
  return (param.conversions ?? []).some((c) => ALL_VALUES in c);
}

/**
 * How a path variable is read. Hono hands out values decoded and, since routing strips matrix
 * parameters, without them. `@Raw` gets the segment as sent; `Matrix()` the whole segment with its
 * `;k=v` parts (decoded unless `@Raw`); a variable sharing its segment is cut from Hono's value.
 * `undefined` when Hono's value is the parameter's as it is.
 */
function pathReader(param: RawParam, name: string, scope: ParamScope): ((x: Exchange) => string | undefined) | undefined {
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
  return undefined;
}

/** Path, query, header, cookie, matrix and form values: strings (or files) converted to the declared type. */
export function stringPlan(
  param: RawParam,
  source: ParamSource & { name: string },
  scope: ParamScope,
  options: ParamOptions,
  given: Read | Direct,
): ParamPlan {
  const loc = source.kind;
  const read: Read =
    typeof given === 'function' ? given : 'param' in given ? (x) => x.c.req.param(given.param) : (x) => x.c.req.query(given.query);
  const name = source.name;
  if (options.type === 'upload' && source.kind !== 'form') {
    throw new RegistrationError(`${scope.where}: { type: 'upload' } is a multipart file: read it with @FormParam`);
  }
  // rest.vertx's order: the parameter's reader, then one registered for its class.
  const reader = options.reader ?? (typeof options.type === 'function' ? scope.state.readers.forType(options.type) : undefined);
  checkReaderType(reader, options.type, scope, 'the parameter');
  const conversion: ConvertFn | undefined = reader ? undefined : atRegistration(scope, () => compileConversion(options.type));
  const conversions: readonly Conversion[] = param.conversions ?? [];
  const separator = typeof options.array === 'object' ? options.array.separator : undefined;
  const required = source.kind === 'path' || options.required === true;
  const constraints = atRegistration(scope, () => compileConstraints(options));
  const check = compileChecks(options, scope, constraints, loc, name);
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
  // boolean, a date or an enum (rest.vertx's readers return null for empty input); a string keeps it.
  const emptyIsAbsent = !reader && conversions.length === 0 && options.array === undefined && isNonTextType(options.type);

  const reject = (e: unknown, violations: Violation[]): undefined => {
    violations.push({ location: loc, name, message: errorMessage(e) });
    return undefined;
  };
  const missing = (violations: Violation[]): undefined => {
    violations.push({ location: loc, name, message: 'is required' });
    return undefined;
  };

  // The common case: one value of a built-in type. Built once per route, so a request allocates
  // no closures (tsx/esbuild also wraps each closure created at run time in a naming helper).
  if (conversion && conversions.length === 0 && options.array === undefined) {
    // Every field set, in one order: one shape for all of them where the lean handler reads them.
    const simple: SimpleValue = {
      param: typeof given === 'object' && 'param' in given ? given.param : undefined,
      query: typeof given === 'object' && 'query' in given ? given.query : undefined,
      location: loc,
      name,
      convert: conversion,
      check,
      required,
      hasDefault,
      defaultValue,
      emptyIsAbsent,
    };
    const extract: Extractor =
      typeof given === 'function'
        ? (x, violations) => convertValue(simple, given(x), violations)
        : 'param' in given
          ? (x, violations) => convertValue(simple, x.c.req.param(given.param), violations)
          : (x, violations) => convertValue(simple, x.c.req.query(given.query), violations);
    return { extract, source, needs: 'none', async: false, ...(typeof given === 'object' ? { simple } : {}) };
  }

  const one = (v: string | File, x: Exchange): unknown => (conversion ? conversion(v) : reader!.read(typeof v === 'string' ? v : '', x.c));
  const convert = (value: unknown, x: Exchange): unknown => {
    for (const c of conversions) value = c.convert(value);
    if (separator !== undefined && typeof value === 'string') value = value === '' ? [] : value.split(separator);
    if (options.array && !Array.isArray(value)) value = [value];
    if (Array.isArray(value)) {
      const out = new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++)
        out[i] = typeof value[i] === 'string' || value[i] instanceof File ? one(value[i], x) : value[i];
      // A reader may answer asynchronously: its values settle together.
      return out.some((v) => v instanceof Promise) ? Promise.all(out) : out;
    }
    return typeof value === 'string' || value instanceof File ? one(value, x) : value;
  };
  const checked = (value: unknown, violations: Violation[]): unknown => {
    if (check) check(value, violations);
    return value;
  };
  const extract: Extractor = (x, violations) => {
    let value: unknown = read(x);
    if (emptyIsAbsent && value === '') value = undefined;
    if (value === undefined || (Array.isArray(value) && value.length === 0 && !hasDefault && options.array !== true)) {
      if (hasDefault) value = defaultValue;
      else if (required) return missing(violations);
      else return options.array ? [] : undefined;
      if (typeof value !== 'string') return value;
    }
    try {
      value = convert(value, x);
    } catch (e) {
      return reject(e, violations);
    }
    if (value instanceof Promise) {
      return value.then(
        (v) => checked(v, violations),
        (e) => reject(e, violations),
      );
    }
    return checked(value, violations);
  };
  return { extract, source, needs: 'none', async: reader !== undefined };
}

/** Types whose conversion of `''` can only fail: an empty value of them is an absent one. */
function isNonTextType(type: TypeRef | undefined): boolean {
  if (type === undefined || type === 'string' || type === String || type === 'file' || type === 'upload') return false;
  if (typeof type === 'string' || type === Number || type === Boolean || type === Date) return true;
  // An enum object (not a class, not a converter): `''` is never one of its values.
  return typeof type === 'object' && !isConverter(type);
}
