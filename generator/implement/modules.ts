/**
 * @module
 * Which declaration a name stands for, across files, without a type-check: the imports and
 * exports of each file read from its syntax (re-exports, `export *`, `export type *`, namespace
 * imports, renames), relative module specifiers resolved the way NodeNext resolves TypeScript
 * sources (`./x.js` → `./x.ts`). A class may implement `C.IssueApi` through a file of
 * re-exports; this is how it is recognised as the generated `IssueApi`.
 *
 * Files are parsed only when a resolution reaches them. A package specifier (`hono`,
 * `loom/rest`) is not followed: its names are identified by the specifier and the name.
 */
import { dirname, join } from 'node:path';
import type { Node, SourceFile, ts as Ts } from 'ts-morph';
import { isLoomFile, withoutClassBodies } from './generated-files.js';
import type { TsMorph } from './load-ts-morph.js';

/** Reads a file's text; `undefined` when there is none. Injected, so planning runs in memory. */
export type ReadFile = (path: string) => string | undefined;

/** A named import of a file, or a namespace or default one. */
export interface ImportBinding {
  readonly kind: 'named' | 'namespace' | 'default';
  /** The name it has in the file. */
  readonly local: string;
  /** The name the module exports it as (`default` for a default import, `*` for a namespace). */
  readonly imported: string;
  readonly spec: string;
  /** `import type { … }` or `import { type … }`: usable in types only. */
  readonly typeOnly: boolean;
  readonly declaration: Ts.ImportDeclaration;
}

type ExportEntry =
  | { readonly kind: 'local'; readonly local: string }
  | { readonly kind: 'from'; readonly spec: string; readonly name: string }
  | { readonly kind: 'namespace'; readonly spec: string };

/** What a file declares at the top level, imports and exports. */
export interface ModuleInfo {
  readonly imports: ReadonlyMap<string, ImportBinding>;
  readonly importDeclarations: readonly Ts.ImportDeclaration[];
  /** Top-level declarations: per name, the one that is a type and the one that is a value. */
  readonly locals: ReadonlyMap<string, { type?: Ts.Node; value?: Ts.Node }>;
  readonly exports: ReadonlyMap<string, ExportEntry>;
  /** `export * from` and `export type * from` specifiers, in order. */
  readonly stars: readonly string[];
}

/** A parsed file. */
export interface ParsedFile {
  readonly path: string;
  readonly text: string;
  readonly source: SourceFile;
  readonly module: ModuleInfo;
  /** Syntax errors: the file is never edited when it has any. */
  readonly syntaxErrors: readonly { readonly line: number; readonly message: string }[];
}

/**
 * The files of one run, each parsed at most once, in one in-memory ts-morph project.
 *
 * @example
 * const files = new SourceFiles(tsMorph, (p) => readFileSync(p, 'utf8'));
 * files.get('/repo/runtime/system/system-handler.ts')?.module.imports;
 */
export class SourceFiles {
  readonly #tsMorph: TsMorph;
  readonly #read: ReadFile;
  readonly #project: InstanceType<TsMorph['Project']>;
  readonly #parsed = new Map<string, ParsedFile | null>();
  readonly #texts = new Map<string, string | null>();

  constructor(tsMorph: TsMorph, read: ReadFile) {
    this.#tsMorph = tsMorph;
    this.#read = read;
    // In memory: the scaffolder reads through `read` and writes through its own I/O, never ts-morph's.
    this.#project = new tsMorph.Project({ useInMemoryFileSystem: true, skipLoadingLibFiles: true });
  }

  get ts(): typeof Ts {
    return this.#tsMorph.ts;
  }

  /** The file's text, without parsing it. */
  text(path: string): string | undefined {
    let text = this.#texts.get(path);
    if (text === undefined) {
      text = this.#read(path) ?? null;
      this.#texts.set(path, text);
    }
    return text ?? undefined;
  }

  /** The parsed file, or `undefined` when it does not exist. */
  get(path: string): ParsedFile | undefined {
    let parsed = this.#parsed.get(path);
    if (parsed === undefined) {
      const text = this.text(path);
      parsed = text === undefined ? null : this.#parse(path, text);
      this.#parsed.set(path, parsed);
    }
    return parsed ?? undefined;
  }

  #parse(path: string, text: string): ParsedFile {
    // A generated file is read, never edited: its classes' bodies are left unparsed (see
    // generated-files.ts), unless that leaves something that does not parse, when it is read whole.
    const generated = isLoomFile(text);
    let source = this.#project.createSourceFile(path, generated ? withoutClassBodies(text) : text, { overwrite: true });
    if (generated && parseDiagnostics(source.compilerNode).length > 0) {
      source = this.#project.createSourceFile(path, text, { overwrite: true });
    }
    const ts = this.#tsMorph.ts;
    const node = source.compilerNode;
    const diagnostics = parseDiagnostics(node);
    const syntaxErrors = diagnostics.map((d) => ({
      line: node.getLineAndCharacterOfPosition(d.start).line + 1,
      message: ts.flattenDiagnosticMessageText(d.messageText, ' '),
    }));
    return { path, text, source, module: readModule(ts, node), syntaxErrors };
  }
}

/**
 * A source file's syntax errors. They are an internal property of a TypeScript source file; the
 * public way to them is a Program, which would load and bind every file the handlers import.
 */
function parseDiagnostics(node: Ts.SourceFile): readonly Ts.DiagnosticWithLocation[] {
  return (node as unknown as { parseDiagnostics?: readonly Ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
}

function readModule(ts: typeof Ts, file: Ts.SourceFile): ModuleInfo {
  const imports = new Map<string, ImportBinding>();
  const importDeclarations: Ts.ImportDeclaration[] = [];
  const locals = new Map<string, { type?: Ts.Node; value?: Ts.Node }>();
  const exports = new Map<string, ExportEntry>();
  const stars: string[] = [];
  const local = (name: string, node: Ts.Node, type: boolean, value: boolean) => {
    const entry = locals.get(name) ?? {};
    if (type) entry.type ??= node;
    if (value) entry.value ??= node;
    locals.set(name, entry);
  };
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (!ts.isStringLiteral(statement.moduleSpecifier)) continue;
      importDeclarations.push(statement);
      const spec = statement.moduleSpecifier.text;
      const clause = statement.importClause;
      if (!clause) continue;
      const typeOnly = clause.isTypeOnly;
      if (clause.name) {
        const name = clause.name.text;
        imports.set(name, { kind: 'default', local: name, imported: 'default', spec, typeOnly, declaration: statement });
      }
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) {
        const name = bindings.name.text;
        imports.set(name, { kind: 'namespace', local: name, imported: '*', spec, typeOnly, declaration: statement });
      } else if (bindings) {
        for (const e of bindings.elements) {
          imports.set(e.name.text, {
            kind: 'named',
            local: e.name.text,
            imported: (e.propertyName ?? e.name).text,
            spec,
            typeOnly: typeOnly || e.isTypeOnly,
            declaration: statement,
          });
        }
      }
      continue;
    }
    if (ts.isExportDeclaration(statement)) {
      const spec = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
      const clause = statement.exportClause;
      if (!clause) {
        if (spec !== undefined) stars.push(spec);
      } else if (ts.isNamespaceExport(clause)) {
        if (spec !== undefined) exports.set(clause.name.text, { kind: 'namespace', spec });
      } else {
        for (const e of clause.elements) {
          const inner = (e.propertyName ?? e.name).text;
          exports.set(e.name.text, spec === undefined ? { kind: 'local', local: inner } : { kind: 'from', spec, name: inner });
        }
      }
      continue;
    }
    const exported =
      ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const names: string[] = [];
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      local(statement.name.text, statement, true, false);
      names.push(statement.name.text);
    } else if (ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) {
      if (statement.name) {
        local(statement.name.text, statement, true, true);
        names.push(statement.name.text);
      }
    } else if (ts.isFunctionDeclaration(statement)) {
      if (statement.name) {
        local(statement.name.text, statement, false, true);
        names.push(statement.name.text);
      }
    } else if (ts.isModuleDeclaration(statement) && ts.isIdentifier(statement.name)) {
      local(statement.name.text, statement, true, true);
      names.push(statement.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) {
          local(d.name.text, d, false, true);
          names.push(d.name.text);
        }
      }
    }
    if (exported) for (const name of names) exports.set(name, { kind: 'local', local: name });
  }
  return { imports, importDeclarations, locals, exports, stars };
}

/**
 * The 1-based line a node starts on (after its JSDoc), from the file's line map. ts-morph's
 * `getStartLineNumber()` counts the lines from the top on every call: on Gitea's contracts, a
 * quarter of the whole run.
 */
export function lineOfNode(node: Node): number {
  const sf = node.getSourceFile().compilerNode;
  return sf.getLineAndCharacterOfPosition(node.getStart()).line + 1;
}

/** Types and values live in separate spaces: `Context` may be a type alias and a const at once. */
export type Space = 'type' | 'value';

/**
 * What a name resolves to: a declaration (`module` is a file path, or `pkg:<specifier>` for a
 * package; `key` identifies it) or a module namespace.
 */
export type Resolved =
  | { readonly kind: 'symbol'; readonly key: string; readonly module: string; readonly name: string }
  | { readonly kind: 'namespace'; readonly module: string };

/**
 * Resolves names to declarations through imports and re-exports.
 *
 * A type alias that only renames another type (`export type Context = HonoContext`) resolves
 * to that type: a handler that says `Context` from `hono` then matches a contract that says
 * `Context` from Loom's runtime entry, and no second import is added.
 *
 * @example
 * const r = new Resolver(files);
 * r.entity('/repo/runtime/issues/api/handlers/index.ts', 'C.IssueApi', 'type');
 * // { kind: 'symbol', key: '/repo/generated/issues/openapi.server.ts#IssueApi', … }
 */
export class Resolver {
  readonly files: SourceFiles;
  readonly #cache = new Map<string, Resolved | null>();
  readonly #active = new Set<string>();

  constructor(files: SourceFiles) {
    this.files = files;
  }

  /**
   * The file a specifier names, from a file: an absolute path, `pkg:<spec>` for a package, or
   * `missing:<path>` for a relative specifier that names no file.
   */
  resolveModule(from: string, spec: string): string {
    if (!spec.startsWith('.') && !spec.startsWith('/')) return `pkg:${spec}`;
    const base = join(dirname(from), spec);
    for (const candidate of candidates(base)) if (this.files.text(candidate) !== undefined) return candidate;
    return `missing:${base}`;
  }

  /** A name as used in a file (`Context`, or `C.IssueApi`). `undefined` for globals. */
  entity(file: string, text: string, space: Space): Resolved | undefined {
    const [first, ...rest] = text.split('.').map((p) => p.trim());
    let current = this.local(file, first!, rest.length > 0 ? 'value' : space);
    for (const [i, part] of rest.entries()) {
      if (current?.kind !== 'namespace') return undefined;
      current = this.exported(current.module, part, i === rest.length - 1 ? space : 'value');
    }
    return current;
  }

  /** A name bound at the top level of a file. */
  local(file: string, name: string, space: Space): Resolved | undefined {
    return this.#memo(`L|${space}|${file}|${name}`, () => {
      const parsed = this.files.get(file);
      if (!parsed) return undefined;
      const binding = parsed.module.imports.get(name);
      if (binding) {
        const module = this.resolveModule(file, binding.spec);
        if (binding.kind === 'namespace') return { kind: 'namespace', module };
        return this.exported(module, binding.imported, space);
      }
      const declared = parsed.module.locals.get(name);
      const node = space === 'type' ? declared?.type : declared?.value;
      if (!node) return undefined;
      const ts = this.files.ts;
      // `type A = B`, or `type A<X = …, Y = …> = B<X, Y>`: A is B under another name.
      if (ts.isTypeAliasDeclaration(node) && ts.isTypeReferenceNode(node.type) && passesThrough(ts, node)) {
        const target = this.entity(file, node.type.typeName.getText(parsed.source.compilerNode), 'type');
        if (target) return target;
      }
      return symbol(file, name);
    });
  }

  /** A name a module exports (through `export { … } from`, `export *` and local exports). */
  exported(module: string, name: string, space: Space): Resolved | undefined {
    if (module.startsWith('pkg:') || module.startsWith('missing:')) return symbol(module, name);
    return this.#memo(`E|${space}|${module}|${name}`, () => {
      const parsed = this.files.get(module);
      if (!parsed) return undefined;
      const entry = parsed.module.exports.get(name);
      if (entry?.kind === 'local') return this.local(module, entry.local, space);
      if (entry?.kind === 'from') return this.exported(this.resolveModule(module, entry.spec), entry.name, space);
      if (entry?.kind === 'namespace') return { kind: 'namespace', module: this.resolveModule(module, entry.spec) };
      for (const spec of parsed.module.stars) {
        const target = this.resolveModule(module, spec);
        // `export *` never re-exports a default, and says nothing about a package's names.
        if (name === 'default' || target.startsWith('pkg:') || target.startsWith('missing:')) continue;
        const found = this.exported(target, name, space);
        if (found) return found;
      }
      return undefined;
    });
  }

  #memo(key: string, compute: () => Resolved | undefined): Resolved | undefined {
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached ?? undefined;
    // A cycle of re-exports (`a` exports * from `b`, `b` from `a`) names nothing new.
    if (this.#active.has(key)) return undefined;
    this.#active.add(key);
    try {
      const result = compute();
      this.#cache.set(key, result ?? null);
      return result;
    } finally {
      this.#active.delete(key);
    }
  }
}

function symbol(module: string, name: string): Resolved {
  return { kind: 'symbol', key: `${module}#${name}`, module, name };
}

/** The files a relative specifier may name, in NodeNext's order for TypeScript sources. */
function candidates(base: string): string[] {
  const ext = /\.(m|c)?(j|t)sx?$/.exec(base)?.[0];
  if (ext === '.js') return [`${base.slice(0, -3)}.ts`, `${base.slice(0, -3)}.tsx`, `${base.slice(0, -3)}.d.ts`, base];
  if (ext === '.mjs') return [`${base.slice(0, -4)}.mts`, `${base.slice(0, -4)}.d.mts`, base];
  if (ext === '.cjs') return [`${base.slice(0, -4)}.cts`, `${base.slice(0, -4)}.d.cts`, base];
  if (ext !== undefined) return [base];
  return [`${base}.ts`, `${base}.tsx`, `${base}.d.ts`, join(base, 'index.ts'), join(base, 'index.d.ts')];
}

/**
 * True when a type alias only renames its target: no type parameters and no type arguments
 * (`type Context = HonoContext`), or type parameters that all have defaults, passed on to the
 * target as they stand and in order (`type Context<E = any, P = any> = HonoContext<E, P>`), so that
 * the bare name means the target with its defaults.
 */
function passesThrough(ts: typeof Ts, node: Ts.TypeAliasDeclaration): boolean {
  const target = node.type as Ts.TypeReferenceNode;
  const parameters = node.typeParameters ?? [];
  const args = target.typeArguments ?? [];
  if (parameters.length !== args.length) return false;
  return parameters.every((parameter, i) => {
    const arg = args[i]!;
    if (parameter.default === undefined || !ts.isTypeReferenceNode(arg) || arg.typeArguments) return false;
    return ts.isIdentifier(arg.typeName) && arg.typeName.text === parameter.name.text;
  });
}
