/**
 * @module
 * Test helpers for the loaders: schema text written to a temp folder, and a plain
 * projection of the model (no `parent` cycles, references by name) to compare exactly.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Writes `files` (path → text) under a fresh temp folder and returns it.
 * @example const root = await writeSchemas({ 'a.proto': 'syntax = "proto3";' });
 */
export async function writeSchemas(files: Readonly<Record<string, string>>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'loom-loaders-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

export async function removeSchemas(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
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
