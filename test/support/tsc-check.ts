/**
 * @module
 * Type-checks a folder of generated code with the repository's `tsc`, as a user project
 * would: strict, ESM, decorators, and `loom/*` resolved to the toolkit's compiled declarations
 * (`.d.ts`, what the package's exports give users), so that the user's compiler options apply
 * to generated code and never to Loom's own sources.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, isDistFresh, sourceDigest } from '../../generator/cli/build.js';

export const REPO = resolve(fileURLToPath(new URL('../../', import.meta.url)));

/** Compiler options a project may add to the strict baseline. */
export interface TypeCheckOptions {
  /** TypeScript's `exactOptionalPropertyTypes`: `x?: T` no longer accepts an explicit `undefined`. */
  readonly exactOptionalPropertyTypes?: boolean;
}

/**
 * The toolkit's build, compiled from the sources now on disk into `.tmp/toolkit-<digest>/`
 * (once per version of the sources; a few seconds), as the package's build compiles it into
 * `packages/loom/dist/`. Test files run in parallel processes: one builds while the others wait
 * for it (a lock folder), and builds of older sources are removed.
 */
export async function toolkitBuild(): Promise<string> {
  const tmp = join(REPO, '.tmp');
  const name = `toolkit-${sourceDigest(REPO).slice(0, 16)}`;
  const dir = join(tmp, name);
  const lock = `${dir}.lock`;
  mkdirSync(tmp, { recursive: true });
  for (let waited = 0; !isDistFresh(REPO, dir); waited += 200) {
    try {
      mkdirSync(lock);
    } catch {
      // Another process builds it; a lock older than two minutes belongs to one that died.
      if (waited < 120_000) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    try {
      build(REPO, dir);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  const hourAgo = Date.now() - 3_600_000;
  for (const entry of readdirSync(tmp)) {
    if (!/^(runtime|toolkit)-[0-9a-f]{16}$/.test(entry) || entry === name) continue;
    const path = join(tmp, entry);
    if (statSync(path).mtimeMs < hourAgo) rmSync(path, { recursive: true, force: true });
  }
  return dir;
}

/** Runs `tsc --noEmit` over `dir`; resolves to its diagnostics output ('' when clean). */
export async function typeCheck(dir: string, options: TypeCheckOptions = {}): Promise<string> {
  const toolkit = await toolkitBuild();
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        ...(options.exactOptionalPropertyTypes ? { exactOptionalPropertyTypes: true } : {}),
        noEmit: true,
        experimentalDecorators: true,
        skipLibCheck: true,
        verbatimModuleSyntax: true,
        types: ['node'],
        typeRoots: [join(REPO, 'node_modules/@types')],
        paths: { 'loom/*': [join(toolkit, 'runtime/entries/*.d.ts')] },
      },
      include: ['**/*.ts'],
    }),
  );
  return new Promise((done) => {
    execFile(
      join(REPO, 'node_modules/.bin/tsc'),
      ['-p', join(dir, 'tsconfig.json')],
      { maxBuffer: 64 * 1024 * 1024 },
      (_err, stdout, stderr) => done(`${stdout}${stderr}`.trim()),
    );
  });
}
