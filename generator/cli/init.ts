/**
 * @module
 * `loom init`: starts a new project the way `npm create hono` does, from the starter project in
 * `templates/init/` (an OpenAPI description and a proto service, their handlers, a server entry,
 * a sample test, `package.json` with `generate`, `build`, `start` and `test` scripts, a tsconfig).
 *
 * It never overwrites: when any file it would write exists already, it names them all and writes
 * nothing. Files are written only after every one has been read, so a failure leaves no half
 * project behind.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { GENERATOR_VERSION } from '../emit.js';
import { BUILTIN_TEMPLATES_DIR } from '../templates-dir.js';
import { readOptions } from './options.js';
import { UsageError } from './usage-error.js';

/** The starter project shipped with Loom: `templates/init/` in the repository and in the package. */
export const STARTER_DIR = join(BUILTIN_TEMPLATES_DIR, 'init');

/** Options of `loom init`. */
export interface InitArgs {
  readonly command: 'init';
  /** Folder of the new project, as given; `.` by default. */
  readonly dir: string;
  /** The package name; the folder's name by default. */
  readonly name?: string;
  /** How the project depends on Loom (`^0.1.0` by default; `file:../loom-0.1.0.tgz` for a local build). */
  readonly loom?: string;
}

/** Starter files stored under another name, because `npm pack` would drop or rename them. */
const RENAMED: Readonly<Record<string, string>> = { gitignore: '.gitignore' };

/**
 * Parses the arguments after `init`.
 *
 * @example
 * parseInitArgs(['my-app', '--loom', 'file:../loom-0.1.0.tgz']); // { command: 'init', dir: 'my-app', loom: 'file:…' }
 */
export function parseInitArgs(argv: readonly string[]): InitArgs | { readonly command: 'help'; readonly topic: 'init' } {
  let dir: string | undefined;
  let name: string | undefined;
  let loom: string | undefined;
  for (const { arg, flag, value } of readOptions(argv, 'init')) {
    if (flag === '--help' || flag === '-h') return { command: 'help', topic: 'init' };
    else if (flag === '--name') name = value();
    else if (flag === '--loom') loom = value();
    else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`, 'init');
    else if (dir === undefined) dir = arg;
    else throw new UsageError(`one project folder at a time ('${dir}' and '${arg}' given)`, 'init');
  }
  return { command: 'init', dir: dir ?? '.', ...(name === undefined ? {} : { name }), ...(loom === undefined ? {} : { loom }) };
}

/** What `loom init` wrote, or the files that stopped it. */
export type InitOutcome =
  | { readonly kind: 'created'; readonly dir: string; readonly files: readonly string[] }
  | { readonly kind: 'exists'; readonly dir: string; readonly files: readonly string[] };

/**
 * Writes the starter project into `args.dir` (resolved against `cwd`), unless a file it would
 * write exists there.
 *
 * @example
 * initProject({ command: 'init', dir: 'my-app' }, process.cwd());
 * // { kind: 'created', dir: '/home/me/my-app', files: ['.gitignore', 'package.json', …] }
 */
export function initProject(args: InitArgs, cwd: string, starter = STARTER_DIR): InitOutcome {
  const dir = resolve(cwd, args.dir);
  const files = new Map<string, string | Buffer>();
  for (const rel of listFiles(starter)) {
    const target = RENAMED[rel] ?? rel;
    files.set(
      target,
      rel === 'package.json' ? projectManifest(readFileSync(join(starter, rel), 'utf8'), dir, args) : readFileSync(join(starter, rel)),
    );
  }
  const existing = [...files.keys()].filter((rel) => existsSync(join(dir, rel))).sort();
  if (existing.length > 0) return { kind: 'exists', dir, files: existing };
  for (const [rel, content] of files) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content, { flag: 'wx' });
  }
  return { kind: 'created', dir, files: [...files.keys()].sort() };
}

/** The starter's `package.json` with the project's name and its dependency on Loom. */
function projectManifest(text: string, dir: string, args: InitArgs): string {
  const manifest = JSON.parse(text) as { name: string; dependencies: Record<string, string> };
  manifest.name = args.name ?? packageName(basename(dir));
  manifest.dependencies['loom'] = args.loom ?? `^${GENERATOR_VERSION}`;
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** A folder name as an npm package name: lower case, URL-safe characters. */
function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name === '' ? 'loom-app' : name;
}

/** Every file under `dir`, as `/`-separated relative paths, sorted. */
function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

/** What `loom init` prints once the project is there: where it is and what to run next. */
export function initSummary(outcome: InitOutcome & { kind: 'created' }, cwd: string): string {
  const where = relative(cwd, outcome.dir);
  const cd = where === '' ? [] : [`  cd ${where.includes(' ') ? JSON.stringify(where) : where}`];
  return [
    `loom: created a project in ${where === '' ? 'this folder' : where} (${outcome.files.length} files)`,
    '',
    'Next:',
    ...cd,
    '  npm install',
    '  npm run generate   # schemas/ -> generated/',
    '  npm start          # compile, then serve: REST under /api, Connect and gRPC',
    '  npm test           # the sample test',
    '',
  ].join('\n');
}
