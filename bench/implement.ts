/**
 * @module
 * Scaffolding speed: cold-process wall time of `loom implement`.
 *
 * - `implement.gitea_ms`: `loom implement` on one empty class per service of Gitea's API
 *   (10 services, 467 operations; contracts generated from the Swagger 2.0 document first, not
 *   timed), so every method is added, with its imports and JSDoc. The baseline is the goal,
 *   2,000 ms (ratio below 1: within it). Loom runs as users run it, `bin/loom.js` on the
 *   compiled generator (`npm run build` first when `dist/` is stale); each run starts from the
 *   empty classes again, and must report all 467 methods added, so a broken run cannot pass for
 *   a fast one.
 *
 * Run alone: `npx tsx bench/implement.ts` (`BENCH_IMPLEMENT_RUNS`, default 5).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, isDistFresh } from '../generator/cli/build.js';
import { type BenchResult, median, printResults, result, round } from './results.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const GITEA = resolve(ROOT, 'test', 'fixtures', 'reference', 'gitea-swagger-v1.25.3.json');
const RUNS = Number(process.env.BENCH_IMPLEMENT_RUNS ?? 5);
const GOAL_MS = 2000;
const OPERATIONS = 467;

export async function benchImplement(onProgress: (line: string) => void = console.log): Promise<BenchResult[]> {
  if (!isDistFresh(ROOT)) {
    onProgress('  dist/ is stale: npm run build');
    build(ROOT);
  }
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const scratch = mkdtempSync(join(ROOT, '.tmp', 'bench-implement-'));
  try {
    const loom = join(ROOT, 'bin', 'loom.js');
    execFileSync(process.execPath, [loom, 'generate', GITEA, '--out', join(scratch, 'gen'), '--quiet'], { cwd: scratch });
    const server = readFileSync(join(scratch, 'gen', 'gitea-swagger-v1.25.3.server.ts'), 'utf8');
    const contracts = [...server.matchAll(/^export interface (\w+Api) \{$/gm)].map((m) => m[1]!);
    const handlers = join(scratch, 'handlers');
    const emptyClasses = () => {
      rmSync(handlers, { recursive: true, force: true });
      mkdirSync(handlers);
      for (const contract of contracts) {
        const service = contract.replace(/Api$/, '');
        writeFileSync(
          join(handlers, `${service.toLowerCase()}-handler.ts`),
          `import type { ${contract} } from '../gen/gitea-swagger-v1.25.3.server.js';\n\n` +
            `export class ${service}Handler implements ${contract} {}\n`,
        );
      }
    };

    onProgress(`implement: ${contracts.length} empty classes for Gitea's ${OPERATIONS} operations`);
    const once = async (): Promise<number> => {
      emptyClasses();
      const start = process.hrtime.bigint();
      const stdout = await new Promise<string>((ok, fail) =>
        execFile(
          process.execPath,
          [loom, 'implement', 'handlers', '--contracts', 'gen'],
          { cwd: scratch, env: { ...process.env, LOOM_DEBUG: '1' }, maxBuffer: 64 << 20 },
          (error, out, err) => {
            if (error) fail(new Error(`loom implement failed: ${error.message}\n${err}`));
            else if (err.includes('running the TypeScript sources')) fail(new Error('dist/ went stale during the benchmark; run again'));
            else ok(out);
          },
        ),
      );
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (!stdout.includes(`loom: ${OPERATIONS} methods added`))
        throw new Error(`loom implement did not add ${OPERATIONS} methods:\n${stdout.slice(-500)}`);
      return elapsed;
    };
    await once(); // warm-up: the OS file cache, as on a developer's machine
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await once());
    const m = median(times);
    onProgress(
      `  loom implement: median ${round(m)} ms over ${RUNS} runs (min ${round(Math.min(...times))}, max ${round(Math.max(...times))})`,
    );
    return [result('implement.gitea_ms', m, GOAL_MS, 'ms')];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) printResults(await benchImplement());
