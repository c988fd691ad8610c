/**
 * @module
 * Handlebars templates: built-ins from `templates/`, overlaid by user directories
 * (`--templates DIR`), so any template can be replaced without forking.
 * Each generator run gets its own `Handlebars.create()` environment with
 * `noEscape`: templates print code, not HTML.
 *
 * The compiled generator (`dist/`) carries the built-in templates precompiled
 * (`generator/cli/build.js`); it then loads only Handlebars' runtime and compiles only
 * the templates a user overrides. The TypeScript sources compile everything at first use.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, sep } from 'node:path';
import type HandlebarsNamespace from 'handlebars';
// Imported, not required on demand: the bundled CLI (`generator/cli/build.js`) then carries the
// runtime inside itself, one module instead of Handlebars' twenty-two (~15 ms of a cold start).
import handlebarsRuntime from 'handlebars/runtime.js';
import { BUILTIN_TEMPLATES_DIR } from './templates-dir.js';

type HandlebarsModule = typeof HandlebarsNamespace;
type TemplateSpec = Parameters<HandlebarsModule['template']>[0];

export { BUILTIN_TEMPLATES_DIR };

/** The built-in templates precompiled by the build, in the built templates folder: `PRECOMPILED_TEMPLATES` of `generator/cli/build.js`. */
const PRECOMPILED_FILE = 'precompiled.cjs';

/**
 * Options every template is compiled with (copied per call: Handlebars adds to them);
 * `generator/cli/build.js` precompiles with the same.
 */
const TEMPLATE_OPTIONS = { noEscape: true, strict: true } as const;

const require = createRequire(import.meta.url);

/**
 * The built-in templates precompiled by the build, when this module runs from `dist/` (the file
 * sits in the built templates folder there); undefined under the TypeScript sources. `dist/` runs
 * only while its stamp matches the templates too, so these are never older than `templates/`.
 */
function precompiledBuiltins(): Readonly<Record<string, TemplateSpec>> | undefined {
  if (!import.meta.url.endsWith('.js')) return undefined;
  try {
    return require(join(BUILTIN_TEMPLATES_DIR, PRECOMPILED_FILE)) as Record<string, TemplateSpec>;
  } catch {
    return undefined;
  }
}

export interface Templates {
  /** Renders template `name` (path under a templates dir, without `.hbs`) with a precomputed view model. */
  render(name: string, view: object): string;
  /** Template names available (built-in and overrides), sorted. */
  names(): string[];
}

/** How template files are named in error messages. */
export interface TemplateDisplayOptions {
  /**
   * Paths of override templates are shown relative to this folder (the CLI's current folder),
   * as the user typed them: `my-templates/types/interface.hbs`.
   * @default process.cwd()
   */
  readonly cwd?: string;
}

/**
 * Loads built-in templates, then each override directory in order (later wins).
 *
 * @example
 * const templates = loadTemplates(['/work/app/my-templates'], BUILTIN_TEMPLATES_DIR, { cwd: '/work/app' });
 * templates.render('types/interface', view); // a broken override fails as `template my-templates/types/interface.hbs: …`
 */
export function loadTemplates(
  overrideDirs: readonly string[] = [],
  builtinDir = BUILTIN_TEMPLATES_DIR,
  display: TemplateDisplayOptions = {},
): Templates {
  const cwd = display.cwd ?? process.cwd();
  const shown = (file: string, builtin: boolean): string => {
    if (builtin) return `${relative(join(builtinDir, '..'), file).split(sep).join('/')} (built in)`;
    const rel = relative(cwd, file);
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel.split(sep).join('/');
  };
  const sources = new Map<string, string>();
  const origins = new Map<string, string>();
  const precompiled = builtinDir === BUILTIN_TEMPLATES_DIR ? precompiledBuiltins() : undefined;
  for (const dir of [builtinDir, ...overrideDirs]) {
    if (!existsSync(dir)) continue;
    for (const file of walk(dir)) {
      if (!file.endsWith('.hbs')) continue;
      const name = relative(dir, file)
        .split(sep)
        .join('/')
        .replace(/\.hbs$/, '');
      // A precompiled built-in needs no source; an override replaces it.
      if (dir === builtinDir && precompiled?.[name] !== undefined) sources.delete(name);
      else sources.set(name, readFileSync(file, 'utf8'));
      origins.set(name, shown(file, dir === builtinDir));
    }
  }
  // The compiler only when something is left to compile; the runtime runs precompiled specs.
  const hbs = (
    sources.size > 0 ? (require('handlebars') as HandlebarsModule) : (handlebarsRuntime as unknown as HandlebarsModule)
  ).create();
  const compiled = new Map<string, HandlebarsNamespace.TemplateDelegate>();
  return {
    render(name, view) {
      let template = compiled.get(name);
      if (!template) {
        const source = sources.get(name);
        const spec = source === undefined ? precompiled?.[name] : undefined;
        if (source === undefined && spec === undefined)
          throw templateError(`no template named '${name}' (looked in ${[builtinDir, ...overrideDirs].join(', ')})`);
        template = spec !== undefined ? hbs.template(spec) : hbs.compile(source!, { ...TEMPLATE_OPTIONS });
        compiled.set(name, template);
      }
      try {
        return template(view);
      } catch (e) {
        // Handlebars compiles lazily, so syntax errors surface here too: name the file to fix.
        throw templateError(`template ${origins.get(name)}: ${(e as Error).message}`);
      }
    },
    names() {
      return [...origins.keys()].sort();
    },
  };
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

/** An error in a template (the user's, through `--templates`): reported as it is, not as a failure of the emitter that rendered it. */
function templateError(message: string): Error {
  return Object.assign(new Error(message), { name: 'TemplateError' });
}
