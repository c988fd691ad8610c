/**
 * @module
 * From what the user typed to the list of schema files and the generation root.
 */
import type { Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { declaresApiKey, isGeneratedContent } from '../loaders/openapi/api-sniff.js';
import { UsageError } from './args.js';

export interface ResolvedInputs {
  /** Absolute schema file paths, sorted, without duplicates. */
  readonly files: readonly string[];
  /** Absolute generation root: output paths mirror schema paths below it. */
  readonly root: string;
}

const SKIP_DIRS = new Set(['node_modules', '.git']);

/** What else decides which files a folder contributes. */
export interface ResolveOptions {
  /**
   * The output folder (absolute). When it lies inside an input folder it is not searched: its
   * `X.openapi.json` files are OpenAPI documents, and reading them back as inputs would write
   * `gen/gen/…` on the next run, and so on.
   */
  readonly out?: string;
}

/**
 * Expands folders into schema files and finds the root. A folder contributes its `.proto` files
 * and its YAML/JSON files with a top-level `openapi` or `swagger` key, except files Loom
 * generated (they carry its header or `x-generated-by` key) and anything under `options.out`.
 *
 * @example
 * await resolveInputs(['schemas'], '/repo', { out: '/repo/generated' });
 * // { files: ['/repo/schemas/issues/openapi.yaml', '/repo/schemas/system/v1alpha1/system.proto'], root: '/repo/schemas' }
 */
export async function resolveInputs(inputs: readonly string[], cwd: string, options: ResolveOptions = {}): Promise<ResolvedInputs> {
  const files = new Set<string>();
  const bases: string[] = [];
  for (const input of inputs) {
    const abs = resolve(cwd, input);
    let info: Stats;
    try {
      info = await stat(abs);
    } catch {
      throw new UsageError(`${input}: no such file or folder`);
    }
    if (info.isDirectory()) {
      bases.push(abs);
      // The output folder is skipped below an input folder, not when it is the input folder itself
      // (`loom generate . --out .`): there the generated marker alone keeps outputs out.
      const found = await findSchemas(abs, options.out !== undefined && options.out !== abs ? options.out : undefined);
      if (found.length === 0) throw new UsageError(`${input}: no .proto or OpenAPI/Swagger files found in this folder`);
      for (const f of found) files.add(f);
    } else {
      bases.push(dirname(abs));
      files.add(abs);
    }
  }
  return { files: [...files].sort(), root: commonParent(bases) };
}

/** The deepest folder containing every given folder. */
export function commonParent(dirs: readonly string[]): string {
  let parts = dirs[0]!.split(sep);
  for (const dir of dirs.slice(1)) {
    const other = dir.split(sep);
    let i = 0;
    while (i < parts.length && i < other.length && parts[i] === other[i]) i++;
    parts = parts.slice(0, i);
  }
  return parts.join(sep) || sep;
}

async function findSchemas(dir: string, skip: string | undefined): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.') && full !== skip) out.push(...(await findSchemas(full, skip)));
    } else if (entry.name.endsWith('.proto')) {
      out.push(full);
    } else if (/\.(ya?ml|json)$/i.test(entry.name)) {
      // Folders hold other YAML/JSON too (CI files, fixtures, Loom's own output): take only
      // OpenAPI/Swagger documents, and none that Loom wrote.
      const text = await readFile(full, 'utf8');
      if (declaresApiKey(text) && !isGeneratedContent(text)) out.push(full);
    }
  }
  return out;
}
