/**
 * `docs/getting-started.md`, performed literally: every command of its `sh` blocks runs, in order,
 * in a home folder of its own (`~/src/loom` is this repository), so the toolkit is packed with
 * `npm pack`, a project is made with `loom init` from the tarball outside this repository,
 * installed from the npm registry, generated, served, called, tested and built for production as
 * a user would. Only `npm ci` in the Loom clone is not re-run: CI ran it before this test, and
 * re-installing the repository under the running tests would pull files from under them.
 *
 * On the project the guide leaves behind, the test then checks what the guide promises but does
 * not show: the package carries the compiled toolkit and nothing of the services; plain `tsc` 5
 * compiles it with `moduleResolution` NodeNext and Bundler, and TypeScript 7 does too; the server
 * on plain `node` answers the generated REST, Connect and gRPC clients of another process; and the
 * REST and Connect clients, bundled by esbuild for the browser, carry no Node module, gRPC or
 * protobufjs and run in Chromium against the server with CORS on.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, requireChromium } from '../support/chromium.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const GUIDE = join(REPO, 'docs/getting-started.md');
const TSC7 = join(REPO, 'node_modules/.bin/tsc');

/** The guide's commands, by section (`## …` heading), in order. */
function guideSections(): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let section = '';
  let inSh = false;
  for (const line of readFileSync(GUIDE, 'utf8').split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3).trim();
    else if (line === '```sh') inSh = true;
    else if (line === '```') inSh = false;
    else if (inSh && line.trim() !== '' && !line.trim().startsWith('#')) {
      if (!sections.has(section)) sections.set(section, []);
      sections.get(section)!.push(line.trim());
    }
  }
  return sections;
}

/** A free TCP port on loopback. */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let home: string;
let httpPort: number;
let grpcPort: number;

/**
 * The environment of a command run as the user: this process's, without the `npm_*` variables
 * `npm test` sets (a nested npm would read them as its own configuration) but with the registry
 * and cache npm was given, `HOME` the test's home folder, and the server's ports.
 */
function userEnv(): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_registry', 'npm_config_cache', 'npm_config_userconfig']);
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_') || keep.has(key)));
  const cache = process.env['npm_config_cache'] ?? join(process.env['HOME'] ?? '/root', '.npm');
  return { ...env, HOME: home, npm_config_cache: cache, PORT: String(httpPort), GRPC_PORT: String(grpcPort) };
}

/** The guide's ports are 3000 and 50051; the test's are free ones, so that nothing else running here answers. */
function withPorts(command: string): string {
  return command.replaceAll(':3000', `:${httpPort}`).replaceAll(':50051', `:${grpcPort}`);
}

interface Ran {
  readonly command: string;
  readonly stdout: string;
}

/** A command of the guide, run by bash in `cwd`; it must succeed. */
function runLine(command: string, cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', withPorts(command)], { cwd, env: userEnv(), maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      error ? reject(new Error(`\`${command}\` (in ${cwd}) failed: ${error.message}\n${stdout}\n${stderr}`)) : resolve({ command, stdout }),
    );
  });
}

/** A command the guide runs in the background (`… &`): started, and awaited until it listens. */
function startBackground(command: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<ChildProcess> {
  const child = spawn('bash', ['-c', `exec ${withPorts(command)}`], { cwd, env: { ...userEnv(), ...env }, detached: true });
  let output = '';
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (/HTTP http:\/\/\S+ .*gRPC \S+/.test(output)) resolve(child);
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', (code) => reject(new Error(`\`${command}\` exited (${code}) before it listened:\n${output}`)));
  });
}

/** Stops a background command and everything it started (npm → sh → node). */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

/** Runs one section of the guide: `cd` moves, `… &` runs in the background until the section ends. */
async function performSection(name: string, cwd: { dir: string }, outputs: Ran[]): Promise<void> {
  const commands = guideSections().get(name);
  if (!commands) throw new Error(`docs/getting-started.md has no section '${name}' with commands`);
  const background: ChildProcess[] = [];
  try {
    for (const command of commands) {
      const cd = /^cd (\S+)$/.exec(command);
      if (cd) cwd.dir = resolve(cwd.dir, cd[1]!.replace(/^~/, home));
      else if (command === 'npm ci' && cwd.dir === join(home, 'src/loom'))
        continue; // CI ran it (see the module comment)
      else if (command.endsWith(' &')) background.push(await startBackground(command.slice(0, -2), cwd.dir));
      else outputs.push(await runLine(command, cwd.dir));
    }
  } finally {
    for (const child of background) await stop(child);
  }
}

const outputs: Ran[] = [];
const cwd = { dir: '' };
let app: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'loom-home-'));
  mkdirSync(join(home, 'src'));
  symlinkSync(REPO, join(home, 'src/loom'));
  cwd.dir = home;
  [httpPort, grpcPort] = [await freePort(), await freePort()];
});

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

/** The JSON a `curl` of the guide printed: the `nth` run of the command that `matches`. */
function curled(matches: (command: string) => boolean, nth = 0): unknown {
  const found = outputs.filter((o) => o.command.startsWith('curl') && matches(o.command))[nth];
  if (!found) throw new Error('no such curl ran');
  return JSON.parse(found.stdout);
}

const LIST = (command: string) => command === 'curl -s http://127.0.0.1:3000/api/todos';

describe('docs/getting-started.md, performed', () => {
  it('1. packs the toolkit from the clone', async () => {
    expect(guideSections().get('1. Get the package')).toContain('npm ci');
    await performSection('1. Get the package', cwd, outputs);
    expect(existsSync(join(home, 'loom-0.1.0.tgz'))).toBe(true);
  }, 120_000);

  it('2. starts a project with loom init outside the repository and installs it from the registry', async () => {
    await performSection('2. Start a project', cwd, outputs);
    app = join(home, 'my-app');
    expect(cwd.dir).toBe(app);
    expect(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).dependencies.loom).toBe('file:../loom-0.1.0.tgz');
    expect(existsSync(join(app, 'generated/todos.validators.ts'))).toBe(true);
  }, 600_000);

  it('3. serves the project and answers the calls shown, then passes its own test', async () => {
    await performSection('3. Serve and call', cwd, outputs);
    expect(curled((c) => c.includes('Read the guide'))).toMatchObject({ id: 1, title: 'Read the guide', done: false });
    expect(curled(LIST)).toMatchObject([{ id: 1, title: 'Read the guide' }]);
    expect(curled((c) => c.includes('/echo.v1.Echo/Say'))).toEqual({ sentence: 'hello' });
    expect(curled((c) => c.includes(`'{"title":""}'`))).toMatchObject({ status: 400, violations: [{ location: 'body' }] });
    const test = outputs.find((o) => o.command === 'npm test')!;
    expect(test.stdout).toMatch(/^# pass 2$/m);
    expect(test.stdout).toMatch(/^# fail 0$/m);
  }, 300_000);

  it('4. regenerates and keeps the handlers in step', async () => {
    // The change the section invites: an RPC added to the proto service.
    const proto = join(app, 'schemas/echo/v1/echo.proto');
    const text = readFileSync(proto, 'utf8');
    writeFileSync(
      proto,
      text.replace(
        '  rpc Count(',
        '  // Shout answers with the sentence in capitals.\n  rpc Shout(SayRequest) returns (SayResponse);\n\n  rpc Count(',
      ),
    );
    await performSection('4. Change a schema', cwd, outputs);
    const handler = readFileSync(join(app, 'src/handlers/echo.ts'), 'utf8');
    expect(handler).toContain('   * Shout answers with the sentence in capitals.\n');
    expect(handler).toMatch(
      /async shout\(request: SayRequest, ctx: RpcContext\): Promise<SayResponse> \{\n\s+throw new RpcError\('unimplemented'/,
    );
    await runLine('npx tsc --noEmit', app);
    expect((await runLine('npm run implement -- --check', app)).stdout).not.toContain('missing');
  }, 120_000);
});

describe('the project, as the guide leaves it', () => {
  it('has the compiled toolkit and nothing of the services', () => {
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
    // Compiled with the project's plain tsc 5; the validators compiled with it, no .js left beside the sources.
    expect(existsSync(join(app, 'dist/generated/todos.validators.js'))).toBe(true);
    expect(existsSync(join(app, 'generated/todos.validators.js'))).toBe(false);
  });

  it('refuses a second loom init, writing nothing', async () => {
    const before = readFileSync(join(app, 'package.json'), 'utf8');
    await expect(runLine('npx loom init', app)).rejects.toThrow(/these files exist and would be overwritten:\n {2}\.gitignore\n/);
    expect(readFileSync(join(app, 'package.json'), 'utf8')).toBe(before);
  });

  it('type-checks with tsc 5 and 7, moduleResolution NodeNext and Bundler', async () => {
    expect((await runLine('npx tsc --version', app)).stdout).toMatch(/^Version 5\./);
    writeFileSync(
      join(app, 'tsconfig.bundler.json'),
      JSON.stringify({ extends: './tsconfig.json', compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', noEmit: true } }),
    );
    await runLine('npx tsc -p tsconfig.bundler.json', app);
    expect((await runLine(`${TSC7} --version`, app)).stdout).toMatch(/^Version 7\./);
    await runLine(`${TSC7} -p tsconfig.json --noEmit`, app);
    await runLine(`${TSC7} -p tsconfig.bundler.json`, app);
  }, 120_000);

  it('runs on plain node and answers the generated REST, Connect and gRPC clients of another process', async () => {
    const server = await startBackground('node dist/src/server.js', app);
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
      const checked = await runLine(`node check-clients.mjs http://127.0.0.1:${httpPort} 127.0.0.1:${grpcPort}`, app);
      expect(JSON.parse(checked.stdout)).toEqual({
        created: 'from plain node',
        missing: { status: 404, message: 'no to-do item 999' },
        invalid: { status: 400, names: ['limit'] },
        said: [{ sentence: 'connect' }, { sentence: 'grpc' }],
        counted: [1, 2, 3],
      });
    } finally {
      await stop(server);
    }
  }, 60_000);
});

describe('the generated REST and Connect clients in a browser', () => {
  let page: Server;
  let browser: Browser;
  let bundle: string;
  let inputs: string[];

  beforeAll(async () => {
    requireChromium();
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
    page = createHttpServer((req, res) => {
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
    const server = await startBackground('node dist/src/server.js', app, { CORS_ORIGIN: origin });
    try {
      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      await tab.goto(`${origin}/?api=${encodeURIComponent(`http://127.0.0.1:${httpPort}`)}`);
      await tab.waitForFunction(() => document.body?.dataset['result'] !== undefined, undefined, { timeout: 30_000 });
      const result = JSON.parse((await tab.evaluate(() => document.body.dataset['result']))!);
      expect(errors).toEqual([]);
      expect(result).toEqual({ created: 'from the browser', listed: 1, said: { sentence: 'hello from the browser' }, counted: [1, 2, 3] });
    } finally {
      await stop(server);
    }
  }, 60_000);
});

describe('docs/getting-started.md, performed to the end', () => {
  it('5. builds for production, installs without development dependencies and serves on plain node', async () => {
    await performSection('5. Build and deploy', cwd, outputs);
    expect(curled(LIST, 1)).toEqual([]);
    expect(existsSync(join(app, 'node_modules/typescript'))).toBe(false);
  }, 300_000);
});
