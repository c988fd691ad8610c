/**
 * @module
 * `loom/rest` runs on every runtime Hono runs on (Deno, Bun, workers), so nothing it reaches may
 * import a Node built-in: the entry is bundled with esbuild for a neutral platform and the bundle's
 * inputs and imports are checked. `loom/rest/node` is the one that may.
 */
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function bundle(entry: string): Promise<Metafile> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    // Neutral resolves no package main fields by default; the dependencies are ordinary packages.
    mainFields: ['module', 'main'],
    // Keep `node:` imports external, so that they show in the metafile instead of failing the build.
    external: ['node:*'],
    logLevel: 'silent',
  });
  return result.metafile;
}

/** Every `node:` module any input of the bundle imports, with the input importing it. */
function nodeImports(metafile: Metafile): string[] {
  const found: string[] = [];
  for (const [input, { imports }] of Object.entries(metafile.inputs)) {
    for (const i of imports) if (i.path.startsWith('node:')) found.push(`${input} → ${i.path}`);
  }
  for (const input of Object.keys(metafile.inputs)) if (input.startsWith('node:')) found.push(input);
  return found;
}

describe('loom/rest on any runtime', () => {
  it('bundles for a neutral platform without a single node: module among its inputs', async () => {
    const metafile = await bundle('runtime/entries/rest.ts');
    expect(Object.keys(metafile.inputs)).toContain('runtime/rest/router.ts');
    expect(nodeImports(metafile)).toEqual([]);
  }, 30_000);
  it('loom/rest/node is where the node: modules are (the check sees them)', async () => {
    const found = nodeImports(await bundle('runtime/entries/rest/node.ts'));
    expect(found).toEqual(expect.arrayContaining([expect.stringContaining('node:worker_threads'), expect.stringContaining('node:fs')]));
  }, 30_000);
});
