/**
 * @module
 * Where the built-in templates are: the one place where a module finds the package's files by its
 * own location. The sources (`generator/`), the compiled modules (`dist/generator/`) and the
 * bundled CLI (`dist/cli/`) all sit one level below the folder that holds `templates/`. A module
 * of its own, so that `loom init` (which copies `templates/init/`) and `--help` need not load
 * Handlebars with `generator/templates.ts`.
 */
import { fileURLToPath } from 'node:url';

/** The built-in templates folder shipped with Loom (the starter project of `loom init` is its `init/`). */
export const BUILTIN_TEMPLATES_DIR = fileURLToPath(new URL('../templates/', import.meta.url));
