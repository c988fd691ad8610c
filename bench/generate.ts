/**
 * @module
 * Generation speed: cold-process wall time of Loom's generator beside peer
 * generators run on the same input in the same run.
 *
 * - `generate.project_schemas`: `npm run generate` on this repository's schemas,
 *   beside the floor of a cold `loom --help` (what the process costs before any work).
 * - `generate.gitea_vs_fastest_peer`: `loom generate` on Gitea's whole Swagger 2.0
 *   document (467 operations; types, validators, server stubs, client, docs) beside
 *   the fastest of openapi-typescript (types only), openapi-typescript-codegen and
 *   @hey-api/openapi-ts (types and client). Peers live in `bench/peers/` with their own
 *   install, pinned to versions that run on Node 20 with the TypeScript they support.
 *   Loom runs as users run it: `bin/loom.js` on the compiled generator (`npm run build`,
 *   done here first when `dist/` is stale), with its compile cache off (`LOOM_CACHE=0`),
 *   so every run does all the work.
 * - `generate.gitea_cached`: the same with the cache on (validators compiled by an earlier
 *   run are reused), beside the uncached figure.
 * - `generate.gitea_uncompiled`: the same, uncached, from the TypeScript sources through
 *   tsx (`LOOM_DIST=0`: what a fresh clone without a build runs), beside the uncached figure.
 * - `generate.gitea_type_errors`: `tsc --noEmit` over Loom's Gitea output (goal: 0).
 *
 * Run alone: `npx tsx bench/generate.ts`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, isDistFresh } from '../generator/cli/build.js';
import { type BenchResult, median, printResults, result, round } from './results.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PEERS = join(ROOT, 'bench', 'peers');
const GITEA = resolve(ROOT, 'test', 'fixtures', 'reference', 'gitea-swagger-v1.25.3.json');
const RUNS = Number(process.env.BENCH_GENERATE_RUNS ?? 5);

interface Command {
  readonly label: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  /** Added to the environment. */
  readonly env?: Readonly<Record<string, string>>;
}

/** What `bin/loom.js` prints with `LOOM_DEBUG=1` when it runs the TypeScript sources. */
const SOURCES_NOTE = 'running the TypeScript sources';

/**
 * Wall time of one cold process, in ms. Fails loudly: a broken peer must not look fast, and
 * a Loom run meant for `dist/` that fell back to the sources (someone edited `generator/`
 * during the benchmark) must not pass for a compiled one.
 */
function timeOnce(cmd: Command): Promise<number> {
  const start = process.hrtime.bigint();
  return new Promise((ok, fail) => {
    const env = { ...process.env, ...cmd.env };
    execFile(cmd.file, cmd.args, { cwd: cmd.cwd ?? ROOT, env, maxBuffer: 64 << 20 }, (error, _stdout, stderr) => {
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (error) fail(new Error(`${cmd.label} failed: ${error.message}\n${stderr}`));
      else if (cmd.env?.LOOM_DEBUG === '1' && cmd.env.LOOM_DIST !== '0' && stderr.includes(SOURCES_NOTE)) {
        fail(new Error(`${cmd.label}: dist/ went stale during the benchmark (generator/ changed); run again`));
      } else ok(elapsed);
    });
  });
}

/** Median of RUNS cold runs after one warm-up (fills the OS file cache, as on a developer's machine). */
async function timeMedian(cmd: Command, onProgress: (line: string) => void): Promise<number> {
  return (await timeInterleaved([cmd], onProgress))[0]!;
}

/**
 * Medians of RUNS cold runs of each command, taken in rounds (one run of each per round)
 * after one warm-up each: figures compared with each other then see the same machine load,
 * which on a shared machine drifts over a minute far more than the differences measured.
 */
async function timeInterleaved(cmds: readonly Command[], onProgress: (line: string) => void): Promise<number[]> {
  for (const cmd of cmds) await timeOnce(cmd);
  const times: number[][] = cmds.map(() => []);
  for (let i = 0; i < RUNS; i++) for (const [j, cmd] of cmds.entries()) times[j]!.push(await timeOnce(cmd));
  return cmds.map((cmd, j) => {
    const m = median(times[j]!);
    onProgress(`  ${cmd.label}: median ${round(m)} ms over ${RUNS} runs`);
    return m;
  });
}

function ensurePeers(onProgress: (line: string) => void): void {
  if (existsSync(join(PEERS, 'node_modules', '.bin', 'openapi-ts'))) return;
  onProgress('  installing peer generators into bench/peers (once)...');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: PEERS, stdio: 'inherit' });
}

export async function benchGenerate(onProgress: (line: string) => void = console.log): Promise<BenchResult[]> {
  ensurePeers(onProgress);
  if (!isDistFresh(ROOT)) {
    onProgress('  dist/ is stale: npm run build');
    build(ROOT);
  }
  // Inside the repository (gitignored), so generated imports of hono etc. resolve to its node_modules.
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const scratch = mkdtempSync(join(ROOT, '.tmp', 'bench-gen-'));
  try {
    const node = process.execPath;
    const loom = join(ROOT, 'bin', 'loom.js');
    const peerBin = (name: string) => join(PEERS, 'node_modules', '.bin', name);

    onProgress('generation: project schemas');
    const floor = await timeMedian({ label: 'loom --help (process floor)', file: node, args: [loom, '--help'] }, onProgress);
    const project = await timeMedian(
      { label: 'npm run generate', file: 'npm', args: ['run', '--silent', 'generate', '--', '--quiet'] },
      onProgress,
    );

    onProgress('generation: Gitea swagger (467 operations)');
    const loomOut = join(scratch, 'loom');
    const loomArgs = [
      loom,
      'generate',
      GITEA,
      '--out',
      loomOut,
      '--quiet',
      '--runtime',
      relative(loomOut, join(ROOT, 'runtime', 'codegen')),
    ];
    // Run from the scratch folder: the printer resolves `--runtime ../../..` against the
    // process's folder, and from ROOT (fewer levels deep than the path climbs) the imports
    // come out one level short. Its `node_modules` gives the cached run a cache folder.
    mkdirSync(join(scratch, 'node_modules'));
    const peers: Array<[string, Command]> = [
      [
        'openapi_typescript',
        {
          label: 'openapi-typescript 5.4.2 (types)',
          file: node,
          args: [peerBin('openapi-typescript'), GITEA, '-o', join(scratch, 'ot.ts')],
        },
      ],
      [
        'openapi_typescript_codegen',
        {
          label: 'openapi-typescript-codegen 0.31.0 (types + client)',
          file: node,
          args: [peerBin('openapi'), '--input', GITEA, '--output', join(scratch, 'otc')],
        },
      ],
      [
        'hey_api',
        {
          label: '@hey-api/openapi-ts 0.95.0 (types + client)',
          file: node,
          args: [peerBin('openapi-ts'), '-i', GITEA, '-o', join(scratch, 'hey')],
        },
      ],
    ];
    // LOOM_DEBUG=1 makes a fallback to the sources visible (see timeOnce); it prints nothing else on success.
    const [ours, cached, uncompiled, ...peerMedians] = await timeInterleaved(
      [
        { label: 'loom generate (uncached)', file: node, args: loomArgs, cwd: scratch, env: { LOOM_CACHE: '0', LOOM_DEBUG: '1' } },
        { label: 'loom generate (cached validators)', file: node, args: loomArgs, cwd: scratch, env: { LOOM_CACHE: '1', LOOM_DEBUG: '1' } },
        {
          label: 'loom generate (uncached, TypeScript sources via tsx)',
          file: node,
          args: loomArgs,
          cwd: scratch,
          env: { LOOM_CACHE: '0', LOOM_DIST: '0' },
        },
        ...peers.map(([, cmd]) => cmd),
      ],
      onProgress,
    );
    const peerTimes = peers.map(([name], i): [string, number] => [name, peerMedians[i]!]);
    const fastest = Math.min(...peerTimes.map(([, t]) => t));

    onProgress('generation: type-checking Loom output for Gitea');
    const typeErrors = countTypeErrors(loomOut);
    onProgress(`  ${typeErrors} type errors`);

    return [
      result('generate.project_schemas', project, floor, 'ms'),
      result('generate.gitea_vs_fastest_peer', ours!, fastest, 'ms'),
      result('generate.gitea_cached', cached!, ours!, 'ms'),
      result('generate.gitea_uncompiled', uncompiled!, ours!, 'ms'),
      ...peerTimes.map(([name, t]) => result(`generate.gitea.${name}`, t, ours!, 'ms')),
      { name: 'generate.gitea_type_errors', value: typeErrors, unit: 'errors', baseline: 0, ratio: typeErrors },
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Type-checks a generated tree with the project's tsc; returns the number of errors. */
function countTypeErrors(dir: string): number {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        experimentalDecorators: true,
        skipLibCheck: true,
        rootDir: '/',
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules', '@types')],
      },
      include: ['**/*.ts'],
    }),
  );
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    return 0;
  } catch (error) {
    const out = String((error as { stdout?: string }).stdout ?? '');
    return (out.match(/error TS\d+/g) ?? []).length || 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printResults(await benchGenerate());
}
