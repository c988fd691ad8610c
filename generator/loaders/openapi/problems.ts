/**
 * @module
 * Where the OpenAPI loader's findings go: a warning onto the file whose node it is about (said
 * once, though a schema reached both directly and through a `$ref` is read twice), an error into
 * the errors of the load, which stop it.
 *
 * Most errors are refusals the loader could step past: a schema it cannot read, a `$ref` that
 * leads nowhere, a parameter or response it cannot make sense of. Each says how to override it,
 * since a description is often not the user's to fix: `--lenient`, which turns the refusal into a
 * warning and does what the refusal names (the schema becomes unknown, the parameter is left out,
 * …), or `x-loom-skip: true` on the operation or path item being read, which leaves it out. The
 * few that nothing overrides (a version Loom does not read, a file that does not parse) say what
 * to fix instead.
 */
import type { Diagnostic, SourceLocation } from '../../model/model.js';
import { error, warning } from '../diagnostics.js';
import type { At } from './document.js';
import type { DocumentStore } from './refs.js';

/** What `--lenient` makes of a schema it cannot read: any value. */
export const BECOMES_UNKNOWN = 'this schema becomes unknown';

/**
 * What `--lenient` makes of a part of an operation it cannot read.
 * @example leftOut('parameter') // 'the parameter is left out'
 */
export const leftOut = (what: string): string => `the ${what} is left out`;

/** The operation or path item being read, which `x-loom-skip: true` would leave out instead of a refusal. */
export interface SkipScope {
  readonly what: 'operation' | 'path item';
  /** As people name it: `GET /pets`, `'/pets'`. */
  readonly name: string;
}

/**
 * How to override a refusal, for the end of its message: what `--lenient` does instead, and the
 * `x-loom-skip: true` that would leave out the operation or path item where it stands.
 *
 * @example
 * overrideHint(BECOMES_UNKNOWN, { what: 'operation', name: 'GET /pets' });
 * // 'to generate anyway, pass --lenient (this schema becomes unknown) or mark the operation x-loom-skip: true to leave GET /pets out'
 */
export function overrideHint(consequence: string, scope?: SkipScope): string {
  const skip = scope ? ` or mark the ${scope.what} x-loom-skip: true to leave ${scope.name} out` : '';
  return `to generate anyway, pass --lenient (${consequence})${skip}`;
}

/**
 * The warning `--lenient` gives in place of a refusal.
 * @example lenientWarning("'parameters' must be an array", 'these parameters are left out')
 * // "'parameters' must be an array; generated anyway (--lenient): these parameters are left out"
 */
export function lenientWarning(message: string, consequence: string): string {
  return `${message}; generated anyway (--lenient): ${consequence}`;
}

/** The warnings of one file under construction. */
interface WarningsOwner {
  readonly warnings: Diagnostic[];
}

/**
 * The problems of one load.
 * @example
 * const problems = new Problems(store, entries, false);
 * problems.warn(at, "keyword 'not' is ignored: …");
 * problems.refuse(at, "unsupported type 'decimal': use one of …", BECOMES_UNKNOWN);
 * if (problems.errors.length > 0) throw new SchemaError(problems.errors);
 */
export class Problems {
  readonly errors: Diagnostic[] = [];
  /** `--lenient`: refusals become warnings. */
  readonly lenient: boolean;
  readonly #store: DocumentStore;
  readonly #files: ReadonlyMap<string, WarningsOwner>;
  readonly #warned = new Set<string>();
  #scope: SkipScope | undefined;

  /** `files` maps a document's key to the file its warnings go to; a document without one has none kept. */
  constructor(store: DocumentStore, files: ReadonlyMap<string, WarningsOwner>, lenient: boolean) {
    this.#store = store;
    this.#files = files;
    this.lenient = lenient;
  }

  /** A model source location (with line when known) for a node. */
  location(at: At): SourceLocation {
    return this.#store.location(at.doc, at.pointer);
  }

  warn(at: At, message: string): void {
    // A schema reached both directly and through a `$ref` is read twice; say things once.
    const key = `${at.doc.key}#${at.pointer}\0${message}`;
    if (this.#warned.has(key)) return;
    this.#warned.add(key);
    const file = this.#files.get(at.doc.key);
    if (file) file.warnings.push(warning(message, this.location(at)));
  }

  /** An error nothing overrides: `message` says what to fix. */
  fail(at: At, message: string): void {
    this.errors.push(error(message, this.location(at)));
  }

  /**
   * A refusal the loader can step past, which the caller then does: what it does is `consequence`
   * (`BECOMES_UNKNOWN`, `leftOut('parameter')`, …). An error that ends with how to override it, or
   * with `--lenient` a warning that says what became of the place.
   */
  refuse(at: At, message: string, consequence: string): void {
    if (this.lenient) this.warn(at, lenientWarning(message, consequence));
    else this.fail(at, `${message}; ${overrideHint(consequence, this.#scope)}`);
  }

  /**
   * Runs `read` with `scope` as what `x-loom-skip: true` would leave out for the refusals it
   * makes; undefined while reading what no mark leaves out (a named schema is generated whatever
   * operation reaches it first).
   */
  within<T>(scope: SkipScope | undefined, read: () => T): T {
    const outer = this.#scope;
    this.#scope = scope;
    try {
      return read();
    } finally {
      this.#scope = outer;
    }
  }
}
