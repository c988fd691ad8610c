/**
 * @module
 * The generator's build: compiles `generator/` to plain JavaScript in `dist/` (`npm run build`,
 * run by `npm ci` through `prepare`) and stamps it with a digest of the sources it was
 * compiled from, so that `bin/loom.js` runs `dist/` only while it matches the sources.
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
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
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
  const files = [...BUILD_INPUTS, ...listSources(join(root, 'generator'), 'generator'), ...listTemplates(join(root, 'templates'), 'templates')];
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

/** `.ts` sources under `dir`, as `/`-separated paths relative to the root, sorted. */
function listSources(dir, rel) {
  const out = [];
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listSources(join(dir, entry.name), path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** `.hbs` templates under `dir`, as `/`-separated paths relative to the root, sorted; none when absent. */
function listTemplates(dir, rel) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listTemplates(join(dir, entry.name), path));
    else if (entry.name.endsWith('.hbs')) out.push(path);
  }
  return out;
}

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
  const entries = listTemplates(join(root, 'templates'), 'templates').map((rel) => {
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
  writeFileSync(join(dist, STAMP_FILE), `${JSON.stringify({ digest })}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  build(fileURLToPath(new URL('../..', import.meta.url)));
}
