/**
 * @module
 * The toolkit's build: compiles the `loom` package (`packages/loom/`) from this repository's
 * sources — the generator (`generator/`, the `loom` CLI), its default templates (`templates/`)
 * and the runtime libraries generated code imports (`runtime/entries/` and the modules they
 * reach: `runtime/rest/`, `runtime/rpc/`, `runtime/client/`) — into `packages/loom/dist/` as
 * JavaScript with `.d.ts` declarations. `npm pack` of the package runs it (`prepack`), so the
 * tarball carries compiled code and a user builds nothing; `npm ci` here runs it too (`prepare`).
 *
 * The build is stamped with a digest of the sources it was compiled from, so that `bin/loom.js`
 * runs it only while it matches them and falls back to the TypeScript sources otherwise.
 *
 * Plain JavaScript rather than TypeScript on purpose: it runs before anything is compiled,
 * and `bin/loom.js` imports {@link isDistFresh} on every start without a TypeScript loader.
 *
 * Why a content digest and not modification times: `git checkout`, `cp -p` and archives
 * set times freely, and one stale module run silently is worse than a slower start.
 *
 * @example
 * // npm run build:toolkit   (node generator/cli/build.js)
 * import { isDistFresh, PACKAGE_DIR } from '../generator/cli/build.js';
 * if (isDistFresh(repoRoot)) await import(`${repoRoot}/${PACKAGE_DIR}/bin/loom.js`);
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The toolkit package's folder, relative to the repository root. */
export const PACKAGE_DIR = 'packages/loom';

/** The stamp the build carries: the digest of the sources it was compiled from. */
export const STAMP_FILE = '.loom-build.json';

/** The built-in templates, precompiled into the built templates folder (see {@link precompileTemplates}). */
export const PRECOMPILED_TEMPLATES = 'precompiled.cjs';

/**
 * The `loom` command bundled (see {@link bundleCli}), relative to the build folder: what the
 * package's `bin/loom.js` runs.
 */
export const CLI_BUNDLE = 'cli/loom.js';

/** Handlebars options of every Loom template: code, not HTML (`noEscape`); unknown names fail (`strict`). */
export const TEMPLATE_OPTIONS = Object.freeze({ noEscape: true, strict: true });

/** Source folders of the toolkit under the repository root: what the package is compiled from. */
export const TOOLKIT_SOURCES = [
  'generator',
  'templates',
  'runtime/entries',
  'runtime/rest',
  'runtime/rpc',
  'runtime/client',
  'runtime/util',
];

/** Files whose content decides what the build holds, besides the sources. */
const BUILD_INPUTS = ['tsconfig.json', 'tsconfig.package.json', `${PACKAGE_DIR}/package.json`];

/** A toolkit source: `.ts` (tests and declarations excluded), hand-written `.js` modules and templates. */
const isSource = (name) => (/\.(ts|js|mjs|cjs|hbs)$/.test(name) && !/\.test\.ts$|\.d\.ts$/.test(name)) || name === 'package.json';

/** Every file of `templates/` is shipped: the generator's `.hbs` and the starter project of `loom init`. */
const sourcesOf = (dir) => (dir === 'templates' ? () => true : isSource);

/**
 * SHA-256 over every compiled input: the toolkit's sources ({@link TOOLKIT_SOURCES}; editing a
 * test must not send the CLI back to the slow path) plus the tsconfig files and the package's
 * manifest.
 *
 * @param {string} root repository folder
 * @returns {string} hex digest
 */
export function sourceDigest(root) {
  const hash = createHash('sha256');
  const files = [...BUILD_INPUTS, ...TOOLKIT_SOURCES.flatMap((dir) => listFiles(join(root, dir), dir, sourcesOf(dir)))];
  for (const rel of files) {
    let content;
    try {
      content = readFileSync(join(root, rel));
    } catch {
      content = Buffer.alloc(0); // a missing input is part of the state too
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

/**
 * True when a build (the package's `dist/` by default) was made from exactly the sources now in
 * the repository.
 *
 * @param {string} root repository folder
 * @param {string} [dist] the build folder; `<root>/packages/loom/dist` by default
 * @returns {boolean}
 */
export function isDistFresh(root, dist = join(root, PACKAGE_DIR, 'dist')) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(dist, STAMP_FILE), 'utf8'));
  } catch {
    return false;
  }
  return typeof stamp?.digest === 'string' && stamp.digest === sourceDigest(root);
}

/**
 * Precompiles the built-in templates into `<dist>/templates/precompiled.cjs` (template
 * name → Handlebars template spec), so that a run of the compiled generator needs only
 * Handlebars' runtime and compiles nothing: about 40 ms of a run's start-up. The options are the
 * ones `generator/templates.ts` compiles with; templates given with `--templates` are still
 * compiled when a run starts.
 *
 * @param {string} root repository folder
 * @param {string} dist the build folder
 */
export function precompileTemplates(root, dist) {
  const require = createRequire(join(root, 'package.json'));
  const Handlebars = require('handlebars');
  const entries = listFiles(join(root, 'templates'), 'templates', (name) => name.endsWith('.hbs')).map((rel) => {
    const name = rel.slice('templates/'.length, -'.hbs'.length);
    const spec = Handlebars.precompile(readFileSync(join(root, rel), 'utf8'), { ...TEMPLATE_OPTIONS });
    return `  ${JSON.stringify(name)}: ${spec},`;
  });
  const header = '// Built by generator/cli/build.js from templates/: Handlebars template specs by name.\n';
  mkdirSync(join(dist, 'templates'), { recursive: true });
  writeFileSync(join(dist, 'templates', PRECOMPILED_TEMPLATES), `${header}module.exports = {\n${entries.join('\n')}\n};\n`);
}

/**
 * Bundles the compiled CLI into `<dist>/cli/`: `loom.js` (the command), `validators-worker.js`
 * (the worker `generator/cli/validators-prefetch.ts` starts, found beside the code that starts
 * it) and the chunks both share or load on demand (the loaders and emitters, which `--help`
 * never loads). Node resolves and links each ES module separately, and the generator is about
 * a hundred of them: one bundle made a cold `loom generate` on Gitea's API about 8 % faster and
 * `loom --help` about 10 %. Dependencies stay outside, resolved from the package's own
 * `node_modules` as before, but one (below). The separate modules of `dist/generator/` stay
 * for the programmatic API (`loom/generator`); their code is the same, only not joined.
 *
 * The bundle sits one folder below the build's root, as `dist/generator/` does, so the one
 * module that finds package files by its own location (`generator/templates-dir.ts`) finds them
 * from either.
 *
 * @param {string} root repository folder
 * @param {string} dist the build folder
 */
export function bundleCli(root, dist) {
  const esbuild = createRequire(join(root, 'package.json'))('esbuild');
  // Every dependency stays outside but Handlebars' runtime (the full compiler is required on
  // demand, out of esbuild's sight): it is small, and as one module instead of its own
  // twenty-two it loads in a third of the time. tsx is what plugins written in TypeScript load.
  const manifest = JSON.parse(readFileSync(join(root, PACKAGE_DIR, 'package.json'), 'utf8'));
  const external = [...Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }), 'tsx'].filter(
    (name) => name !== 'handlebars',
  );
  esbuild.buildSync({
    entryPoints: {
      [basename(CLI_BUNDLE, '.js')]: join(dist, 'generator', 'cli', 'main.js'),
      'validators-worker': join(dist, 'generator', 'cli', 'validators-worker.js'),
    },
    outdir: join(dist, dirname(CLI_BUNDLE)),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external,
    chunkNames: 'chunk-[hash]',
    legalComments: 'none',
    logLevel: 'warning',
  });
}

/**
 * Copies the `.js` modules of the runtime that have no `.ts` twin into the build (the `@Blocking`
 * worker is loaded by URL, so `tsc` never sees it).
 *
 * @param {string} root repository folder
 * @param {string} dist the build folder
 */
function copyScriptAssets(root, dist) {
  for (const dir of TOOLKIT_SOURCES.filter((d) => d.startsWith('runtime/'))) {
    for (const rel of listFiles(join(root, dir), dir, (name) => /\.(js|mjs|cjs)$/.test(name))) {
      if (existsSync(join(root, rel.replace(/\.[mc]?js$/, '.ts')))) continue;
      mkdirSync(dirname(join(dist, rel)), { recursive: true });
      cpSync(join(root, rel), join(dist, rel));
    }
  }
}

/**
 * Compiles the toolkit into `dist` (`<root>/packages/loom/dist` by default; tests build into
 * folders of their own) with the project's `tsc` and stamps it.
 * Writes into a temporary folder renamed into place, so a concurrent reader never sees half a
 * build. The digest is taken *before* compiling: a source edited during the build leaves a stamp
 * that no longer matches, so the next run falls back to the sources instead of running what was
 * compiled from the older text.
 *
 * @param {string} root repository folder
 * @param {string} [dist] the build folder
 */
export function build(root, dist = join(root, PACKAGE_DIR, 'dist')) {
  const digest = sourceDigest(root);
  const staging = `${dist}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  // Resolved from the repository like any dependency (node_modules may sit further up).
  const tsc = join(dirname(createRequire(join(root, 'package.json')).resolve('typescript/package.json')), 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.package.json'), '--outDir', staging], { cwd: root, stdio: 'inherit' });
  } catch (e) {
    // tsc exits 2 when it found type errors but emitted anyway. That JavaScript is what tsx
    // would run from the same sources, so the build stands (an `npm ci` must not fail on
    // it); `npm run typecheck` is where type errors fail.
    if (e?.status !== 2) throw e;
    process.stderr.write('loom build: the toolkit has type errors (above); JavaScript was emitted anyway. Run `npm run typecheck`.\n');
  }
  // Dereferenced: a linked templates folder (the build test links it) must be copied, not
  // linked, as the precompiled templates are written into the copy.
  cpSync(join(root, 'templates'), join(staging, 'templates'), { recursive: true, dereference: true });
  precompileTemplates(root, staging);
  copyScriptAssets(root, staging);
  bundleCli(root, staging);
  writeFileSync(join(staging, STAMP_FILE), `${JSON.stringify({ digest })}\n`);
  rmSync(dist, { recursive: true, force: true });
  renameSync(staging, dist);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  // A build of these very sources is what a new one would write: keep it (`--force` rebuilds).
  // Replacing it would also pull files from under a process that runs it right now (the
  // package's `prepack` runs while tests use the build).
  if (process.argv.includes('--force') || !isDistFresh(root)) build(root);
}
