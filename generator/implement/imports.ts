/**
 * @module
 * The imports a file needs for the code added to it. A name is written the way the file already
 * reaches it when it can: a binding it has (`Context` from `hono` is the `Context` a contract
 * takes), a namespace import that exports it (`C.IssueGetIssueInput`), a name added to an import
 * declaration of a module that exports it; only then a new type-only (or, for the error class,
 * value) import from where the contract file gets it, with a path relative to this file.
 */
import { dirname, relative, sep } from 'node:path';
import type { ts as Ts } from 'ts-morph';
import type { Origin } from './contracts.js';
import type { ParsedFile, Resolved, Resolver, Space } from './modules.js';
import type { Layout, TextEdit } from './text.js';

type SymbolTarget = Extract<Resolved, { kind: 'symbol' }>;

interface NewDeclaration {
  readonly spec: string;
  readonly typeOnly: boolean;
  /** `Name` or `Name as Alias`. */
  readonly names: string[];
}

/**
 * Plans the imports of one file (an existing one, or a new one when `file` is `undefined`).
 *
 * @example
 * const imports = new ImportPlanner(resolver, path, parsed, layout);
 * const text = imports.ref(ref.target, ref.origin, 'type'); // 'C.IssueGetIssueInput'
 * edits.push(...imports.edits());
 */
export class ImportPlanner {
  readonly #resolver: Resolver;
  readonly #path: string;
  readonly #file: ParsedFile | undefined;
  readonly #layout: Layout;
  readonly #bound = new Set<string>();
  readonly #refs = new Map<string, string>();
  readonly #added = new Map<Ts.ImportDeclaration, { name: string; text: string }[]>();
  readonly #created = new Map<string, NewDeclaration>();

  constructor(resolver: Resolver, path: string, file: ParsedFile | undefined, layout: Layout) {
    this.#resolver = resolver;
    this.#path = path;
    this.#file = file;
    this.#layout = layout;
    if (file) for (const name of [...file.module.imports.keys(), ...file.module.locals.keys()]) this.#bound.add(name);
  }

  /** Reserves a name the caller declares (a new file's class), so no import takes it. */
  reserve(name: string): void {
    this.#bound.add(name);
  }

  /** The text that names `target` in this file, planning an import when it takes one. */
  ref(target: SymbolTarget, origin: Origin, space: Space): string {
    const cacheKey = `${space}|${target.key}`;
    let text = this.#refs.get(cacheKey);
    if (text === undefined) {
      text = this.#existing(target, origin, space) ?? this.#merged(target, origin, space) ?? this.#create(origin, space);
      this.#refs.set(cacheKey, text);
    }
    return text;
  }

  /** The import edits for an existing file. */
  edits(): TextEdit[] {
    const file = this.#file;
    if (!file) return [];
    const edits: TextEdit[] = [];
    const sf = file.source.compilerNode;
    const ts = this.#resolver.files.ts;
    for (const [declaration, names] of this.#added) {
      const bindings = declaration.importClause!.namedBindings as Ts.NamedImports;
      edits.push(...insertSpecifiers(ts, sf, file.text, bindings, names));
    }
    const { eol } = this.#layout;
    const existing = file.module.importDeclarations;
    const specOf = (d: Ts.ImportDeclaration) => (d.moduleSpecifier as Ts.StringLiteral).text;
    // Sorted imports stay sorted (packages, then paths from the farthest); others get new ones at their end.
    const sorted = existing.every((d, i) => i === 0 || rank(specOf(existing[i - 1]!), false) <= rank(specOf(d), false));
    const top: string[] = [];
    for (const d of this.#sorted()) {
      const line = this.#render(d);
      const sibling = existing.find((e) => specOf(e) === d.spec);
      const next = sorted ? existing.find((e) => rank(specOf(e), false) > rank(d.spec, d.typeOnly)) : undefined;
      // Beside an import of the same module when there is one (value imports before type-only ones).
      if (sibling && !d.typeOnly && sibling.importClause?.isTypeOnly) edits.push({ at: sibling.getStart(sf), length: 0, text: line + eol });
      else if (sibling) edits.push({ at: sibling.getEnd(), length: 0, text: eol + line });
      else if (next) edits.push({ at: next.getStart(sf), length: 0, text: line + eol });
      else if (existing.length > 0) edits.push({ at: existing.at(-1)!.getEnd(), length: 0, text: eol + line });
      else top.push(line);
    }
    if (top.length > 0) edits.push(topOfFile(ts, sf, file.text, top.join(eol), eol));
    return edits;
  }

  /**
   * The new import declarations: packages before relative paths (as Biome orders them), then
   * by module, a value import before a type-only one.
   */
  declarations(): string[] {
    return this.#sorted().map((d) => this.#render(d));
  }

  #sorted(): NewDeclaration[] {
    const key = (d: NewDeclaration) => rank(d.spec, d.typeOnly);
    return [...this.#created.values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }

  #render(d: NewDeclaration): string {
    const { quote, semi, eol, unit } = this.#layout;
    const names = [...d.names].sort(compareNames);
    const head = d.typeOnly ? 'import type' : 'import';
    const from = `from ${quote}${d.spec}${quote}${semi}`;
    const line = `${head} { ${names.join(', ')} } ${from}`;
    // As Biome and Prettier break it: one name a line when the line is too long.
    return line.length <= 140 ? line : `${head} {${eol}${names.map((n) => `${unit}${n},${eol}`).join('')}} ${from}`;
  }

  /** A binding the file has already: `Context`, or `C.IssueGetIssueInput`. */
  #existing(target: SymbolTarget, origin: Origin, space: Space): string | undefined {
    const file = this.#file;
    if (!file) return undefined;
    const wanted = new Set([origin.name, target.name]);
    for (const binding of file.module.imports.values()) {
      if (space === 'value' && binding.typeOnly) continue;
      if (binding.kind === 'named' && wanted.has(binding.imported)) {
        if (keyOf(this.#resolver.local(file.path, binding.local, space)) === target.key) return binding.local;
      }
      if (binding.kind === 'namespace') {
        const module = this.#resolver.resolveModule(file.path, binding.spec);
        for (const name of wanted) {
          const found = this.#resolver.exported(module, name, space);
          if (found?.kind === 'symbol' && found.key === target.key) return `${binding.local}.${name}`;
        }
      }
    }
    for (const name of wanted) {
      if (file.module.locals.has(name) && keyOf(this.#resolver.local(file.path, name, space)) === target.key) return name;
    }
    return undefined;
  }

  /** A name added to an import declaration of a module that exports the target. */
  #merged(target: SymbolTarget, origin: Origin, space: Space): string | undefined {
    const file = this.#file;
    if (!file) return undefined;
    const name = origin.name;
    if (this.#bound.has(name)) return undefined;
    const declarations = file.module.importDeclarations.filter((d) => {
      const bindings = d.importClause?.namedBindings;
      return bindings !== undefined && !this.#resolver.files.ts.isNamespaceImport(bindings) && !d.importClause!.name;
    });
    // Types go into `import type` declarations first; a value never goes into one.
    const ordered =
      space === 'type'
        ? [...declarations.filter((d) => d.importClause!.isTypeOnly), ...declarations.filter((d) => !d.importClause!.isTypeOnly)]
        : declarations.filter((d) => !d.importClause!.isTypeOnly);
    for (const declaration of ordered) {
      const spec = (declaration.moduleSpecifier as Ts.StringLiteral).text;
      const found = this.#resolver.exported(this.#resolver.resolveModule(file.path, spec), name, space);
      if (found?.kind !== 'symbol' || found.key !== target.key) continue;
      const inline = space === 'type' && !declaration.importClause!.isTypeOnly ? `type ${name}` : name;
      const list = this.#added.get(declaration) ?? [];
      list.push({ name, text: inline });
      this.#added.set(declaration, list);
      this.#bound.add(name);
      return name;
    }
    return undefined;
  }

  #create(origin: Origin, space: Space): string {
    const spec = this.#specifier(origin);
    let local = origin.name;
    // A name the file already uses for something else gets an alias, as the generator's printer does.
    for (let i = 2; this.#bound.has(local); i++) local = `${origin.name}$${i}`;
    this.#bound.add(local);
    const typeOnly = space === 'type';
    const key = `${spec}\0${typeOnly}`;
    const declaration = this.#created.get(key) ?? { spec, typeOnly, names: [] };
    declaration.names.push(local === origin.name ? local : `${origin.name} as ${local}`);
    this.#created.set(key, declaration);
    return local;
  }

  /** The module specifier for an origin, as this file writes it. */
  #specifier(origin: Origin): string {
    if (origin.kind === 'package') return origin.spec;
    let path = relative(dirname(this.#path), origin.path).split(sep).join('/');
    if (!path.startsWith('.')) path = `./${path}`;
    if (origin.kind === 'path') return path;
    // A TypeScript source: imported by the name it compiles to, in the file's own spelling.
    const ext = this.#layout.importExt;
    const m = /\.(m|c)?tsx?$/.exec(path);
    if (!m) return path;
    const stem = path.slice(0, -m[0].length);
    if (ext === '') return stem;
    if (ext === '.ts') return path;
    return `${stem}.${m[1] ?? ''}js`;
  }
}

/** Sort key of an import: packages before paths, then by module (`../..` before `..` before `.`), values before types. */
function rank(spec: string, typeOnly: boolean): string {
  return `${spec.startsWith('.') ? 1 : 0}${spec}\0${typeOnly ? 1 : 0}`;
}

function keyOf(resolved: Resolved | undefined): string | undefined {
  return resolved?.kind === 'symbol' ? resolved.key : undefined;
}

function compareNames(a: string, b: string): number {
  const x = a.replace(/^type /, '');
  const y = b.replace(/^type /, '');
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Edits that add names to `{ … }`: in sorted place when the list is sorted, else at its end. */
function insertSpecifiers(
  ts: typeof Ts,
  sf: Ts.SourceFile,
  text: string,
  bindings: Ts.NamedImports,
  names: readonly { name: string; text: string }[],
): TextEdit[] {
  const elements = bindings.elements;
  const open = bindings.getStart(sf) + 1;
  const close = bindings.getEnd() - 1;
  const multiline = elements.length > 0 && text.slice(open, elements[0]!.getStart(sf)).includes('\n');
  const nameOf = (e: Ts.ImportSpecifier) => (e.propertyName ?? e.name).text;
  const sorted = elements.every((e, i) => i === 0 || compareNames(nameOf(elements[i - 1]!), nameOf(e)) <= 0);
  const wrapped = multiline ? undefined : wrapWhenLong(sf, text, bindings, names, sorted ? compareNames : undefined);
  if (wrapped) return [wrapped];
  const edits: TextEdit[] = [];
  for (const added of [...names].sort((a, b) => compareNames(a.name, b.name))) {
    const before = sorted ? elements.find((e) => compareNames(added.name, nameOf(e)) < 0) : undefined;
    if (elements.length === 0) {
      edits.push({ at: open, length: close - open, text: ` ${added.text} ` });
    } else if (before && multiline) {
      const lineStart = text.lastIndexOf('\n', before.getStart(sf)) + 1;
      const indent = text.slice(lineStart, before.getStart(sf));
      const eol = text[lineStart - 2] === '\r' ? '\r\n' : '\n';
      edits.push({ at: lineStart, length: 0, text: `${indent}${added.text},${eol}` });
    } else if (before) {
      edits.push({ at: before.getStart(sf), length: 0, text: `${added.text}, ` });
    } else {
      const last = elements.at(-1)!;
      const comma = ts.getTrailingCommentRanges(text, last.getEnd()) === undefined && text[last.getEnd()] === ',';
      if (multiline) {
        const lineStart = text.lastIndexOf('\n', last.getStart(sf)) + 1;
        const indent = text.slice(lineStart, last.getStart(sf));
        const eol = text[lineStart - 2] === '\r' ? '\r\n' : '\n';
        edits.push(
          comma
            ? { at: last.getEnd() + 1, length: 0, text: `${eol}${indent}${added.text},` }
            : { at: last.getEnd(), length: 0, text: `,${eol}${indent}${added.text}` },
        );
      } else {
        edits.push({ at: last.getEnd(), length: 0, text: `, ${added.text}` });
      }
    }
  }
  return edits;
}

/**
 * A one-line `{ … }` that the added names would make longer than a line may be, as one name a
 * line (what Biome and Prettier make of it); `undefined` when it stays short, or holds comments.
 */
function wrapWhenLong(
  sf: Ts.SourceFile,
  text: string,
  bindings: Ts.NamedImports,
  names: readonly { name: string; text: string }[],
  order: ((a: string, b: string) => number) | undefined,
): TextEdit | undefined {
  const start = bindings.getStart(sf);
  const end = bindings.getEnd();
  const lineStart = text.lastIndexOf('\n', start) + 1;
  const lineEnd = text.indexOf('\n', end) === -1 ? text.length : text.indexOf('\n', end);
  const grown = lineEnd - lineStart + names.reduce((n, a) => n + a.text.length + 2, 0);
  const inner = text.slice(start + 1, end - 1);
  if (grown <= 140 || inner.includes('/*') || inner.includes('//')) return undefined;
  const entries = [...bindings.elements.map((e) => ({ name: (e.propertyName ?? e.name).text, text: e.getText(sf) })), ...names];
  if (order) entries.sort((a, b) => order(a.name, b.name));
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0] + (/^( +|\t)\S/m.exec(text)?.[1] ?? '  ');
  return { at: start, length: end - start, text: `{${eol}${entries.map((e) => `${indent}${e.text},${eol}`).join('')}}` };
}

/** Imports for a file that has none: after a leading file comment (`@module`), else at the top. */
function topOfFile(ts: typeof Ts, sf: Ts.SourceFile, text: string, imports: string, eol: string): TextEdit {
  const first = sf.statements[0];
  if (!first) return { at: text.length, length: 0, text: `${imports}${eol}` };
  const comments = ts.getLeadingCommentRanges(text, first.getFullStart()) ?? [];
  const head = comments[0];
  const fileComment = head && (text.slice(head.pos, head.end).includes('@module') || /^\r?\n\r?\n/.test(text.slice(head.end)));
  if (fileComment) return { at: head.end, length: 0, text: `${eol}${eol}${imports}` };
  return { at: first.getStart(sf, true), length: 0, text: `${imports}${eol}${eol}` };
}
