/**
 * @module
 * `--plugin <module>`: user emitters loaded at run time, so output can grow without a fork.
 * A plugin is an ES module whose default export, or any named export, is an `Emitter`
 * (or an array of them).
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Emitter } from '../emit.js';
import { UsageError } from './args.js';

function isEmitter(value: unknown): value is Emitter {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Emitter).name === 'string' &&
    typeof (value as Emitter).emit === 'function'
  );
}

let typeScriptLoader: Promise<void> | undefined;

/**
 * Makes `import()` accept TypeScript, as plugins are often written in it (and may import
 * `loom/generator`, whose entry is TypeScript). The compiled CLI (`dist/`) runs on plain
 * Node, so it registers tsx on the first plugin load only: runs without plugins never pay
 * for it. Running from the sources (tsx, vitest), a TypeScript loader is already in place.
 */
function supportTypeScript(): Promise<void> {
  if (!import.meta.url.endsWith('.js')) return Promise.resolve();
  return (typeScriptLoader ??= import('tsx/esm/api').then(({ register }) => {
    register();
  }));
}

/**
 * Loads the emitters a plugin module exports, in export order (default first).
 *
 * @example
 * // my-emitter.js: export const routesList = { name: 'routes-list', emit(file, ctx) { ctx.addFile(…) } };
 * await loadPlugin('./my-emitter.js', process.cwd()); // [routesList]
 */
export async function loadPlugin(specifier: string, cwd: string): Promise<Emitter[]> {
  // Paths are relative to the current folder; anything else is a package name.
  const local = specifier.startsWith('.') || isAbsolute(specifier);
  const url = local ? pathToFileURL(resolve(cwd, specifier)).href : specifier;
  let mod: Record<string, unknown>;
  try {
    await supportTypeScript();
    mod = (await import(url)) as Record<string, unknown>;
  } catch (e) {
    throw new UsageError(`--plugin ${specifier}: cannot load it (${(e as Error).message})`);
  }
  const emitters: Emitter[] = [];
  const names = Object.keys(mod).sort((a, b) => (a === 'default' ? -1 : b === 'default' ? 1 : 0));
  for (const name of names) {
    const value = mod[name];
    for (const candidate of Array.isArray(value) ? value : [value])
      if (isEmitter(candidate) && !emitters.includes(candidate)) emitters.push(candidate);
  }
  if (emitters.length === 0)
    throw new UsageError(`--plugin ${specifier}: exports no emitter (an object with 'name' and 'emit(file, ctx)')`);
  return emitters;
}
