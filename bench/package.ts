/**
 * @module
 * What installing the toolkit costs a project that only wants Loom: the `loom` package packed
 * from `packages/loom` and installed from its tarball into an empty project, its dependencies from
 * the registry (npm's cache warm after the first round, as on a developer's machine).
 *
 * - `package.install_mb`: the size of that project's `node_modules`. Its baseline is the goal
 *   (25 MB), so its ratio is the share of the goal used; there is no peer to measure against.
 * - `package.install_s`: the wall time of `npm install <tarball>`, median of the rounds; its
 *   baseline is `npm install hono` alone, measured in the same rounds: npm's own cost for one
 *   small package, which no toolkit can go below.
 *
 * `npx tsx bench/package.ts` runs it alone; `npm run bench -- package` through the runner.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchResult, median, printResults, result } from './results.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.LOOM_BENCH_PACKAGE_ROUNDS ?? 3);
const GOAL_MB = 25;

function npm(args: readonly string[], cwd: string): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_') || key === 'npm_config_cache'));
  return new Promise((resolve, reject) =>
    execFile('npm', args, { cwd, env, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      error ? reject(new Error(`npm ${args.join(' ')}: ${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

/** Bytes of every file under `dir` (what `du --apparent-size` counts). */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += sizeOf(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** Installs `spec` into a new empty project; resolves to the wall time and the `node_modules` size. */
async function installInto(work: string, spec: string): Promise<{ seconds: number; bytes: number }> {
  const project = mkdtempSync(join(work, 'project-'));
  writeFileSync(join(project, 'package.json'), '{ "name": "bench-project", "private": true, "type": "module" }\n');
  const started = performance.now();
  await npm(['install', '--no-audit', '--no-fund', '--prefer-offline', spec], project);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, bytes: sizeOf(join(project, 'node_modules')) };
}

/** Runs the package benchmark; see the module documentation. */
export async function benchPackage(onProgress: (line: string) => void = console.log): Promise<BenchResult[]> {
  const work = mkdtempSync(join(tmpdir(), 'loom-bench-package-'));
  try {
    onProgress('  packing packages/loom');
    const [{ filename }] = JSON.parse(await npm(['pack', '--workspace', 'loom', '--pack-destination', work, '--json'], ROOT)) as [
      { filename: string },
    ];
    const tarball = join(work, filename);
    const ours: number[] = [];
    const hono: number[] = [];
    let bytes = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const loom = await installInto(work, tarball);
      const plain = await installInto(work, 'hono');
      ours.push(loom.seconds);
      hono.push(plain.seconds);
      bytes = loom.bytes;
      onProgress(
        `  round ${round}: loom ${loom.seconds.toFixed(2)} s (${(loom.bytes / 2 ** 20).toFixed(1)} MB), hono ${plain.seconds.toFixed(2)} s`,
      );
    }
    return [result('package.install_mb', bytes / 2 ** 20, GOAL_MB, 'MB'), result('package.install_s', median(ours), median(hono), 's')];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printResults(await benchPackage());
