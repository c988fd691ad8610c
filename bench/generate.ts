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
 * - `generate.gitea_type_errors`: `tsc --noEmit` over Loom's Gitea output (goal: 0).
 *
 * Run alone: `npx tsx bench/generate.ts`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchResult, median, printResults, result, round } from './results.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PEERS = join(ROOT, 'bench', 'peers');
const GITEA = resolve(ROOT, '..', 'shared', 'reference', 'gitea-swagger-v1.25.3.json');
const RUNS = Number(process.env.BENCH_GENERATE_RUNS ?? 5);

interface Command {
  readonly label: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd?: string;
}

/** Wall time of one cold process, in ms. Fails loudly: a broken peer must not look fast. */
function timeOnce(cmd: Command): Promise<number> {
  const start = process.hrtime.bigint();
  return new Promise((ok, fail) => {
    execFile(cmd.file, cmd.args, { cwd: cmd.cwd ?? ROOT, maxBuffer: 64 << 20 }, (error, _stdout, stderr) => {
      if (error) fail(new Error(`${cmd.label} failed: ${error.message}\n${stderr}`));
      else ok(Number(process.hrtime.bigint() - start) / 1e6);
    });
  });
}

/** Median of RUNS cold runs after one warm-up (fills the OS file cache, as on a developer's machine). */
async function timeMedian(cmd: Command, onProgress: (line: string) => void): Promise<number> {
  await timeOnce(cmd);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timeOnce(cmd));
  const m = median(times);
  onProgress(`  ${cmd.label}: median ${round(m)} ms over ${RUNS} runs`);
  return m;
}

function ensurePeers(onProgress: (line: string) => void): void {
  if (existsSync(join(PEERS, 'node_modules', '.bin', 'openapi-ts'))) return;
  onProgress('  installing peer generators into bench/peers (once)...');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: PEERS, stdio: 'inherit' });
}

export async function benchGenerate(onProgress: (line: string) => void = console.log): Promise<BenchResult[]> {
  ensurePeers(onProgress);
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
    const ours = await timeMedian(
      { label: 'loom generate', file: node, args: [loom, 'generate', GITEA, '--out', loomOut, '--quiet', '--runtime', relative(loomOut, join(ROOT, 'runtime', 'codegen'))] },
      onProgress,
    );
    const peers: Array<[string, Command]> = [
      ['openapi_typescript', { label: 'openapi-typescript 5.4.2 (types)', file: node, args: [peerBin('openapi-typescript'), GITEA, '-o', join(scratch, 'ot.ts')] }],
      ['openapi_typescript_codegen', { label: 'openapi-typescript-codegen 0.31.0 (types + client)', file: node, args: [peerBin('openapi'), '--input', GITEA, '--output', join(scratch, 'otc')] }],
      ['hey_api', { label: '@hey-api/openapi-ts 0.95.0 (types + client)', file: node, args: [peerBin('openapi-ts'), '-i', GITEA, '-o', join(scratch, 'hey')] }],
    ];
    const peerTimes: Array<[string, number]> = [];
    for (const [name, cmd] of peers) peerTimes.push([name, await timeMedian(cmd, onProgress)]);
    const fastest = Math.min(...peerTimes.map(([, t]) => t));

    onProgress('generation: type-checking Loom output for Gitea');
    const typeErrors = countTypeErrors(loomOut);
    onProgress(`  ${typeErrors} type errors`);

    return [
      result('generate.project_schemas', project, floor, 'ms'),
      result('generate.gitea_vs_fastest_peer', ours, fastest, 'ms'),
      ...peerTimes.map(([name, t]) => result(`generate.gitea.${name}`, t, ours, 'ms')),
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
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true,
        experimentalDecorators: true, skipLibCheck: true, rootDir: '/', types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')],
      },
      include: ['**/*.ts'],
    }),
  );
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    return 0;
  } catch (error) {
    const out = String((error as { stdout?: string }).stdout ?? '');
    return (out.match(/error TS\d+/g) ?? []).length || 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printResults(await benchGenerate());
}
