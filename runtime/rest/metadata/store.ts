/**
 * @module
 * The library-owned registry of raw decorator input: a `WeakMap` keyed by class. Decorators only
 * write here; routers read it when a class is registered and build their own route tables, so
 * nothing leaks between routers, apps or tests.
 */
import type { RawClass, RawCommon, RawMethod, RawParam } from './raw.js';

const STORE = new WeakMap<Function, RawClass>();

/** The class a legacy decorator target belongs to (the prototype for members, the class for statics). */
export function classOf(target: object): Function {
  return typeof target === 'function' ? target : (target as { constructor: Function }).constructor;
}

/** The raw record of a class, created on first write. */
export function rawClass(target: object): RawClass {
  const cls = classOf(target);
  let record = STORE.get(cls);
  if (!record) {
    record = { methods: new Map(), fields: new Map(), ctorParams: [] };
    STORE.set(cls, record);
  }
  return record;
}

/** The raw record of a class if any decorator touched it. */
export function readRawClass(cls: Function): RawClass | undefined {
  return STORE.get(cls);
}

/** The raw record of a method, created on first write. */
export function rawMethod(target: object, key: string | symbol): RawMethod {
  const record = rawClass(target);
  const name = String(key);
  let method = record.methods.get(name);
  if (!method) {
    method = { params: [] };
    record.methods.set(name, method);
  }
  return method;
}

/** Where a decorator usable on classes and methods writes: the class record without a key, else the method's. */
export function rawCommon(target: object, key: string | symbol | undefined): RawCommon {
  return key === undefined ? rawClass(target) : rawMethod(target, key);
}

/**
 * The raw record of a parameter, bean field or constructor parameter. Legacy parameter decorators
 * get `(prototype, method, index)`; field decorators `(prototype, field)`; constructor parameters
 * `(class, undefined, index)`.
 */
export function rawParam(target: object, key: string | symbol | undefined, index: number | PropertyDescriptor | undefined): RawParam {
  const at = typeof index === 'number' ? index : undefined;
  if (key === undefined) {
    const record = rawClass(target);
    if (at === undefined) throw new TypeError('Parameter decorators apply to parameters and fields');
    return (record.ctorParams[at] ??= {});
  }
  if (at === undefined) {
    const record = rawClass(target);
    const name = String(key);
    let field = record.fields.get(name);
    if (!field) {
      field = {};
      record.fields.set(name, field);
    }
    return field;
  }
  return (rawMethod(target, key).params[at] ??= {});
}
