/**
 * @module
 * Resolves raw decorator input along the prototype chain into one description per class: a subclass
 * inherits routes and parameter metadata from its base classes (abstract or not); its own decorations
 * override the base's field by field; an override without decorators keeps the base's decorations.
 */
import { RegistrationError } from '../errors.js';
import type { Class } from '../types.js';
import type { RawClass, RawCommon, RawMethod, RawParam } from './raw.js';
import { readRawClass } from './store.js';

/** A class with its decorations resolved. */
export interface ResolvedClass extends RawCommon {
  readonly cls: Function;
  readonly name: string;
  readonly noCache: boolean;
  readonly methods: readonly ResolvedMethod[];
  readonly fields: ReadonlyMap<string, RawParam>;
  readonly ctorParams: readonly RawParam[];
}

/** A method with its decorations resolved (class-level ones not merged yet). */
export interface ResolvedMethod extends Omit<RawMethod, 'params'> {
  readonly name: string;
  readonly params: readonly (RawParam | undefined)[];
  /** The declared parameter count (`fn.length`) or the highest decorated index + 1. */
  readonly arity: number;
}

/** Raw records from the class itself up to its farthest decorated ancestor. */
function chain(cls: Function): RawClass[] {
  const records: RawClass[] = [];
  for (let c: Function | null = cls; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as Function | null) {
    const raw = readRawClass(c);
    if (raw) records.push(raw);
  }
  return records;
}

const COMMON_KEYS = [
  'path',
  'consumes',
  'produces',
  'headers',
  'catchWith',
  'authenticate',
  'authorize',
  'roles',
  'security',
  'reader',
  'writer',
  'contextReaders',
  'interceptors',
  'annotations',
  'suppressCheck',
] as const;
const METHOD_KEYS = [
  ...COMMON_KEYS,
  'verb',
  'verbCount',
  'status',
  'order',
  'events',
  'validateResult',
  'validateResultStatus',
  'blocking',
  'returns',
] as const;

function nearest<T extends object, K extends keyof T>(records: readonly T[], key: K): T[K] | undefined {
  for (const r of records) if (r[key] !== undefined) return r[key];
  return undefined;
}

/**
 * Resolves a class's decorations.
 *
 * @example
 * ```ts
 * const resolved = resolveClass(IssueRoutes);
 * resolved.methods.map((m) => `${m.verb} ${m.path}`);
 * ```
 */
export function resolveClass(cls: Class | Function): ResolvedClass {
  const records = chain(cls);
  const common: Record<string, unknown> = {};
  for (const key of COMMON_KEYS) common[key] = nearest(records, key);

  const names: string[] = [];
  for (const r of [...records].reverse()) for (const name of r.methods.keys()) if (!names.includes(name)) names.push(name);

  const proto = (cls as { prototype: Record<string, unknown> }).prototype;
  const methods: ResolvedMethod[] = [];
  for (const name of names) {
    const raws = records.map((r) => r.methods.get(name)).filter((m): m is RawMethod => m !== undefined);
    const merged: Record<string, unknown> = { name };
    for (const key of METHOD_KEYS) merged[key] = nearest(raws, key);
    const params = mergeParams(raws);
    merged.params = params;
    const fn = proto[name];
    if (typeof fn !== 'function' && merged.verb !== undefined) {
      throw new RegistrationError(`${cls.name}.${name}: decorated as a route but is not a method`);
    }
    // `fn.length` stops counting at the first parameter with a default (`list(id, page = 1, size = 20)`
    // has length 1), so the source is read too.
    merged.arity = Math.max(typeof fn === 'function' ? Math.max(fn.length, parameterList(fn).length) : 0, params.length);
    methods.push(merged as unknown as ResolvedMethod);
  }

  const fields = new Map<string, RawParam>();
  for (const r of [...records].reverse()) for (const [k, v] of r.fields) fields.set(k, v);
  const ctorParams = records.find((r) => r.ctorParams.length > 0)?.ctorParams ?? [];

  return {
    ...(common as RawCommon),
    cls,
    name: cls.name || '(anonymous class)',
    noCache: records.some((r) => r.noCache === true),
    methods,
    fields,
    ctorParams,
  };
}

/**
 * The parameters of one method along its class chain (nearest first), merged per parameter as
 * rest.vertx merges them: an override that decorates only its second parameter keeps the base's
 * decoration of the first. Within one parameter the source travels with its options (an override's
 * `@QueryParam('q')` replaces the base's whole source), while each modifier (`@DefaultValue`,
 * `@Raw`, `@Convert`, `@ContextReader`) comes from the nearest level that set it.
 */
function mergeParams(raws: readonly RawMethod[]): (RawParam | undefined)[] {
  const length = Math.max(0, ...raws.map((m) => m.params.length));
  const params: (RawParam | undefined)[] = new Array(length);
  // An index loop, not `some`/`map`: decorated parameters form a sparse array whose holes those skip.
  for (let i = 0; i < length; i++) {
    const levels = raws.map((m) => m.params[i]).filter((p): p is RawParam => p !== undefined);
    if (levels.length === 0) continue;
    if (levels.length === 1) {
      params[i] = levels[0];
      continue;
    }
    const merged: RawParam = {};
    const sourced = levels.find((p) => p.source !== undefined);
    if (sourced) {
      merged.source = sourced.source!;
      if (sourced.options) merged.options = sourced.options;
    }
    const defaulted = levels.find((p) => p.hasDefault === true);
    if (defaulted) {
      merged.hasDefault = true;
      merged.defaultValue = defaulted.defaultValue;
    }
    const raw = levels.find((p) => p.raw !== undefined)?.raw;
    if (raw !== undefined) merged.raw = raw;
    const conversions = levels.find((p) => p.conversions !== undefined)?.conversions;
    if (conversions) merged.conversions = conversions;
    const contextReader = levels.find((p) => p.contextReader !== undefined)?.contextReader;
    if (contextReader) merged.contextReader = contextReader;
    params[i] = merged;
  }
  return params;
}

/** A parameter as declared in a function's source. */
export interface DeclaredParameter {
  readonly name: string;
  /** Declared with a default value (`page = 1`): absent input leaves the default to JavaScript. */
  readonly hasDefault: boolean;
}

/** Reads a function's parameters (name, whether it has a default) from its source, for binding by name. */
export function parameterList(fn: Function): DeclaredParameter[] {
  const src = Function.prototype.toString.call(fn);
  const open = src.indexOf('(');
  if (open < 0) return [];
  let depth = 0;
  let end = open;
  for (let i = open; i < src.length; i++) {
    const ch = src[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) {
        end = i;
        break;
      }
    }
  }
  const inner = src
    .slice(open + 1, end)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
  const parts: string[] = [];
  let current = '';
  depth = 0;
  for (const ch of inner) {
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    if (ch === ')' || ch === ']' || ch === '}') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim()) parts.push(current);
  return parts.map((p) => {
    const [name = '', ...rest] = p
      .trim()
      .replace(/^\.\.\./, '')
      .split('=');
    return { name: name.trim(), hasDefault: rest.length > 0 };
  });
}
