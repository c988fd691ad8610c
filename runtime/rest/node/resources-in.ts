/**
 * @module
 * `resourcesIn(folder)` (xp-forge's `ResourcesIn`): every routes class exported by the modules of a
 * folder, for `router.register(...)`. A routes class is one with a route method (`@GET`, …); a
 * class another one found extends is its base (a generated routes class) and is left to the subclass.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolveClass } from '../metadata/builder.js';
import type { Class } from '../types.js';

/** Options of {@link resourcesIn}. */
export interface ResourcesInOptions {
  /** Look in subfolders too. @default false */
  readonly recursive?: boolean;
  /**
   * The files imported. @default `.js`, `.mjs`, `.ts` and `.mts` files, except declarations
   * (`.d.ts`) and tests (`.test.*`, `.spec.*`)
   */
  readonly files?: RegExp;
}

const MODULES = /^(?!.*\.d\.[mc]?ts$)(?!.*\.(?:test|spec)\.[mc]?[jt]s$).*\.(?:m?js|m?ts)$/;

/**
 * Imports the modules of `folder` (in file-name order) and returns the routes classes they export.
 * The router creates them through its injector (`new Cls()` by default).
 *
 * @example
 * ```ts
 * const router = createRestRouter().register(...(await resourcesIn(new URL('./routes/', import.meta.url))));
 * ```
 */
export async function resourcesIn(folder: string | URL, options: ResourcesInOptions = {}): Promise<Class[]> {
  const dir = folder instanceof URL ? fileURLToPath(folder) : resolve(folder);
  const pattern = options.files ?? MODULES;
  const names = (await readdir(dir, { recursive: options.recursive === true })).sort();
  const found: Class[] = [];
  for (const name of names) {
    const file = join(dir, name);
    if (!pattern.test(name.split(/[/\\]/).pop()!) || !(await stat(file)).isFile()) continue;
    const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const value of Object.values(exports)) if (isRoutesClass(value) && !found.includes(value)) found.push(value);
  }
  return found.filter((base) => !found.some((other) => other.prototype instanceof base));
}

function isRoutesClass(value: unknown): value is Class {
  if (typeof value !== 'function' || typeof value.prototype !== 'object') return false;
  return resolveClass(value as Class).methods.some((m) => m.verb !== undefined);
}
