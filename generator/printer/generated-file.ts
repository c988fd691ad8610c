/**
 * @module
 * The printer: emitters build a {@link GeneratedFile} line by line and ask it for
 * imports; the file owns import deduplication and ordering, relative paths,
 * literals, JSDoc and the preamble, so every emitter's output looks the same.
 */
import { posix } from 'node:path';
import { RESERVED_WORDS } from '../model/names.js';

export { RESERVED_WORDS };

/**
 * Where an imported symbol lives.
 * - `runtime:<entry>`: one of Loom's runtime entries (`runtime:rest`, `runtime:connect/server`);
 *   resolved against the `runtime` generator option.
 * - `/<path>`: another generated file, by its path in the output tree (`/system/v1alpha1/system.types.ts`).
 * - anything else: a package specifier (`@grpc/grpc-js`), used as is.
 */
export type ImportFrom = `runtime:${string}` | `/${string}` | string;

export interface ImportSymbol {
  readonly kind: 'import';
  readonly name: string;
  readonly from: ImportFrom;
  readonly typeOnly: boolean;
}

/** A symbol an emitter wants to reference; printing it adds the import. */
export function importSymbol(name: string, from: ImportFrom, options: { typeOnly?: boolean } = {}): ImportSymbol {
  return { kind: 'import', name, from, typeOnly: options.typeOnly ?? false };
}

/** Anything `print()` accepts. Strings are inserted verbatim; arrays are flattened. */
export type Printable = string | number | boolean | ImportSymbol | readonly Printable[];

export interface PreambleOptions {
  /** Generator name and version, e.g. `loom 0.1.0`. */
  readonly generator: string;
  /** Schema file the output comes from, relative to the generation root. */
  readonly source: string;
  /** Options that influenced the output, printed in the header. */
  readonly parameters?: string;
}

export interface GeneratedFileOptions {
  /** Path of this file in the output tree, e.g. `system/v1alpha1/system.server.ts`. */
  readonly path: string;
  readonly preamble?: PreambleOptions;
  /**
   * How to import `runtime:<entry>`: either a package name (`loom`, giving `loom/rest`) or a
   * path relative to the output root starting with `.` (`../runtime/entries`), which is made
   * relative to each file (`../runtime/entries/rest.js`).
   */
  readonly runtimeImport: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A file being generated. Emitters call `print()`; the CLI calls `toString()`. */
export class GeneratedFile {
  readonly path: string;
  readonly #options: GeneratedFileOptions;
  /** Printed lines; a block from {@link GeneratedFile.printBlock} is one entry of several lines. */
  readonly #lines: string[] = [];
  /** Comment lines between the preamble and the imports (see {@link GeneratedFile.headerComment}). */
  readonly #header: string[] = [];
  /** from → name → typeOnly (a name used once as a value is imported as a value). */
  readonly #imports = new Map<string, Map<string, boolean>>();
  /** Local aliases for imported names that clash with each other: from → name → alias. */
  readonly #aliases = new Map<string, Map<string, string>>();
  /** Names declared in this file plus every alias handed out, so a new import never shadows one. */
  readonly #taken = new Set<string>();
  /** `ImportFrom` → specifier written in this file (null: this file), resolved once per source. */
  readonly #resolved = new Map<string, string | null>();

  constructor(options: GeneratedFileOptions) {
    this.path = options.path;
    this.#options = options;
  }

  /** Declares a name this file defines itself, so imports with the same name get aliased. */
  declare(name: string): string {
    this.#taken.add(name);
    return name;
  }

  /**
   * Adds a `//` comment line above the imports, after the preamble: the place for pragmas such as
   * `// @ts-nocheck`, which TypeScript reads only among a file's leading comments.
   */
  headerComment(text: string): void {
    for (const line of text.split('\n')) this.#header.push(`// ${line}`);
  }

  /** Prints one line made of the given parts. `print()` with no arguments prints an empty line. */
  print(...parts: Printable[]): void {
    this.#lines.push(this.#render(parts));
  }

  /**
   * Renders parts to a string without printing a line, registering any imports they use.
   * For text that goes into a template's view model or a larger expression.
   */
  text(...parts: Printable[]): string {
    return this.#render(parts);
  }

  /**
   * Prints several lines at once (each already rendered, e.g. from a template), keeping indentation.
   * Kept as one entry rather than split into lines (a large API's files are mostly such blocks);
   * only its leading empty lines are entries of their own, so that `toString` drops them at the
   * start of the file as it drops empty lines printed one by one.
   */
  printBlock(text: string): void {
    let start = 0;
    while (text.charCodeAt(start) === 10) start++;
    let end = text.length;
    while (end > start && text.charCodeAt(end - 1) === 10) end--;
    for (let i = 0; i < start; i++) this.#lines.push('');
    if (end > start || start === 0) this.#lines.push(text.slice(start, end));
  }

  /** A string literal, single-quoted, escaped. */
  string(value: string): string {
    return stringLiteral(value);
  }

  /** A property key: bare when it is an identifier, quoted otherwise. */
  propertyKey(name: string): string {
    return IDENTIFIER.test(name) ? name : stringLiteral(name);
  }

  /** Property access: `.name` or `['name']`. */
  propertyAccess(name: string): string {
    return IDENTIFIER.test(name) ? `.${name}` : `[${stringLiteral(name)}]`;
  }

  /**
   * A JSDoc block, indented. Returns nothing to print when `text` is empty and there are no tags.
   * `*\/` inside the text is escaped so schema descriptions cannot end the comment early.
   */
  jsDoc(text: string | undefined, options: { indent?: string; tags?: readonly string[] } = {}): void {
    const block = jsDocText(text, options.tags ?? [], options.indent ?? '');
    if (block !== '') this.printBlock(block);
  }

  /** The finished file: preamble, imports (sorted, type-only split), body. Ends with one newline. */
  toString(): string {
    const out: string[] = [];
    const preamble = this.#options.preamble;
    if (preamble) {
      out.push(`// @generated by ${preamble.generator}${preamble.parameters ? ` with ${preamble.parameters}` : ''}`);
      out.push(`// from ${preamble.source}`);
      out.push('// Do not edit: run `loom generate` to change this file.');
      out.push('/* eslint-disable */');
    }
    out.push(...this.#header);
    if (out.length > 0) out.push('');
    const importLines = this.#renderImports();
    if (importLines.length > 0) out.push(...importLines, '');
    // Not `push(...lines)`: a file of a large API has more lines than a call can take arguments.
    let first = 0;
    let end = this.#lines.length;
    while (end > first && this.#lines[end - 1] === '') end--;
    while (first < end && this.#lines[first] === '') first++;
    for (let i = first; i < end; i++) out.push(this.#lines[i]!);
    // Collapse runs of blank lines so emitters need not track spacing precisely.
    const text = out.join('\n').replace(/\n{3,}/g, '\n\n');
    return `${text}\n`;
  }

  #render(parts: readonly Printable[]): string {
    let line = '';
    for (const part of parts) {
      if (typeof part === 'string') line += part;
      else if (typeof part === 'number' || typeof part === 'boolean') line += String(part);
      else if (Array.isArray(part)) line += this.#render(part);
      else line += this.#useImport(part as ImportSymbol);
    }
    return line;
  }

  #useImport(symbol: ImportSymbol): string {
    let from = this.#resolved.get(symbol.from);
    if (from === undefined) this.#resolved.set(symbol.from, (from = this.#resolveFrom(symbol.from)));
    if (from === null) return symbol.name; // same file
    let names = this.#imports.get(from);
    if (!names) this.#imports.set(from, (names = new Map()));
    const wasTypeOnly = names.get(symbol.name);
    names.set(symbol.name, wasTypeOnly === undefined ? symbol.typeOnly : wasTypeOnly && symbol.typeOnly);
    return this.#aliasFor(from, symbol.name);
  }

  #aliasFor(from: string, name: string): string {
    let aliases = this.#aliases.get(from);
    if (!aliases) this.#aliases.set(from, (aliases = new Map()));
    const existing = aliases.get(name);
    if (existing) return existing;
    let alias = name;
    for (let i = 2; this.#taken.has(alias); i++) alias = `${name}$${i}`;
    aliases.set(name, alias);
    this.#taken.add(alias);
    return alias;
  }

  /** Turns an {@link ImportFrom} into the specifier written in this file, or null for this file itself. */
  #resolveFrom(from: ImportFrom): string | null {
    if (from.startsWith('runtime:')) {
      const entry = from.slice('runtime:'.length);
      const base = this.#options.runtimeImport;
      if (base.startsWith('.')) return this.#relative(posix.join(base, `${entry}.js`));
      return `${base}/${entry}`;
    }
    if (from.startsWith('/')) {
      const target = from.slice(1);
      if (target === this.path) return null;
      return this.#relative(target.replace(/\.ts$/, '.js'));
    }
    return from;
  }

  #relative(targetFromRoot: string): string {
    const target = posix.normalize(targetFromRoot);
    // Both paths are relative to the output root, and the target may climb above it
    // (`../runtime/entries`). Resolve both under a virtual root deep enough for those
    // climbs: `posix.relative` on relative paths would resolve them against the
    // process's working directory and come out a level short when run elsewhere.
    const climbs = target.split('/').filter((segment) => segment === '..').length;
    const root = `/${'_/'.repeat(climbs)}`;
    const rel = posix.relative(posix.join(root, posix.dirname(this.path)), posix.join(root, target));
    return rel.startsWith('.') ? rel : `./${rel}`;
  }

  #renderImports(): string[] {
    const lines: string[] = [];
    const specifiers = [...this.#imports.keys()].sort((a, b) => {
      // Packages first, then relative paths; each group sorted.
      const ra = a.startsWith('.') ? 1 : 0;
      const rb = b.startsWith('.') ? 1 : 0;
      return ra - rb || (a < b ? -1 : a > b ? 1 : 0);
    });
    for (const from of specifiers) {
      const names = this.#imports.get(from)!;
      const sorted = [...names.keys()].sort();
      const render = (n: string) => {
        const alias = this.#aliases.get(from)!.get(n)!;
        return alias === n ? n : `${n} as ${alias}`;
      };
      const types = sorted.filter((n) => names.get(n));
      const values = sorted.filter((n) => !names.get(n));
      if (values.length > 0) lines.push(importStatement('import', values.map(render), from));
      if (types.length > 0) lines.push(importStatement('import type', types.map(render), from));
    }
    return lines;
  }
}

/** Longest import statement kept on one line; longer ones get one name per line, as Prettier prints them. */
const MAX_IMPORT_LINE = 100;

function importStatement(keyword: 'import' | 'import type', names: readonly string[], from: string): string {
  const oneLine = `${keyword} { ${names.join(', ')} } from ${stringLiteral(from)};`;
  if (oneLine.length <= MAX_IMPORT_LINE) return oneLine;
  return `${keyword} {\n${names.map((n) => `  ${n},`).join('\n')}\n} from ${stringLiteral(from)};`;
}

/**
 * A JSDoc block as text, for printing or for template view models: one line for a
 * one-line text without tags, otherwise a block. Empty when there is nothing to say.
 * `*\/` inside the text is escaped so schema descriptions cannot end the comment early.
 *
 * @example
 * jsDocText('Serial number', ['@generated from field: string serial_number = 1;'], '  ');
 */
export function jsDocText(text: string | undefined, tags: readonly string[], indent = ''): string {
  const body = (text ?? '').trim().replace(/\*\//g, '*\\/');
  const lines = body === '' ? [] : body.split(/\r?\n/).map((l) => l.trimEnd());
  const safeTags = tags.map((t) => t.replace(/\*\//g, '*\\/'));
  if (lines.length === 0 && safeTags.length === 0) return '';
  if (lines.length === 1 && safeTags.length === 0) return `${indent}/** ${lines[0]} */`;
  const out = [`${indent}/**`];
  for (const line of lines) out.push(line === '' ? `${indent} *` : `${indent} * ${line}`);
  if (lines.length > 0 && safeTags.length > 0) out.push(`${indent} *`);
  for (const tag of safeTags) out.push(`${indent} * ${tag}`);
  out.push(`${indent} */`);
  return out.join('\n');
}

/** Characters {@link stringLiteral} escapes; most strings have none, and skip the replacements. */
const NEEDS_ESCAPE = /[\\'\x00-\x1f\u2028\u2029]/;

/** A single-quoted TypeScript string literal. */
export function stringLiteral(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return `'${value}'`;
  return `'${value
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
    .replace(/[\x00-\x1f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}'`;
}

/** True when `name` can be used bare as a TypeScript identifier. */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED_WORDS.has(name);
}
