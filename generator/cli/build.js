/**
 * @module
 * The generator's build: compiles `generator/` to plain JavaScript in `dist/` (`npm run build`,
 * run by `npm ci` through `prepare`) and stamps it with a digest of the sources it was
 * compiled from, so that `bin/loom.js` runs `dist/` only while it matches the sources. It also
 * compiles the runtime entries generated code imports (`runtime/codegen/server.ts`, `client.ts`
 * and what they import) into `dist/runtime/` as JavaScript with `.d.ts` declarations, which the
 * package's `loom/runtime/*` exports name: generated code then runs on plain Node after `tsc`,
 * and a user's type-check reads declarations instead of Loom's sources.
 *
 * Plain JavaScript rather than TypeScript on purpose: it runs before anything is compiled,
 * and `bin/loom.js` imports {@link isDistFresh} on every start without a TypeScript loader.
 *
 * Why a content digest and not modification times: `git checkout`, `cp -p` and archives
 * set times freely, and one stale module run silently is worse than a slower start. Hashing
 * the ~70 generator sources costs a few milliseconds.
 *
 * @example
 * // npm run build            (node generator/cli/build.js)
 * import { isDistFresh } from '../generator/cli/build.js';
 * if (isDistFresh(repoRoot)) await import('../dist/cli/main.js');
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The stamp `dist/` carries: the digest of the sources it was compiled from. */
export const STAMP_FILE = '.loom-build.json';

/** Files whose content decides what `dist/` holds, besides the generator's `.ts` sources and the templates. */
const BUILD_INPUTS = ['tsconfig.json', 'tsconfig.build.json'];

/** The built-in templates, precompiled into `dist/` (see {@link precompileTemplates}). */
export const PRECOMPILED_TEMPLATES = 'templates.precompiled.cjs';

/**
 * SHA-256 over every compiled input: `generator/**\/*.ts` except tests (`*.test.ts`; editing
 * a test must not send the CLI back to the slow path), the templates (`templates/**\/*.hbs`,
 * precompiled into `dist/`), plus the tsconfig files.
 *
 * @param {string} root repository (or installed package) folder
 * @returns {string} hex digest
 */
export function sourceDigest(root) {
  const hash = createHash('sha256');
  const files = [
    ...BUILD_INPUTS,
    ...listFiles(join(root, 'generator'), 'generator', isGeneratorSource),
    ...listFiles(join(root, 'templates'), 'templates', isTemplate),
  ];
  for (const rel of files) {
    let content;
    try {
      content = readFileSync(join(root, rel));
    } catch {
      content = Buffer.alloc(0); // a missing tsconfig.build.json (published package) is part of the state too
    }
    // Length-prefixed so that moving bytes between files never gives the same digest.
    hash.update(`${rel}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest('hex');
}

/**
 * Files under `dir` that `include(name)` accepts, as `/`-separated paths relative to the root,
 * sorted (a digest must not depend on the file system's order); none when `dir` is absent.
 *
 * @param {string} dir
 * @param {string} rel `dir` relative to the root
 * @param {(name: string) => boolean} include
 * @returns {string[]}
 */
function listFiles(dir, rel, include) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listFiles(join(dir, entry.name), path, include));
    else if (include(entry.name)) out.push(path);
  }
  return out;
}

/** The generator's sources: `.ts`, tests and declarations excluded. */
const isGeneratorSource = (name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts');
/** The built-in templates. */
const isTemplate = (name) => name.endsWith('.hbs');
/** The runtime's sources: `.ts` and hand-written `.js` modules, tests and declarations excluded. */
const isRuntimeSource = (name) => /\.(ts|js|mjs|cjs)$/.test(name) && !/\.test\.ts$|\.d\.ts$/.test(name);

/**
 * Precompiles the built-in templates into `dist/templates.precompiled.cjs` (template name →
 * Handlebars template spec), so that a run of `dist/` needs only Handlebars' runtime and
 * compiles nothing: about 40 ms of a run's start-up. The options are the ones
 * `generator/templates.ts` compiles with; templates given with `--templates` are still
 * compiled when a run starts.
 *
 * @param {string} root repository (or installed package) folder
 */
export function precompileTemplates(root) {
  const require = createRequire(join(root, 'package.json'));
  const Handlebars = require('handlebars');
  const entries = listFiles(join(root, 'templates'), 'templates', isTemplate).map((rel) => {
    const name = rel.slice('templates/'.length, -'.hbs'.length);
    const spec = Handlebars.precompile(readFileSync(join(root, rel), 'utf8'), { ...TEMPLATE_OPTIONS });
    return `  ${JSON.stringify(name)}: ${spec},`;
  });
  const header = '// Built by generator/cli/build.js from templates/: Handlebars template specs by name.\n';
  writeFileSync(join(root, 'dist', PRECOMPILED_TEMPLATES), `${header}module.exports = {\n${entries.join('\n')}\n};\n`);
}

/** Handlebars options of every Loom template: code, not HTML (`noEscape`); unknown names fail (`strict`). */
export const TEMPLATE_OPTIONS = Object.freeze({ noEscape: true, strict: true });

/**
 * True when `dist/` was built from exactly the sources now in `generator/`.
 *
 * @param {string} root repository (or installed package) folder
 * @returns {boolean}
 */
export function isDistFresh(root) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, 'dist', STAMP_FILE), 'utf8'));
  } catch {
    return false;
  }
  return typeof stamp?.digest === 'string' && stamp.digest === sourceDigest(root);
}

/** The runtime entries generated code imports (`loom/runtime/server`, `loom/runtime/client`), under `runtime/`. */
export const RUNTIME_ENTRIES = ['codegen/server.ts', 'codegen/client.ts'];

/**
 * Compiler options of the runtime build, as `tsc` flags: the project's settings (ESM for Node,
 * strict, decorators) with declarations. Given on the command line because the runtime is
 * compiled from its entries (and what they import), not from a project's `include`.
 */
const RUNTIME_TSC_FLAGS = [
  '--target',
  'ES2022',
  '--module',
  'NodeNext',
  '--moduleResolution',
  'NodeNext',
  '--strict',
  '--experimentalDecorators',
  '--skipLibCheck',
  '--esModuleInterop',
  '--resolveJsonModule',
  '--verbatimModuleSyntax',
  '--types',
  'node',
  '--declaration',
  '--sourceMap',
];

/**
 * SHA-256 over the runtime's sources (`runtime/**\/*.ts` and `.js` except tests): what the runtime
 * build in `dist/runtime/` was compiled from.
 *
 * @param {string} root repository (or installed package) folder
 * @returns {string} hex digest
 */
export function runtimeDigest(root) {
  const hash = createHash('sha256');
  for (const rel of listFiles(join(root, 'runtime'), 'runtime', isRuntimeSource)) {
    const content = readFileSync(join(root, rel));
    hash.update(`${rel}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest('hex');
}

/**
 * Compiles the runtime entries (and every module they import) into `outDir`: JavaScript, `.d.ts`
 * and source maps mirroring `runtime/`, plus the hand-written `.js` modules beside them that are
 * loaded by URL rather than imported (the `@Blocking` worker). Writes into a temporary folder
 * renamed into place, so a concurrent reader never sees half a build. Type errors are tolerated
 * (the JavaScript is emitted anyway, as for the generator); `npm run typecheck` reports them.
 *
 * @param {string} root repository (or installed package) folder
 * @param {string} [outDir] where to write; `<root>/dist/runtime` by default
 */
export function buildRuntime(root, outDir = join(root, 'dist', 'runtime')) {
  const digest = runtimeDigest(root);
  const staging = `${outDir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const tsc = join(dirname(createRequire(join(root, 'package.json')).resolve('typescript/package.json')), 'bin', 'tsc');
  const entries = RUNTIME_ENTRIES.map((e) => join(root, 'runtime', e));
  try {
    execFileSync(
      process.execPath,
      [tsc, '--ignoreConfig', ...entries, '--rootDir', join(root, 'runtime'), '--outDir', staging, ...RUNTIME_TSC_FLAGS],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
  } catch (e) {
    if (e?.status !== 2) throw e;
    process.stderr.write('loom build: the runtime has type errors (above); JavaScript was emitted anyway. Run `npm run typecheck`.\n');
  }
  copyScriptAssets(join(root, 'runtime'), staging);
  writeFileSync(join(staging, STAMP_FILE), `${JSON.stringify({ digest })}\n`);
  mkdirSync(dirname(outDir), { recursive: true });
  try {
    renameSync(staging, outDir);
  } catch {
    // A build is there already: one of the same sources (a concurrent build got there first) is
    // kept, as something may be reading it; an older one is replaced.
    if (isRuntimeBuildFresh(root, outDir)) {
      rmSync(staging, { recursive: true, force: true });
      return;
    }
    rmSync(outDir, { recursive: true, force: true });
    renameSync(staging, outDir);
  }
}

/**
 * Copies the `.js` modules of `sourceDir` that have no `.ts` twin into the folders of `outDir` that
 * the compile produced (a worker script is loaded by URL, so `tsc` never sees it).
 */
function copyScriptAssets(sourceDir, outDir) {
  const walk = (dir) => {
    const source = join(sourceDir, relative(outDir, dir));
    for (const name of existsSync(source) ? readdirSync(source) : []) {
      if (/\.(js|mjs|cjs)$/.test(name) && !existsSync(join(source, name.replace(/\.[mc]?js$/, '.ts'))))
        copyFileSync(join(source, name), join(dir, name));
    }
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) walk(join(dir, entry.name));
  };
  walk(outDir);
}

/**
 * True when `dir` holds a runtime build of exactly the runtime sources now in `<root>/runtime`.
 *
 * @param {string} root repository (or installed package) folder
 * @param {string} [dir] the build; `<root>/dist/runtime` by default
 * @returns {boolean}
 */
export function isRuntimeBuildFresh(root, dir = join(root, 'dist', 'runtime')) {
  try {
    return JSON.parse(readFileSync(join(dir, STAMP_FILE), 'utf8'))?.digest === runtimeDigest(root);
  } catch {
    return false;
  }
}

/**
 * Compiles `generator/` into `dist/` with the project's `tsc` and writes the stamp.
 * The digest is taken *before* compiling: a source edited during the build leaves a stamp
 * that no longer matches, so the next run falls back to the sources instead of running
 * what was compiled from the older text.
 *
 * @param {string} root repository folder
 */
export function build(root) {
  const digest = sourceDigest(root);
  const dist = join(root, 'dist');
  // From scratch: output of a deleted source must not linger where an import could find it.
  rmSync(dist, { recursive: true, force: true });
  // Resolved from the package like any dependency (node_modules may sit further up).
  const tsc = join(dirname(createRequire(join(root, 'package.json')).resolve('typescript/package.json')), 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
  } catch (e) {
    // tsc exits 2 when it found type errors but emitted anyway. That JavaScript is what tsx
    // would run from the same sources, so the build stands (an `npm ci` must not fail on
    // it); `npm run typecheck` is where type errors fail.
    if (e?.status !== 2) throw e;
    process.stderr.write('loom build: the generator has type errors (above); JavaScript was emitted anyway. Run `npm run typecheck`.\n');
  }
  precompileTemplates(root);
  // A package without its runtime sources (a copy of the generator alone) has nothing to compile.
  if (existsSync(join(root, 'runtime', RUNTIME_ENTRIES[0]))) buildRuntime(root);
  writeFileSync(join(dist, STAMP_FILE), `${JSON.stringify({ digest })}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  build(fileURLToPath(new URL('../..', import.meta.url)));
}
