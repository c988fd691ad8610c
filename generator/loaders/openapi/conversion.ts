/**
 * @module
 * The state one schema conversion shares between the modules that do it: the loaded documents, the
 * problems found, the files and named types built so far, and what is being converted right now.
 * `schema-converter.ts` creates one per load; every other module of the converter takes it as its
 * first argument and keeps no state of its own, so two loads never see each other's types.
 */
import type { NamedType, TypeRef } from '../../model/model.js';
import type { At } from './document.js';
import type { FileEntry } from './file-entries.js';
import type { Problems } from './problems.js';
import type { DocumentStore } from './refs.js';

export interface Conversion {
  readonly store: DocumentStore;
  /** Warnings and refusals, each at its place. */
  readonly problems: Problems;
  /** The file of each document reached, by document key (file-entries.ts). */
  readonly entries: Map<string, FileEntry>;
  /** Every named type declared, by `documentKey#pointer` (file-entries.ts). */
  readonly named: Map<string, NamedType>;
  /** Named types whose contents are not converted yet, with their schema and its location (named-types.ts). */
  readonly pending: Map<NamedType, { readonly at: At; readonly raw: unknown }>;
  /** The type of each inline `$ref` target converted already, by `documentKey#pointer` (references.ts). */
  readonly inline: Map<string, TypeRef>;
  /** Inline `$ref` targets being converted right now: reaching one again is recursion (references.ts). */
  readonly inProgress: Set<string>;
  /** Schema objects being converted right now, to stop on YAML alias cycles and bound nesting (type-of.ts). */
  readonly active: Set<object>;
  /** Named schemas already reported as part of a `$ref` cycle (named-types.ts). */
  readonly cycleReported: Set<string>;
  /**
   * Converts a schema at a location into a type (type-of.ts). Reached through here rather than by
   * import: the parts of a schema are schemas again, so the modules that read objects, unions and
   * references call back into it, and importing it would make an import cycle.
   */
  readonly typeOf: (schema: unknown, at: At) => TypeRef;
}
