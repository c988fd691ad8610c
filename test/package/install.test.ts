/**
 * The toolkit as a user gets it. `npm pack` of `packages/loom`; in a folder outside this
 * repository, `loom init` from the tarball (through `npx`, as a user runs a package they have
 * not installed) and `npm install` from the registry; then the project's own scripts:
 * `npm run generate`, `npm test` (plain `tsc` 5.x, then Node's test runner calling the server
 * through the generated clients). The compiled server also runs on plain `node` and answers the
 * generated REST, Connect and gRPC clients of a separate process; the project type-checks with
 * `moduleResolution` NodeNext and Bundler under TypeScript 5 and 7; and the generated REST and
 * Connect clients, bundled by esbuild for the browser, run in Chromium against the server with
 * CORS on, with no Node module, gRPC or protobufjs in the bundle.
 *
 * The registry and npm's cache are used (as for any user); nothing is mocked.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TSC7 = join(REPO, 'node_modules/.bin/tsc');
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * The environment of a command run in the user's project: this process's, without the `npm_*`
 * variables `npm test` sets (a nested npm would read them as its own configuration), but with
 * the registry and cache npm was given.
 */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_registry', 'npm_config_cache', 'npm_config_userconfig']);
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_') || keep.has(key)));
  return { ...env, ...extra };
}

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: userEnv(env), maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Runs a command that must succeed; its output is in the error when it does not. */
async function must(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  const result = await run(command, args, cwd, env);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** The project's server, started as production runs it: `node dist/src/server.js`. */
async function startServer(app: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string; grpc: string }> {
  const child = spawn(process.execPath, ['dist/src/server.js'], { cwd: app, env: userEnv({ PORT: '0', GRPC_PORT: '0', ...env }) });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /HTTP (http:\/\/\S+) .*gRPC (\S+)/.exec(output);
      if (match) resolve({ child, url: match[1]!, grpc: match[2]! });
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before it listened:\n${output}`)));
  });
}

let work: string;
let tarball: string;
let app: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'loom-package-'));
  // The package as npm would publish it: `prepack` builds it (keeping a build of the same sources).
  const packed = await must('npm', ['pack', '--workspace', 'loom', '--pack-destination', work, '--json'], REPO);
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  tarball = join(work, filename);
  await must('npx', ['--yes', '--package', tarball, '--', 'loom', 'init', 'app', '--loom', `file:${tarball}`], work);
  app = join(work, 'app');
  await must('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], app);
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the loom package, installed from its tarball', () => {
  it('ships the compiled toolkit and nothing of the services', () => {
    const pkg = join(app, 'node_modules/loom');
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['ajv', 'ajv-formats', 'handlebars', 'hono', 'protobufjs', 'yaml']);
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(['@grpc/grpc-js', 'ts-morph']);
    expect(existsSync(join(pkg, 'dist/runtime/entries/rest.js'))).toBe(true);
    expect(existsSync(join(pkg, 'dist/runtime/entries/rest.d.ts'))).toBe(true);
    for (const service of ['issues', 'system', 'server']) expect(existsSync(join(pkg, `dist/runtime/${service}`)), service).toBe(false);
    for (const dependency of ['better-sqlite3', 'pg', 'pino', 'swagger-ui-dist', 'tsx']) {
      expect(existsSync(join(app, 'node_modules', dependency)), dependency).toBe(false);
    }
  });

  it('refuses to init over an existing project, writing nothing', async () => {
    const before = readFileSync(join(app, 'package.json'), 'utf8');
    const again = await run(join(app, 'node_modules/.bin/loom'), ['init'], app);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('these files exist and would be overwritten:\n  .gitignore\n');
    expect(readFileSync(join(app, 'package.json'), 'utf8')).toBe(before);
  });

  it('generates, compiles with plain tsc 5 and passes its own test (npm run generate, npm test)', async () => {
    const generated = await must('npm', ['run', 'generate'], app);
    expect(generated.stdout).toMatch(/loom: \d+ written/);
    expect(existsSync(join(app, 'generated/todos.validators.ts'))).toBe(true);
    const tsc = await must(join(app, 'node_modules/.bin/tsc'), ['--version'], app);
    expect(tsc.stdout).toMatch(/^Version 5\./);
    const test = await must('npm', ['test'], app);
    expect(test.stdout).toMatch(/^# pass 2$/m);
    expect(test.stdout).toMatch(/^# fail 0$/m);
    // No JavaScript beside the sources for the build to leave behind: everything compiled is in dist/.
    expect(existsSync(join(app, 'dist/generated/todos.validators.js'))).toBe(true);
  }, 300_000);

  it('type-checks with moduleResolution Bundler and with TypeScript 7', async () => {
    writeFileSync(
      join(app, 'tsconfig.bundler.json'),
      JSON.stringify({ extends: './tsconfig.json', compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', noEmit: true } }),
    );
    await must(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.bundler.json'], app);
    expect((await must(TSC7, ['--version'], app)).stdout).toMatch(/^Version 7\./);
    await must(TSC7, ['-p', 'tsconfig.json', '--noEmit'], app);
    await must(TSC7, ['-p', 'tsconfig.bundler.json'], app);
  }, 120_000);

  it('runs on plain node and answers the generated REST, Connect and gRPC clients of another process', async () => {
    const server = await startServer(app, {});
    try {
      writeFileSync(
        join(app, 'check-clients.mjs'),
        `import { TodoClient } from './dist/generated/todos.client.js';
import { createEchoConnectClient } from './dist/generated/echo/v1/echo.client.js';
import { createEchoGrpcClient } from './dist/generated/echo/v1/echo.grpc.js';
const [url, grpcAddress] = process.argv.slice(2);
const todos = new TodoClient({ baseUrl: url });
const created = await todos.createTodo({ body: { title: 'from plain node' } });
const missing = await todos.getTodo({ id: 999 }).catch((e) => ({ status: e.status, message: e.body.message }));
const invalid = await todos.listTodos({ limit: 1000 }).catch((e) => ({ status: e.status, names: e.body.violations.map((v) => v.name) }));
const grpc = createEchoGrpcClient(grpcAddress);
const said = [await createEchoConnectClient({ baseUrl: url }).say({ sentence: 'connect' }), await grpc.say({ sentence: 'grpc' })];
const counted = [];
for await (const message of grpc.count({ to: 3 })) counted.push(message.number);
grpc.close();
console.log(JSON.stringify({ created: created.title, missing, invalid, said, counted }));
`,
      );
      const checked = await must(process.execPath, ['check-clients.mjs', server.url, server.grpc], app);
      expect(JSON.parse(checked.stdout)).toEqual({
        created: 'from plain node',
        missing: { status: 404, message: 'no to-do item 999' },
        invalid: { status: 400, names: ['limit'] },
        said: [{ sentence: 'connect' }, { sentence: 'grpc' }],
        counted: [1, 2, 3],
      });
    } finally {
      server.child.kill('SIGTERM');
    }
  }, 60_000);
});

describe('the generated REST and Connect clients in a browser', () => {
  let page: Server;
  let browser: Browser;
  let bundle: string;
  let inputs: string[];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`);
    }
    writeFileSync(
      join(app, 'browser-main.ts'),
      `import { createEchoConnectClient } from './generated/echo/v1/echo.client.js';
import { TodoClient } from './generated/todos.client.js';

const api = new URL(location.href).searchParams.get('api')!;
const todos = new TodoClient({ baseUrl: api });
const echo = createEchoConnectClient({ baseUrl: api });
try {
  const created = await todos.createTodo({ body: { title: 'from the browser' } });
  const listed = await todos.listTodos({ limit: 5 });
  const said = await echo.say({ sentence: 'hello from the browser' });
  const counted: number[] = [];
  for await (const message of echo.count({ to: 3 })) counted.push(message.number);
  document.body.dataset['result'] = JSON.stringify({ created: created.title, listed: listed.length, said, counted });
} catch (error) {
  document.body.dataset['result'] = JSON.stringify({ error: String(error) });
}
`,
    );
    const built = await esbuild({
      entryPoints: [join(app, 'browser-main.ts')],
      absWorkingDir: app,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    bundle = built.outputFiles[0]!.text;
    inputs = Object.keys(built.metafile.inputs);
    page = createServer((req, res) => {
      if (req.url === '/bundle.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script type="module" src="/bundle.js"></script>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run'],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    page?.close();
  });

  it('bundles without any Node module, grpc-js or protobufjs', () => {
    expect(inputs.some((input) => input.includes('node_modules/loom/'))).toBe(true);
    expect(inputs.filter((input) => /^node:|node_modules\/(@grpc|protobufjs|@protobufjs)\//.test(input))).toEqual([]);
    expect(bundle).not.toMatch(/from ["']node:|require\(["']node:/);
  });

  it('calls the server across origins, with CORS on', async () => {
    const origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    const server = await startServer(app, { CORS_ORIGIN: origin });
    try {
      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      await tab.goto(`${origin}/?api=${encodeURIComponent(server.url)}`);
      await tab.waitForFunction(() => document.body?.dataset['result'] !== undefined, undefined, { timeout: 30_000 });
      const result = JSON.parse((await tab.evaluate(() => document.body.dataset['result']))!);
      expect(errors).toEqual([]);
      expect(result).toEqual({ created: 'from the browser', listed: 1, said: { sentence: 'hello from the browser' }, counted: [1, 2, 3] });
    } finally {
      server.child.kill('SIGTERM');
    }
  }, 60_000);
});
