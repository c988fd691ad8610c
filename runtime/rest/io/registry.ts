/**
 * @module
 * Per-router registries of readers and writers, by type and by mime, with the built-in defaults
 * (JSON and plain text).
 */

import type { ResponseWriter, TypeKey, ValueReader } from '../types.js';
import { bareMime, mimeMatches } from './negotiate.js';

/** The built-in JSON writer (`application/json`). */
export const JSON_WRITER: ResponseWriter = {
  produces: 'application/json',
  write: (value) => (value === undefined ? null : JSON.stringify(value)),
};

/**
 * The built-in text writer (`text/plain`, or the route's declared type): the string form of the
 * result. A JavaScript object's useful string form is its JSON, not `[object Object]`.
 */
export const TEXT_WRITER: ResponseWriter = {
  produces: 'text/plain; charset=utf-8',
  write: (value) => {
    if (value === undefined || value === null) return null;
    if (typeof value === 'string' || value instanceof Uint8Array) return value;
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  },
};

/** The built-in JSON reader. */
export const JSON_READER: ValueReader = {
  consumes: ['application/json'],
  read: (text) => JSON.parse(text) as unknown,
};

/** A registry keyed by class (walking the prototype chain) and by mime (wildcards allowed). */
export class TypedRegistry<T> {
  private readonly types = new Map<Function, T>();
  private readonly mimes: [string, T][] = [];

  setType(type: TypeKey, item: T): void {
    this.types.set(type, item);
  }

  setMime(mime: string, item: T): void {
    const bare = bareMime(mime);
    const i = this.mimes.findIndex(([m]) => m === bare);
    if (i >= 0) this.mimes[i] = [bare, item];
    else this.mimes.push([bare, item]);
  }

  get hasTypes(): boolean {
    return this.types.size > 0;
  }

  /** Whether any mime is registered: asked per request, so it must not build {@link mimeList}. */
  get hasMimes(): boolean {
    return this.mimes.length > 0;
  }

  /** The item for a class or, for a value, for its runtime class (nearest ancestor wins). */
  forType(type: Function | undefined): T | undefined {
    for (let c = type; c && c !== Object && c !== Function.prototype; c = Object.getPrototypeOf(c) as Function) {
      const hit = this.types.get(c);
      if (hit) return hit;
    }
    return undefined;
  }

  forValue(value: unknown): T | undefined {
    if (this.types.size === 0 || value === null || typeof value !== 'object') return undefined;
    return this.forType((value as object).constructor);
  }

  /** The item for a concrete mime (exact first, then wildcard registrations). */
  forMime(mime: string): T | undefined {
    const bare = bareMime(mime);
    for (const [m, item] of this.mimes) if (m === bare) return item;
    for (const [m, item] of this.mimes) if (mimeMatches(m, bare)) return item;
    return undefined;
  }

  /** The registered mimes, in registration order (a new array: for registration time). */
  get mimeList(): readonly string[] {
    return this.mimes.map(([m]) => m);
  }

  clear(): void {
    this.types.clear();
    this.mimes.length = 0;
  }
}
