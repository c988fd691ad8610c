/**
 * @module
 * Handlebars templates: built-ins from `templates/`, overlaid by user directories
 * (`--templates DIR`), so any template can be replaced without forking.
 * Each generator run gets its own `Handlebars.create()` environment with
 * `noEscape`: templates print code, not HTML.
 */
import Handlebars from 'handlebars';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built-in templates folder shipped with Loom. */
export const BUILTIN_TEMPLATES_DIR = fileURLToPath(new URL('../templates/', import.meta.url));

export interface Templates {
  /** Renders template `name` (path under a templates dir, without `.hbs`) with a precomputed view model. */
  render(name: string, view: object): string;
  /** Template names available (built-in and overrides), sorted. */
  names(): string[];
}

/** Loads built-in templates, then each override directory in order (later wins). */
export function loadTemplates(overrideDirs: readonly string[] = [], builtinDir = BUILTIN_TEMPLATES_DIR): Templates {
  const hbs = Handlebars.create();
  const sources = new Map<string, string>();
  const origins = new Map<string, string>();
  for (const dir of [builtinDir, ...overrideDirs]) {
    if (!existsSync(dir)) continue;
    for (const file of walk(dir)) {
      if (!file.endsWith('.hbs')) continue;
      const name = relative(dir, file).split(sep).join('/').replace(/\.hbs$/, '');
      sources.set(name, readFileSync(file, 'utf8'));
      origins.set(name, file);
    }
  }
  const compiled = new Map<string, Handlebars.TemplateDelegate>();
  return {
    render(name, view) {
      let template = compiled.get(name);
      if (!template) {
        const source = sources.get(name);
        if (source === undefined) throw new Error(`no template named '${name}' (looked in ${[builtinDir, ...overrideDirs].join(', ')})`);
        template = hbs.compile(source, { noEscape: true, strict: true });
        compiled.set(name, template);
      }
      try {
        return template(view);
      } catch (e) {
        // Handlebars compiles lazily, so syntax errors surface here too: name the file to fix.
        throw new Error(`template ${origins.get(name)}: ${(e as Error).message}`);
      }
    },
    names() {
      return [...sources.keys()].sort();
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
