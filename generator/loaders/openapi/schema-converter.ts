/**
 * @module
 * JSON Schema (as used by OpenAPI 3.0, 3.1 and Swagger 2.0) → model types: the converter the
 * operations reader (operations.ts) holds, over the modules that do the work.
 *
 * Named schemas (`components/schemas`, `definitions`, `$defs`) become {@link NamedType}s
 * of the file that declares them; everything else becomes an inline {@link TypeRef}.
 * Each `$ref` is resolved once: named targets are registered as shells before their
 * contents are converted, so recursive schemas turn into a reference to themselves
 * instead of expanding forever.
 *
 * By what each part is about:
 * - conversion.ts: the state one conversion shares (documents, problems, files, named types);
 * - problems.ts: warnings and errors, each at its place, and how to override a refusal;
 * - file-entries.ts: the schema file of each document, and the shells of its named types;
 * - type-of.ts: one schema → one type (scalars, arrays, enums, consts);
 * - objects.ts, composition.ts: objects and `additionalProperties`; `oneOf`/`anyOf`/`allOf`;
 * - references.ts: `$ref`s to schemas and to parameters, responses and the like;
 * - named-types.ts: the contents of named types (enums, messages, aliases), filled last.
 */
import type { Diagnostic, JsonValue, NamedType, SchemaFormat, SourceLocation, TypeRef } from '../../model/model.js';
import type { Conversion } from './conversion.js';
import type { At, Json } from './document.js';
import { type FileEntry, fileEntry } from './file-entries.js';
import { finish } from './named-types.js';
import { Problems, type SkipScope } from './problems.js';
import { defaultOf, deref } from './references.js';
import type { DocumentStore, SourceDocument } from './refs.js';
import type { Reporter } from './schema-keywords.js';
import { typeOf } from './type-of.js';

export type { At } from './document.js';
export { detectFormat, docOf, isApiDocument, isObject } from './document.js';
export type { FileEntry } from './file-entries.js';
export { MAX_NESTING } from './type-of.js';

/**
 * Converts schemas of the loaded documents into model types, and owns the per-file results.
 * @example
 * const c = new SchemaConverter(store);
 * c.entry(doc, 'openapi-3.1');
 * const type = c.typeOf({ type: 'array', items: { $ref: '#/components/schemas/Issue' } }, { doc, pointer: '/x' });
 * c.finish(); // fills every named type reached
 */
export class SchemaConverter implements Reporter {
  readonly #c: Conversion;

  /** With `lenient`, refusals the loader can step past are warnings, and it steps past them (problems.ts). */
  constructor(store: DocumentStore, options: { readonly lenient?: boolean } = {}) {
    const entries = new Map<string, FileEntry>();
    const c: Conversion = {
      store,
      problems: new Problems(store, entries, options.lenient ?? false),
      entries,
      named: new Map<string, NamedType>(),
      pending: new Map(),
      inline: new Map(),
      inProgress: new Set(),
      active: new Set(),
      cycleReported: new Set(),
      typeOf: (schema, at) => typeOf(c, schema, at),
    };
    this.#c = c;
  }

  /** Every error recorded so far; a load that ends with any throws them. */
  get errors(): Diagnostic[] {
    return this.#c.problems.errors;
  }

  /** The file entry for a document, created (with its named schemas declared in order) on first use. */
  entry(doc: SourceDocument, fallback: SchemaFormat): FileEntry {
    return fileEntry(this.#c, doc, fallback);
  }

  /** A model source location (with line when known) for a node. */
  location(at: At): SourceLocation {
    return this.#c.problems.location(at);
  }

  warn(at: At, message: string): void {
    this.#c.problems.warn(at, message);
  }

  /** An error nothing overrides: `message` says what to fix. */
  fail(at: At, message: string): void {
    this.#c.problems.fail(at, message);
  }

  /** A refusal the caller steps past by doing `consequence`; see {@link Problems.refuse}. */
  refuse(at: At, message: string, consequence: string): void {
    this.#c.problems.refuse(at, message, consequence);
  }

  /** Runs `read` with `scope` as what `x-loom-skip: true` would leave out; see {@link Problems.within}. */
  within<T>(scope: SkipScope | undefined, read: () => T): T {
    return this.#c.problems.within(scope, read);
  }

  /** Converts every named schema not converted yet (references may add more while this runs). */
  finish(): void {
    finish(this.#c);
  }

  /**
   * Follows `$ref` chains of non-schema objects (parameters, responses, request bodies, headers).
   * Returns undefined when one cannot be resolved, after a refusal whose override leaves out `what`.
   */
  deref(value: unknown, at: At, what: string): { value: Json; at: At } | undefined {
    return deref(this.#c, value, at, what);
  }

  /** The `default` a schema declares, following `$ref`s (silent: the schema's own conversion reports). */
  defaultOf(schema: unknown, at: At): JsonValue | undefined {
    return defaultOf(this.#c, schema, at);
  }

  /** Converts a schema object at a location into a type. */
  typeOf(schema: unknown, at: At): TypeRef {
    return this.#c.typeOf(schema, at);
  }
}
