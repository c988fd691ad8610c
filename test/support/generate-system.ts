/**
 * @module
 * Test helper: generates the System service's types, codec, server and client
 * from `schemas/system/v1alpha1/system.proto` into a fresh folder under `.tmp/`
 * (inside the repository, so generated imports of `runtime/entries` resolve).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emit } from '../../generator/emit.js';
import { clientEmitter } from '../../generator/emitters/client.js';
import { rpcCodecEmitter } from '../../generator/emitters/rpc/codec.js';
import { grpcEmitter } from '../../generator/emitters/rpc/grpc.js';
import { serverEmitter } from '../../generator/emitters/server.js';
import { typesEmitter } from '../../generator/emitters/types/types.js';
import { loadSchemas } from '../../generator/loaders/index.js';
import { loadTemplates } from '../../generator/templates.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Type-checks a generated folder with the repository's compiler settings; resolves to
 * the compiler's output (empty when clean).
 */
export function typeCheck(dir: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(join(REPO_ROOT, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')], { cwd: REPO_ROOT }, (_error, stdout, stderr) =>
      resolve(`${stdout}${stderr}`.trim()),
    );
  });
}

/** Generates into `.tmp/<prefix>-XXXX/` and returns that folder and a cleanup function. */
export async function generateSystem(prefix: string): Promise<{ dir: string; cleanup: () => void }> {
  const schemas = join(REPO_ROOT, 'schemas');
  const files = await loadSchemas([join(schemas, 'system/v1alpha1/system.proto')], { root: schemas, importPaths: [] });
  mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(REPO_ROOT, '.tmp', `${prefix}-`));
  const runtimeImport = relative(dir, join(REPO_ROOT, 'runtime/entries')).split('\\').join('/');
  const out = emit(files, [typesEmitter, rpcCodecEmitter, serverEmitter, clientEmitter, grpcEmitter], {
    runtimeImport,
    templates: loadTemplates(),
  });
  for (const file of out.files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
  }
  // A tsconfig beside the output, so Vite and `tsc -p` compile it with the repository's settings.
  const extendsPath = relative(dir, join(REPO_ROOT, 'tsconfig.json')).split('\\').join('/');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    `${JSON.stringify({ extends: extendsPath, compilerOptions: { noEmit: true }, include: ['**/*'] }, null, 2)}\n`,
  );
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
