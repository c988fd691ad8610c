/**
 * @module
 * Where the OpenAPI loader's findings go: a warning onto the file whose node it is about (said
 * once, though a schema reached both directly and through a `$ref` is read twice), an error into
 * the errors of the load, which stop it.
 */
import type { Diagnostic, SourceLocation } from '../../model/model.js';
import { error, warning } from '../diagnostics.js';
import type { At } from './document.js';
import type { DocumentStore } from './refs.js';

/** The warnings of one file under construction. */
interface WarningsOwner {
  readonly warnings: Diagnostic[];
}

/**
 * The problems of one load.
 * @example
 * const problems = new Problems(store, entries);
 * problems.warn(at, "keyword 'not' is ignored: …");
 * if (problems.errors.length > 0) throw new SchemaError(problems.errors);
 */
export class Problems {
  readonly errors: Diagnostic[] = [];
  readonly #store: DocumentStore;
  readonly #files: ReadonlyMap<string, WarningsOwner>;
  readonly #warned = new Set<string>();

  /** `files` maps a document's key to the file its warnings go to; a document without one has none kept. */
  constructor(store: DocumentStore, files: ReadonlyMap<string, WarningsOwner>) {
    this.#store = store;
    this.#files = files;
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

  fail(at: At, message: string): void {
    this.errors.push(error(message, this.location(at)));
  }
}
