/**
 * `docs/extending-a-schema.md`, followed literally on a copy of the repository. Each block the
 * guide marks with `<!-- walkthrough: … -->` is a step, run in order: schema edits are inserted
 * where the marker says, commands are run, the code the guide says `loom implement` writes must be
 * in the file, the bodies it shows replace the stubs, and every answer it lists is asked of the
 * started server, over HTTP, Connect and gRPC. Then the parts of `npm test` these changes touch:
 * `generate --check`, the type-check, `implement --check`, and the tests that list the RPCs or
 * fake the service. Doc and test cannot drift: the test has no text of its own to apply.
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../support/server-harness.js';
import { REPO } from '../support/tsc-check.js';

const GUIDE = readFileSync(join(REPO, 'docs/extending-a-schema.md'), 'utf8');
const copy = mkdtempSync(join(tmpdir(), 'loom-guide-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** A marked block of the guide: what to do, and the block's text. */
interface Step {
  readonly directive: string;
  readonly text: string;
}

function steps(markdown: string): Step[] {
  return [...markdown.matchAll(/<!-- walkthrough: (.*?) -->\r?\n```\w*\r?\n([\s\S]*?)```/g)].map((m) => ({
    directive: m[1]!,
    text: m[2]!,
  }));
}

/** The repository as its working tree has it (tracked and new files), `node_modules` linked. */
function copyRepository(): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '');
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    try {
      cpSync(join(REPO, file), join(copy, file));
    } catch (error) {
      // A file deleted in the working tree but still in the index.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');
}

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: copy, maxBuffer: 64 << 20, env: { ...process.env, LOOM_DEBUG: '' } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function edit(path: string, change: (text: string) => string): void {
  const file = join(copy, path);
  const before = readFileSync(file, 'utf8');
  const after = change(before);
  expect(after, `the edit of ${path} changed nothing`).not.toBe(before);
  writeFileSync(file, after);
}

/** Inserts `block` as the guide's marker says: at the end of a `{ … }` opened by a line, at the end, or before a line. */
function insertInto(text: string, where: string, block: string): string {
  const lines = text.split('\n');
  const endOf = /^at the end of "(.*)"$/.exec(where);
  if (endOf) {
    const open = lines.indexOf(endOf[1]!);
    expect(open, `no line '${endOf[1]}'`).toBeGreaterThanOrEqual(0);
    const close = lines.findIndex((l, i) => i > open && l === '}');
    return [...lines.slice(0, close), '', ...block.replace(/\n$/, '').split('\n'), ...lines.slice(close)].join('\n');
  }
  if (where === 'at the end') return `${text.replace(/\n*$/, '\n')}\n${block}`;
  const before = /^before "(.*)"$/.exec(where);
  expect(before, `unknown place '${where}'`).not.toBeNull();
  const at = lines.indexOf(before![1]!);
  expect(at, `no line '${before![1]}'`).toBeGreaterThanOrEqual(0);
  return [...lines.slice(0, at), ...block.replace(/\n$/, '').split('\n'), ...lines.slice(at)].join('\n');
}

/** A method of a client grpc-js builds from a proto file. */
type UnaryCall = (request: object, callback: (error: grpc.ServiceError | null) => void) => void;

/** Calls the running server as one line of the guide's answers says, and checks the answer. */
async function check(server: ServerProcess, line: string): Promise<void> {
  const http = /^(GET|POST) (\S+)(?: (\{\S*\}))?\s+→ (\d{3})(?: (.*))?$/.exec(line);
  if (http) {
    const [, method, path, body, status, expected] = http;
    const res = await fetch(`${server.origin}${path}`, {
      method,
      ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
    });
    const text = await res.text();
    expect([line, res.status]).toEqual([line, Number(status)]);
    if (expected !== undefined) {
      // `…` ends an answer the guide shortens: what it shows must be how the answer starts.
      if (expected.endsWith('…')) expect([line, text.slice(0, expected.length - 1)]).toEqual([line, expected.slice(0, -1)]);
      else expect([line, text]).toEqual([line, expected]);
    }
    return;
  }
  const rpc = /^gRPC (\w+) (\{\S*\})\s+→ ([A-Z_]+) \((\d+)\)$/.exec(line);
  expect(rpc, `not an answer line: ${line}`).not.toBeNull();
  const [, method, request, name, code] = rpc!;
  const definition = protoLoader.loadSync(join(copy, 'schemas/system/v1alpha1/system.proto'), { enums: String, defaults: true });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    v1alpha1: { System: new (address: string, credentials: grpc.ChannelCredentials) => grpc.Client & Record<string, UnaryCall> };
  };
  const address = (server.ready['endpoints'] as Record<string, string>)['gRPC']!;
  const client = new loaded.v1alpha1.System(address, grpc.credentials.createInsecure());
  try {
    const status = await new Promise<number>((resolve) =>
      client[method!]!(JSON.parse(request!), (error: grpc.ServiceError | null) => resolve(error ? error.code : grpc.status.OK)),
    );
    expect([line, status, grpc.status[status]]).toEqual([line, Number(code), name]);
  } finally {
    client.close();
  }
}

/** The output of the guide's last `run` step. */
let output = '';

/** Does what one step of the guide says. */
async function follow(step: Step): Promise<void> {
  const { directive, text } = step;
  const editing = /^edit (\S+), (.*)$/.exec(directive);
  const has = /^(\S+) now has$/.exec(directive);
  const replace = /^in (\S+), replace "(.*)" with$/.exec(directive);
  if (editing) {
    edit(editing[1]!, (file) => insertInto(file, editing[2]!, text));
  } else if (directive === 'run') {
    output = '';
    for (const command of text.trim().split('\n')) {
      const [program, ...args] = command.trim().split(/\s+/);
      const result = await run(program!, args);
      expect(result.code, `${command}: ${result.stderr}`).toBe(0);
      output += result.stdout;
    }
  } else if (directive === 'output of npm run implement') {
    for (const line of text.trimEnd().split('\n')) expect(output.split('\n')).toContain(line);
  } else if (has) {
    expect(readFileSync(join(copy, has[1]!), 'utf8')).toContain(text);
  } else if (replace) {
    edit(replace[1]!, (file) => {
      const lines = file.split('\n');
      const at = lines.findIndex((l) => l.trim() === replace[2]);
      expect(at, `no line '${replace[2]}' in ${replace[1]}`).toBeGreaterThanOrEqual(0);
      return [...lines.slice(0, at), ...text.replace(/\n$/, '').split('\n'), ...lines.slice(at + 1)].join('\n');
    });
  } else if (directive === 'answers' || directive === 'answers before the body') {
    const server = await startServerProcess({ root: copy, env: { LOOM_DEMO: '1' } });
    try {
      for (const line of text.trimEnd().split('\n')) await check(server, line);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
  } else if (directive === 'test') {
    expect(text.trim()).toBe('npm test');
    // `npm test` is generate --check, the type-check and vitest; the whole suite runs in this
    // repository's own `npm test`, so here: the checks, and the tests these changes touch.
    for (const args of [
      ['run', '--silent', 'generate', '--', '--check'],
      ['run', '--silent', 'typecheck'],
      ['run', '--silent', 'implement', '--', '--check'],
    ]) {
      const result = await run('npm', args);
      expect(result.code, `npm ${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
    const tests = await run('npx', [
      'vitest',
      'run',
      'test/rpc/connect-body-limit.test.ts',
      'test/rpc/connect-routes-class.test.ts',
      'test/loaders/system-proto.test.ts',
      'test/generator/pipeline.test.ts',
      'test/server/docs-browser.test.ts',
      'runtime/system/system-handler.test.ts',
    ]);
    const summary = tests.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(tests.code, summary.slice(-3000)).toBe(0);
    expect(summary).toMatch(/Test Files {2}6 passed \(6\)/);
  } else {
    throw new Error(`the guide has a step this test cannot follow: ${directive}`);
  }
}

const walkthrough = steps(GUIDE);
const openapi = walkthrough.findIndex((s) => s.directive.startsWith('edit schemas/issues/openapi.yaml'));
const testing = walkthrough.findIndex((s) => s.directive === 'test');

// One walkthrough in three parts, in order (they share the copy); each starts servers and runs tools,
// so each has minutes, not the default minute, on a machine running the whole suite.
describe('docs/extending-a-schema.md, followed literally', () => {
  it('has the steps this test follows: the RPC, then the operation, then the tests', () => {
    expect([openapi > 0, testing > openapi, testing]).toEqual([true, true, walkthrough.length - 1]);
    copyRepository();
  });

  it('adds the RPC; the stub and the body answer over Connect and gRPC as the guide says', { timeout: 300_000 }, async () => {
    for (const step of walkthrough.slice(0, openapi)) await follow(step);
  });

  it('adds the operation; the stub and the body answer over HTTP as the guide says', { timeout: 300_000 }, async () => {
    for (const step of walkthrough.slice(openapi, testing)) await follow(step);
  });

  it("passes npm test's checks and the tests these changes touch", { timeout: 600_000 }, async () => {
    await follow(walkthrough[testing]!);
  });
});
