/**
 * @module
 * The scaffolder's pure core: handler files and contract files in, planned file contents out.
 * Nothing here writes; files are read through an injected function, so tests plan in memory
 * and `--check` is the same plan, not applied.
 *
 * For each class implementing contracts, the methods a contract has and the class lacks are
 * added after the class's last contract method (or its last member), each with its imports;
 * nothing else in the file changes. A contract nothing refers to gets a new file. Methods of
 * such a class that look like handler methods (two parameters, as every contract method takes)
 * but are in none of its contracts are reported, never deleted.
 */
import type { ts as Ts } from 'ts-morph';
import { findClasses, type ImplementingClass, referencedContracts } from './classes.js';
import { type Contract, ContractIndex, type ContractMethod } from './contracts.js';
import { isLoomFile } from './generated-files.js';
import { ImportPlanner } from './imports.js';
import type { TsMorph } from './load-ts-morph.js';
import { lineOfNode, type ParsedFile, type ReadFile, Resolver, SourceFiles } from './modules.js';
import { type NamingOptions, newHandlerName } from './naming.js';
import { renderMethod, renderNewFile } from './render.js';
import { applyEdits, DEFAULT_LAYOUT, detectLayout, indentationAt, type Layout, lineOf, type TextEdit } from './text.js';

export interface ImplementOptions {
  readonly tsMorph: TsMorph;
  readonly readFile: ReadFile;
  /** Absolute paths of the files in the handler folders (TypeScript sources, sorted). */
  readonly handlerFiles: readonly string[];
  /** Absolute paths of the generated `X.server.ts` files whose contracts need implementations. */
  readonly contractFiles: readonly string[];
  readonly naming?: NamingOptions;
  /** Where a new handler goes when no handler exists to copy the naming from. */
  readonly defaultFolder: string;
  /** How messages name other files (the CLI: relative to the current folder). @default the path as is */
  readonly display?: (path: string) => string;
}

/** A method the plan adds. */
export interface AddedMethod {
  readonly className: string;
  readonly contract: string;
  readonly method: string;
  /** Its line in the planned file. */
  readonly line: number;
}

/** A file the plan changes or creates. */
export interface PlannedFile {
  readonly path: string;
  /** `undefined` for a new file. */
  readonly before: string | undefined;
  readonly after: string;
  readonly added: readonly AddedMethod[];
  /** For a new file: the class it declares and the contract it implements. */
  readonly created?: { readonly className: string; readonly contract: string; readonly example: string | undefined };
}

/** A method in a class that no contract of the class declares (any more). */
export interface StaleMethod {
  readonly path: string;
  readonly line: number;
  readonly className: string;
  readonly method: string;
  readonly contracts: readonly string[];
}

/** A problem with the input: `error`s stop the run before anything is written. */
export interface ImplementProblem {
  readonly severity: 'error' | 'warning';
  readonly path: string;
  readonly line: number | undefined;
  readonly message: string;
}

export interface ImplementPlan {
  readonly files: readonly PlannedFile[];
  readonly stale: readonly StaleMethod[];
  readonly problems: readonly ImplementProblem[];
  /** What was looked at, for the summary line. */
  readonly classes: number;
  readonly contracts: number;
}

/**
 * Plans the edits that bring handlers in step with their contracts.
 *
 * @example
 * const plan = planImplementation({
 *   tsMorph: await loadTsMorph(),
 *   readFile: (p) => (existsSync(p) ? readFileSync(p, 'utf8') : undefined),
 *   handlerFiles: ['/repo/runtime/system/system-handler.ts'],
 *   contractFiles: ['/repo/generated/system/v1alpha1/system.server.ts'],
 *   defaultFolder: '/repo/runtime',
 * });
 * plan.files[0]?.added; // [{ className: 'SystemHandler', method: 'restartService', line: 96, … }]
 */
export function planImplementation(options: ImplementOptions): ImplementPlan {
  const files = new SourceFiles(options.tsMorph, options.readFile);
  const resolver = new Resolver(files);
  const run: Run = {
    options,
    files,
    resolver,
    index: new ContractIndex(resolver),
    problems: [],
    display: options.display ?? ((path: string) => path),
    unparsed: 0,
  };
  const contracts = options.contractFiles.flatMap((path) => {
    const parsed = files.get(path);
    return parsed && parses(run, parsed) ? run.index.inFile(path) : [];
  });
  const { classes, referenced } = findHandlers(run, contracts);
  const stale = classes.flatMap(staleMethods);
  const byFile = new Map<string, ImplementingClass[]>();
  for (const c of classes) byFile.set(c.file.path, [...(byFile.get(c.file.path) ?? []), c]);
  const planned = [...byFile].flatMap(([path, inFile]) => planFile(run, files.get(path)!, inFile) ?? []);
  // A contract nothing in the folders refers to has no implementation yet: a new file. (Unless a
  // file could not be read: it may be the one that implements it.)
  const unreferenced = run.unparsed > 0 ? [] : contracts.filter((c) => !referenced.has(c.key));
  planned.push(...planNewFiles(run, unreferenced, classes, new Set([...options.handlerFiles, ...planned.map((p) => p.path)])));
  return {
    files: planned.sort((a, b) => (a.path < b.path ? -1 : 1)),
    stale,
    problems: run.problems,
    classes: classes.length,
    contracts: new Set([...contracts.map((c) => c.key), ...classes.flatMap((c) => c.contracts.map((k) => k.key))]).size,
  };
}

/** What the steps of one plan share. */
interface Run {
  readonly options: ImplementOptions;
  readonly files: SourceFiles;
  readonly resolver: Resolver;
  readonly index: ContractIndex;
  readonly problems: ImplementProblem[];
  readonly display: (path: string) => string;
  /** How many files did not parse. */
  unparsed: number;
}

/** Whether a file parses; if not, its first syntax error is a problem (after it the parser's guesses are noise). */
function parses(run: Run, file: ParsedFile): boolean {
  const first = file.syntaxErrors[0];
  if (!first) return true;
  run.unparsed++;
  run.problems.push({
    severity: 'error',
    path: file.path,
    line: first.line,
    message: `cannot parse: ${first.message.replace(/\.$/, '')}; fix the syntax, then run again`,
  });
  return false;
}

/** The classes implementing contracts, and the keys of every contract the handler files refer to. */
function findHandlers(run: Run, contracts: readonly Contract[]): { classes: ImplementingClass[]; referenced: Set<string> } {
  // Only files that can declare such a class or refer to a contract are parsed at all.
  const names = [...new Set(contracts.map((c) => c.name))];
  const classes: ImplementingClass[] = [];
  const referenced = new Set<string>();
  for (const path of run.options.handlerFiles) {
    const text = run.files.text(path);
    // A file `loom generate` wrote is nobody's handler, and never edited (it is regenerated).
    if (text === undefined || isLoomFile(text) || (!text.includes('implements') && !names.some((n) => text.includes(n)))) continue;
    const parsed = run.files.get(path)!;
    if (!parses(run, parsed)) continue;
    const found = findClasses(parsed, run.resolver, run.index);
    classes.push(...found);
    for (const c of found) for (const k of c.contracts) referenced.add(k.key);
    for (const key of referencedContracts(parsed, run.resolver, run.index)) referenced.add(key);
  }
  return { classes, referenced };
}

/** The missing methods of a file's classes, inserted, with their imports; `undefined` when none is missing. */
function planFile(run: Run, file: ParsedFile, classes: readonly ImplementingClass[]): PlannedFile | undefined {
  const edits: TextEdit[] = [];
  const layout = detectLayout(file.text);
  const imports = new ImportPlanner(run.resolver, file.path, file, layout);
  const added: { className: string; contract: string; method: string; edit: number; offset: number }[] = [];
  for (const c of classes) {
    const missing = missingMethods(c, run.problems, run.display);
    if (missing.length === 0) continue;
    const point = insertionPoint(run.files.ts, c, file, layout);
    const gap = point.blank ? layout.eol + layout.eol : layout.eol;
    let text = point.prefix;
    for (const [i, { contract, method }] of missing.entries()) {
      if (i > 0) text += gap;
      const rendered = renderMethod(contract, method, imports, layout, point.indent);
      const offset = text.length + signatureOffset(rendered, method.name);
      added.push({ className: c.name, contract: contract.name, method: method.name, edit: edits.length, offset });
      text += rendered;
    }
    edits.push({ at: point.at, length: point.length, text: text + point.suffix });
  }
  if (edits.length === 0) return undefined;
  edits.push(...imports.edits());
  const result = applyEdits(file.text, edits);
  return {
    path: file.path,
    before: file.text,
    after: result.text,
    added: added.map(({ edit, offset, ...method }) => ({ ...method, line: lineOf(result.text, result.starts[edit]! + offset) })),
  };
}

/** New handler files for contracts nothing implements; `taken` holds the paths already in use. */
function planNewFiles(
  run: Run,
  contracts: readonly Contract[],
  classes: readonly ImplementingClass[],
  taken: ReadonlySet<string>,
): PlannedFile[] {
  const planned = new Map<string, Contract>();
  const files: PlannedFile[] = [];
  for (const contract of contracts) {
    const name = newHandlerName(contract, classes, run.options.naming ?? {}, run.options.defaultFolder);
    const other = planned.get(name.path);
    if (other || taken.has(name.path) || run.files.text(name.path) !== undefined) {
      run.problems.push({
        severity: 'error',
        path: name.path,
        line: undefined,
        message: other
          ? `${contract.name} of ${run.display(contract.file)} and ${other.name} of ${run.display(other.file)} have no implementation, ` +
            'and both would get this new file; name new files with --new-file'
          : `${contract.name} has no implementation, and its new handler would go here, but the file exists; ` +
            `implement ${contract.name} in it, or name new files with --new-file`,
      });
      continue;
    }
    planned.set(name.path, contract);
    const example = name.example ? run.files.get(name.example.file.path) : undefined;
    const layout = example ? detectLayout(example.text) : DEFAULT_LAYOUT;
    const text = renderNewFile(contract, name.className, new ImportPlanner(run.resolver, name.path, undefined, layout), layout);
    files.push({
      path: name.path,
      before: undefined,
      after: text,
      added: contract.methods.map((m) => ({
        className: name.className,
        contract: contract.name,
        method: m.name,
        line: lineOf(text, signatureOffset(text, m.name)),
      })),
      created: { className: name.className, contract: contract.name, example: name.example?.file.path },
    });
  }
  return files;
}

/** Where the line declaring method `name` starts in a text. */
function signatureOffset(text: string, name: string): number {
  return text.search(new RegExp(`^[ \\t]*(async )?${name.replace(/\$/g, '\\$')}\\(`, 'm'));
}

/** The contract methods a class lacks, in contract order; a name two contracts declare differently is an error. */
function missingMethods(
  c: ImplementingClass,
  problems: ImplementProblem[],
  display: (path: string) => string,
): { contract: Contract; method: ContractMethod }[] {
  if (!c.members) {
    problems.push({
      severity: 'warning',
      path: c.file.path,
      line: c.line,
      message:
        `${c.name} extends ${c.unreadableBase}, whose members cannot be read here; ` +
        'add missing methods by hand (the compiler names them)',
    });
    return [];
  }
  const seen = new Map<string, { contract: Contract; method: ContractMethod }>();
  const missing: { contract: Contract; method: ContractMethod }[] = [];
  let clash = false;
  for (const contract of c.contracts) {
    for (const method of contract.methods) {
      const earlier = seen.get(method.name);
      if (earlier) {
        if (earlier.method.signature !== method.signature && !c.members.has(method.name)) {
          clash = true;
          problems.push({
            severity: 'error',
            path: c.file.path,
            line: c.line,
            message:
              `${c.name} implements ${earlier.contract.name} and ${contract.name}, which both declare '${method.name}' ` +
              `with different types (${display(earlier.contract.file)}:${earlier.method.line} and ` +
              `${display(contract.file)}:${method.line}): no one method can be both; implement the two contracts in separate classes`,
          });
        }
        continue;
      }
      seen.set(method.name, { contract, method });
      if (!c.members.has(method.name)) missing.push({ contract, method });
    }
  }
  return clash ? [] : missing;
}

/**
 * Methods that look like handler methods (public, two parameters, as every contract method)
 * but that none of the class's contracts declares: what a schema change left behind.
 */
function staleMethods(c: ImplementingClass): StaleMethod[] {
  const declared = new Set(c.contracts.flatMap((k) => k.methods.map((m) => m.name)));
  return c.node
    .getInstanceMethods()
    .filter((m) => m.getParameters().length === 2 && m.getScope() === 'public' && !m.getName().startsWith('#'))
    .filter((m) => !declared.has(m.getName()))
    .map((m) => ({
      path: c.file.path,
      line: lineOfNode(m),
      className: c.name,
      method: m.getName(),
      contracts: c.contracts.map((k) => k.name),
    }));
}

/**
 * Where new methods go: after the class's last member that implements a contract method (else its
 * last member), with its indentation, and a blank line between methods unless its last two
 * members have none. In an empty class they replace the whitespace between the braces.
 */
function insertionPoint(
  ts: typeof Ts,
  c: ImplementingClass,
  file: ParsedFile,
  layout: Layout,
): { at: number; length: number; prefix: string; suffix: string; indent: string; blank: boolean } {
  const { eol, unit } = layout;
  const members = c.node.getMembers();
  if (members.length === 0) {
    const open = c.node.getFirstChildByKindOrThrow(ts.SyntaxKind.OpenBraceToken).getEnd();
    const close = c.node.getEnd() - 1;
    const classIndent = indentationAt(file.text, c.node.getStart());
    const indent = classIndent + unit;
    const inner = file.text.slice(open, close);
    if (/^\s*$/.test(inner)) return { at: open, length: inner.length, prefix: eol, suffix: eol + classIndent, indent, blank: true };
    // Only comments inside: the methods go after them, before the closing brace's line.
    const lineStart = file.text.lastIndexOf('\n', close) + 1;
    if (/^[ \t]*$/.test(file.text.slice(lineStart, close)))
      return { at: lineStart, length: 0, prefix: '', suffix: eol, indent, blank: true };
    return { at: close, length: 0, prefix: eol, suffix: eol + classIndent, indent, blank: true };
  }
  const declared = new Set(c.contracts.flatMap((k) => k.methods.map((m) => m.name)));
  const named = (m: (typeof members)[number]) => (m as { getName?: () => string | undefined }).getName?.();
  const anchor = [...members].reverse().find((m) => declared.has(named(m) ?? '')) ?? members.at(-1)!;
  let blank = true;
  if (members.length >= 2) {
    const last = members.at(-1)!;
    blank = /\n[ \t]*\r?\n/.test(file.text.slice(members.at(-2)!.getEnd(), last.getStart(true)));
  }
  const gap = blank ? eol + eol : eol;
  return { at: anchor.getEnd(), length: 0, prefix: gap, suffix: '', indent: indentationAt(file.text, members[0]!.getStart()), blank };
}
