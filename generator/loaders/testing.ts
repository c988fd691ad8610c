/**
 * @module
 * Test helpers for the loaders: schema text held in memory under a virtual folder (nothing is
 * written to disk), and a plain projection of the model (no `parent` cycles, references by name)
 * to compare exactly.
 */
import type { SchemaFile } from '../model/model.js';
import { memoryFileSystem } from './file-system.js';
import { type LoadOptions, loadSchemas as loadFrom } from './index.js';

/** Virtual folders handed out by {@link memorySchemas}, with their files. */
const folders = new Map<string, Readonly<Record<string, string>>>();
let nextFolder = 0;

/**
 * Holds `files` (path → text) in memory under a fresh virtual folder and returns that folder's path,
 * for {@link loadSchemas} below.
 *
 * @example
 * const root = memorySchemas({ 'a.proto': 'syntax = "proto3";' });
 * const [file] = await loadSchemas([`${root}/a.proto`], { root });
 */
export function memorySchemas(files: Readonly<Record<string, string>>): string {
  const root = `/loom-memory/${++nextFolder}`;
  folders.set(root, files);
  return root;
}

/** Lets go of a folder {@link memorySchemas} made. */
export function forgetSchemas(root: string): void {
  folders.delete(root);
}

/**
 * `loadSchemas` of `generator/loaders`, reading the virtual folder that holds `options.root` (or the
 * first input) when {@link memorySchemas} made it, and the disk otherwise.
 *
 * @example
 * const [api] = await loadSchemas([`${root}/api.yaml`], { root });
 */
export function loadSchemas(inputs: readonly string[], options: LoadOptions): Promise<SchemaFile[]> {
  const within = (path: string) => [...folders.keys()].find((folder) => path === folder || path.startsWith(`${folder}/`));
  const folder = within(options.root) ?? inputs.map(within).find((f) => f !== undefined);
  if (folder === undefined || options.fileSystem) return loadFrom(inputs, options);
  return loadFrom(inputs, { ...options, fileSystem: memoryFileSystem(folders.get(folder)!, folder) });
}

/**
 * The model without back links: `parent`/`outer` dropped, a reference's `target` shown as
 * `{ ref: 'file.yaml#/components/schemas/X' }` or `{ ref: 'a.proto#pkg.X' }`, dependencies as their paths.
 */
export function plain(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) => {
      if (key === 'parent' || key === 'outer') return undefined;
      if (key === 'target' && v && typeof v === 'object') {
        const t = v as { fullName: string; parent: { path: string } };
        return { ref: t.fullName.startsWith('#') ? `${t.parent.path}${t.fullName}` : `${t.parent.path}#${t.fullName}` };
      }
      if (key === 'dependencies' && Array.isArray(v)) return v.map((d: { path: string }) => d.path);
      if ((key === 'input' || key === 'output') && v && typeof v === 'object' && 'fullName' in v)
        return (v as { fullName: string }).fullName;
      return v;
    }),
  );
}
