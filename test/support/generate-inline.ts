/**
 * @module
 * Test helper: loads schema text written to a temp folder and runs emitters over
 * it, in memory (`emitInline`) or onto disk under `.tmp/` so generated code can
 * be imported (`generateInline`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emitter, OutputFile } from '../../generator/emit.js';
import { emit } from '../../generator/emit.js';
import { clientEmitter } from '../../generator/emitters/client.js';
import { rpcCodecEmitter } from '../../generator/emitters/rpc/codec.js';
import { grpcEmitter } from '../../generator/emitters/rpc/grpc.js';
import { serverEmitter } from '../../generator/emitters/server.js';
import { typesEmitter } from '../../generator/emitters/types/types.js';
import { validatorsEmitter } from '../../generator/emitters/validators/validators.js';
import { loadSchemas, memoryFileSystem } from '../../generator/loaders/index.js';
import { loadTemplates } from '../../generator/templates.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const ALL_EMITTERS: readonly Emitter[] = [
  typesEmitter,
  validatorsEmitter,
  rpcCodecEmitter,
  serverEmitter,
  clientEmitter,
  grpcEmitter,
];

/** Emits `schemas` (file name → text) with `emitters`; returns output files by path. */
export async function emitInline(
  schemas: Record<string, string>,
  emitters: readonly Emitter[],
  runtimeImport = '../runtime/entries',
): Promise<Map<string, string>> {
  // Read from memory: nothing is written to load them.
  const root = '/schemas';
  const files = await loadSchemas(
    Object.keys(schemas).map((n) => join(root, n)),
    { root, fileSystem: memoryFileSystem(schemas, root) },
  );
  const out = emit(files, emitters, { runtimeImport, templates: loadTemplates() });
  return new Map(out.files.map((f: OutputFile) => [f.path, f.content]));
}

/** Generates `schemas` with every emitter into `.tmp/<prefix>-XXXX/`, ready to import. */
export async function generateInline(prefix: string, schemas: Record<string, string>): Promise<{ dir: string; cleanup: () => void }> {
  mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(REPO_ROOT, '.tmp', `${prefix}-`));
  const runtimeImport = relative(dir, join(REPO_ROOT, 'runtime/entries')).split('\\').join('/');
  const files = await emitInline(schemas, ALL_EMITTERS, runtimeImport);
  for (const [path, content] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  // Vite transforms each file with its nearest tsconfig; `.tmp/` is outside the repository's
  // `include`, so without this the generated decorators would not be compiled.
  const extendsPath = relative(dir, join(REPO_ROOT, 'tsconfig.json')).split('\\').join('/');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    `${JSON.stringify({ extends: extendsPath, compilerOptions: { noEmit: true }, include: ['**/*'] }, null, 2)}\n`,
  );
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
