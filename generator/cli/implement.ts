/**
 * @module
 * `loom implement` as a function: lists the handler and contract files, loads ts-morph, plans
 * with the pure core (`generator/implement/`), then prints and writes. Loaded by the CLI only for
 * this command, so `loom generate` never pays for it.
 */
import { readFileSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { loadTsMorph, type TsMorph, TsMorphMissingError } from '../implement/load-ts-morph.js';
import type { ImplementPlan, ImplementProblem } from '../implement/plan.js';
import { planImplementation } from '../implement/plan.js';
import { WriteRefusedError, writePlan } from '../implement/write.js';
import type { ImplementArgs } from './args.js';
import type { CliIO } from './report.js';

/**
 * Runs `loom implement`.
 *
 * @returns 0 ok, 1 `--check` found something missing, 2 bad input (nothing written)
 *
 * @example
 * await runImplement({ command: 'implement', folders: ['runtime'], contracts: 'generated', … }, { cwd, stdout, stderr });
 */
export async function runImplement(args: ImplementArgs, io: CliIO & { readonly cwd: string }): Promise<number> {
  const started = performance.now();
  const show = (path: string) => {
    const rel = relative(io.cwd, path);
    return rel === '' ? '.' : rel.startsWith('..') ? path : rel.split(sep).join('/');
  };
  const contracts = resolve(io.cwd, args.contracts);
  if (!isFolder(contracts)) {
    io.stderr(`loom: the contracts folder ${args.contracts} does not exist; pass --contracts <the --out folder of 'loom generate'>\n`);
    return 2;
  }
  const folders = args.folders.map((f) => resolve(io.cwd, f));
  const absent = args.folders.filter((_, i) => !exists(folders[i]!));
  if (absent.length > 0) {
    io.stderr(`loom: no such handler folder: ${absent.join(', ')}\n`);
    return 2;
  }

  let tsMorph: TsMorph;
  try {
    tsMorph = await loadTsMorph();
  } catch (error) {
    if (!(error instanceof TsMorphMissingError)) throw error;
    io.stderr(`loom: ${error.message}\n`);
    return 2;
  }
  const handlerFiles = (await Promise.all(folders.map((f) => sourceFiles(f, contracts)))).flat();
  const contractFiles = (await listFiles(contracts)).filter((p) => p.endsWith('.server.ts'));
  const plan = planImplementation({
    tsMorph,
    readFile: (path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
    },
    handlerFiles: [...new Set(handlerFiles)].sort(),
    contractFiles: contractFiles.sort(),
    naming: {
      file: args.newFile === undefined ? undefined : resolve(io.cwd, args.newFile),
      className: args.className,
    },
    defaultFolder: folders[0]!,
    display: show,
  });

  const problem = (p: ImplementProblem) => `${show(p.path)}${p.line === undefined ? '' : `:${p.line}`}: ${p.severity}: ${p.message}\n`;
  for (const p of plan.problems.filter((p) => p.severity === 'warning')) io.stderr(problem(p));
  const errors = plan.problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    for (const p of errors) io.stderr(problem(p));
    io.stderr(`loom: ${errors.length} error${errors.length === 1 ? '' : 's'}; nothing was written\n`);
    return 2;
  }
  for (const s of plan.stale) {
    io.stderr(
      `${show(s.path)}:${s.line}: warning: ${s.className}.${s.method} is in none of ${s.contracts.join(', ')} ` +
        '(removed from the schema?); ' +
        'nothing calls it through the contract: delete it, or make it private if the class uses it\n',
    );
  }
  const time = `${((performance.now() - started) / 1000).toFixed(2)} s`;
  const lines = describe(plan, show, args.check);

  if (args.check) {
    if (lines.length === 0) {
      if (!args.quiet) io.stdout(`loom: handlers are up to date (${plan.classes} classes, ${plan.contracts} contracts, ${time})\n`);
      return 0;
    }
    io.stderr(`loom: handlers lack what the contracts declare; run 'loom implement ${args.folders.join(' ')}':\n`);
    for (const line of lines) io.stderr(`  ${line}\n`);
    return 1;
  }

  try {
    await writePlan(plan.files);
  } catch (error) {
    if (!(error instanceof WriteRefusedError)) throw error;
    for (const p of error.problems) io.stderr(problem(p));
    io.stderr(`loom: ${error.problems.length} error${error.problems.length === 1 ? '' : 's'}; nothing was written\n`);
    return 2;
  }
  if (!args.quiet) {
    for (const line of lines) io.stdout(`  ${line}\n`);
    const methods = plan.files.reduce((n, f) => n + f.added.length, 0);
    const created = plan.files.filter((f) => f.created).length;
    io.stdout(
      `loom: ${methods} method${methods === 1 ? '' : 's'} added, ${created} new file${created === 1 ? '' : 's'} ` +
        `(${plan.classes} classes, ${plan.contracts} contracts, ${time})\n`,
    );
    for (const f of plan.files.filter((f) => f.created)) {
      io.stdout(`loom: register ${f.created!.className} where the app builds its routes (next to the other handlers)\n`);
    }
  }
  return 0;
}

/**
 * One line per added method and new file: `added    path:line  Class.method (Contract)`, or with
 * `--check` what is missing: `missing  path  Class.method (Contract)`.
 */
function describe(plan: ImplementPlan, show: (path: string) => string, check: boolean): string[] {
  const lines: string[] = [];
  for (const f of plan.files) {
    if (f.created) {
      const like = f.created.example === undefined ? '' : `, named like ${show(f.created.example)}`;
      const methods = `${f.added.length} method${f.added.length === 1 ? '' : 's'}`;
      const what = `${f.created.className} implements ${f.created.contract} (${methods}${like})`;
      lines.push(
        check
          ? `no file  ${f.created.contract} has no implementation; would write ${show(f.path)}: ${what}`
          : `wrote    ${show(f.path)}  ${what}`,
      );
      continue;
    }
    for (const a of f.added) {
      const what = `${a.className}.${a.method} (${a.contract})`;
      lines.push(check ? `missing  ${show(f.path)}  ${what}` : `added    ${show(f.path)}:${a.line}  ${what}`);
    }
  }
  return lines;
}

/** TypeScript sources below a folder (or the file itself), without declarations, dot folders, node_modules or `skip`. */
async function sourceFiles(folder: string, skip: string): Promise<string[]> {
  if (!isFolder(folder)) return [folder];
  return (await listFiles(folder)).filter((p) => /\.(m|c)?tsx?$/.test(p) && !/\.d\.(m|c)?ts$/.test(p) && !within(p, skip));
}

/** Files below a folder; `node_modules` and dot folders are not entered. */
async function listFiles(folder: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    await Promise.all(
      entries.map(async (e) => {
        const path = join(dir, e.name);
        if (e.isDirectory()) {
          if (e.name !== 'node_modules' && !e.name.startsWith('.')) await walk(path);
        } else if (e.isFile()) files.push(path);
      }),
    );
  };
  await walk(folder);
  return files.sort();
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder + sep);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
