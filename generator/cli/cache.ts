/**
 * @module
 * The on-disk {@link GeneratorCache}: one file per key under `node_modules/.cache/loom`
 * (the folder build tools share by convention, ignored by git and wiped by `npm ci`).
 * Keys are content hashes, so entries never go stale; a corrupt or unwritable cache
 * only costs a recompile. `LOOM_CACHE=0` turns it off. At most {@link MAX_ENTRIES} entries
 * are kept (least recently written go first).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GeneratorCache } from '../emit.js';

/**
 * A cache in `<cwd>/node_modules/.cache/loom`, or undefined when there is no `node_modules`
 * (nowhere conventional to put it) or `LOOM_CACHE=0`.
 *
 * @example
 * const cache = openCache(process.cwd(), process.env);
 * emit(files, emitters, { runtimeImport, templates, cache });
 */
export function openCache(cwd: string, env: NodeJS.ProcessEnv): GeneratorCache | undefined {
  if (env.LOOM_CACHE === '0') return undefined;
  const modules = join(cwd, 'node_modules');
  if (!existsSync(modules)) return undefined;
  const dir = join(modules, '.cache', 'loom');
  const file = (key: string) => join(dir, key.replace(/[^A-Za-z0-9_-]/g, '_'));
  return {
    get(key) {
      try {
        return readFileSync(file(key), 'utf8');
      } catch {
        return undefined;
      }
    },
    set(key, value) {
      try {
        mkdirSync(dir, { recursive: true });
        // Write then rename: a concurrent run never reads half a file.
        const tmp = `${file(key)}.${process.pid}.tmp`;
        writeFileSync(tmp, value);
        renameSync(tmp, file(key));
        prune(dir);
      } catch {
        // A read-only or full disk must not fail generation.
      }
    },
  };
}

/** Entries kept; each is one schema file's compiled validators (Gitea's whole API: ~1 MB). */
export const MAX_ENTRIES = 64;

function prune(dir: string): void {
  const entries = readdirSync(dir);
  if (entries.length <= MAX_ENTRIES) return;
  const byAge = entries.map((name) => ({ name, mtime: statSync(join(dir, name)).mtimeMs })).sort((a, b) => a.mtime - b.mtime);
  for (const { name } of byAge.slice(0, entries.length - MAX_ENTRIES)) unlinkSync(join(dir, name));
}
