/**
 * @module
 * The import graph of the repository's TypeScript and JavaScript sources, read from their text:
 * every `import … from`, `export … from`, `import('…')` and side-effect `import '…'` with a relative
 * specifier, resolved to a file. Tests use it to hold the layering and to find import cycles.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One import: the file it points to, and whether it is erased at compile time (`import type`). */
export interface ImportEdge {
  readonly to: string;
  readonly typeOnly: boolean;
  readonly line: number;
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Every source file under `dirs` (relative to `root`), tests and declaration files excluded. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (entry === 'node_modules') continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|js|mjs)$/.test(entry) && !/\.test\.ts$|\.d\.ts$/.test(entry)) out.push(relative(root, path));
    }
  };
  for (const dir of dirs) walk(join(root, dir));
  return out.sort();
}

/** The relative imports of one file, resolved to repository paths (`.js` specifiers name `.ts` sources). */
export function importsOf(root: string, file: string): ImportEdge[] {
  const text = readFileSync(join(root, file), 'utf8');
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[3] ?? match[4]!;
    if (!specifier.startsWith('.')) continue;
    const target = resolve(root, dirname(file), specifier);
    const candidates = [target, target.replace(/\.js$/, '.ts'), `${target}.ts`, join(target, 'index.ts')];
    const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
    if (!found) continue;
    const line = text.slice(0, match.index).split('\n').length;
    edges.push({ to: relative(root, found), typeOnly: match[2] !== undefined, line });
  }
  return edges;
}

/**
 * The import cycles among `files` through value imports (`import type` is erased and cannot make
 * a module wait for another), each as the list of files around it, from its smallest path.
 */
export function valueImportCycles(root: string, files: readonly string[]): string[][] {
  const graph = new Map(
    files.map((f) => [
      f,
      importsOf(root, f)
        .filter((e) => !e.typeOnly)
        .map((e) => e.to),
    ]),
  );
  const cycles = new Map<string, string[]>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next));
        const start = cycle.indexOf([...cycle].sort()[0]!);
        const canonical = [...cycle.slice(start), ...cycle.slice(0, start)];
        cycles.set(canonical.join(' → '), canonical);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return [...cycles.values()];
}
