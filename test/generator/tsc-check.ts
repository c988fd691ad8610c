/**
 * @module
 * Type-checks a folder of generated code with the repository's `tsc`, as a user project
 * would: strict, ESM, decorators, and `loom/runtime/*` resolved to `runtime/codegen`.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(fileURLToPath(new URL('../../', import.meta.url)));

/** Runs `tsc --noEmit` over `dir`; resolves to its diagnostics output ('' when clean). */
export async function typeCheck(dir: string): Promise<string> {
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        experimentalDecorators: true,
        skipLibCheck: true,
        verbatimModuleSyntax: true,
        types: ['node'],
        typeRoots: [join(REPO, 'node_modules/@types')],
        paths: { 'loom/runtime/*': [join(REPO, 'runtime/codegen/*.ts')] },
      },
      include: ['**/*.ts'],
    }),
  );
  return new Promise((done) => {
    execFile(join(REPO, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')], { maxBuffer: 64 * 1024 * 1024 }, (_err, stdout, stderr) =>
      done(`${stdout}${stderr}`.trim()),
    );
  });
}
