/**
 * @module
 * Where a new handler goes and what it is called: templates with `{Service}` (the contract's
 * name without `Api`/`Service`: `Comment`) and `{service}` (the same in kebab-case: `comment`),
 * given on the command line or read from a handler the project already has. `SystemHandler` in
 * `runtime/system/system-handler.ts` implementing `SystemService` gives `{Service}Handler` in
 * `runtime/system/{service}-handler.ts`; `IssueHandlers` in `handlers/index.ts` gives
 * `{Service}Handlers` in `handlers/{service}-handlers.ts`.
 */
import { basename, dirname, extname, join } from 'node:path';
import type { ImplementingClass } from './classes.js';
import type { Contract } from './contracts.js';
import { kebabCase } from './text.js';

/** Templates for new handlers; each one left out is read from an existing handler. */
export interface NamingOptions {
  /** Absolute path template of a new file: `/repo/runtime/{service}/{service}-handler.ts`. */
  readonly file?: string | undefined;
  /** Class name template: `{Service}Handler`. */
  readonly className?: string | undefined;
}

/** The file and class of a new handler, and the handler its naming was copied from. */
export interface NewHandlerName {
  readonly path: string;
  readonly className: string;
  /** `runtime/system/system-handler.ts` (where the pattern came from), or `undefined` for the defaults. */
  readonly example: ImplementingClass | undefined;
}

/**
 * Names a new handler for `contract`. The example is a class implementing a contract of the same
 * generated file when there is one (the services of one schema sit together), else the first class.
 *
 * @example
 * newHandlerName(commentApi, classes, {}, '/repo/runtime');
 * // { path: '/repo/runtime/issues/api/handlers/comment-handlers.ts', className: 'CommentHandlers', … }
 */
export function newHandlerName(
  contract: Contract,
  classes: readonly ImplementingClass[],
  options: NamingOptions,
  defaultFolder: string,
): NewHandlerName {
  const example = classes.find((c) => c.contracts.some((k) => k.file === contract.file)) ?? classes[0];
  let classTemplate = options.className;
  let fileTemplate = options.file;
  if (example) {
    const base = serviceBase(example.contracts[0]!.name);
    classTemplate ??= example.name.includes(base) ? example.name.replace(base, '{Service}') : '{Service}Handler';
    if (fileTemplate === undefined) {
      const ext = extname(example.file.path);
      const stem = basename(example.file.path, ext);
      const kebab = kebabCase(base);
      const fileStem = stem.includes(kebab) ? stem.replace(kebab, '{service}') : kebabTemplate(classTemplate);
      fileTemplate = join(dirname(example.file.path), fileStem + ext);
    }
  }
  classTemplate ??= '{Service}Handler';
  fileTemplate ??= join(defaultFolder, `${kebabTemplate(classTemplate)}.ts`);
  const base = serviceBase(contract.name);
  const fill = (t: string) => t.replaceAll('{Service}', base).replaceAll('{service}', kebabCase(base));
  return { path: fill(fileTemplate), className: fill(classTemplate), example };
}

/** `IssueApi` → `Issue`, `SystemService` → `System`. */
export function serviceBase(contractName: string): string {
  const base = contractName.replace(/(Api|Service)$/, '');
  return base === '' ? contractName : base;
}

/** `{Service}Handlers` → `{service}-handlers`. */
function kebabTemplate(template: string): string {
  return template
    .split('{Service}')
    .map((part) => kebabCase(part))
    .reduce((out, part, i) => (i === 0 ? part : [out, '{service}', part].filter((p) => p !== '').join('-')));
}
