import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, isDistFresh, PACKAGE_DIR, STAMP_FILE, sourceDigest, TOOLKIT_SOURCES } from './build.js';
import { runCli } from './cli.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe('sourceDigest / isDistFresh', () => {
  const root = mkdtempSync(join(tmpdir(), 'loom-digest-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('tsconfig.json', '{}');
  write('generator/emit.ts', 'export const a = 1;\n');
  write('generator/cli/main.ts', 'export {};\n');
  write('generator/cli/main.test.ts', 'test\n');

  it('changes with any compiled source, template, runtime module or tsconfig, not with tests', () => {
    const start = sourceDigest(root);
    write('generator/cli/main.test.ts', 'test, edited\n');
    expect(sourceDigest(root)).toBe(start);
    write('generator/cli/main.ts', 'export {}; // edited\n');
    const edited = sourceDigest(root);
    expect(edited).not.toBe(start);
    write('generator/loaders/new.ts', '');
    expect(sourceDigest(root)).not.toBe(edited);
    const added = sourceDigest(root);
    write('tsconfig.json', '{ "compilerOptions": {} }');
    expect(sourceDigest(root)).not.toBe(added);
    const configured = sourceDigest(root);
    // Templates are precompiled into dist/: an edited one makes it stale too.
    write('templates/types/interface.hbs', 'export interface {{name}} {}\n');
    expect(sourceDigest(root)).not.toBe(configured);
    const templated = sourceDigest(root);
    // The runtime libraries are part of the package; the services beside them are not.
    write('runtime/rest/router.ts', 'export {};\n');
    expect(sourceDigest(root)).not.toBe(templated);
    const withRuntime = sourceDigest(root);
    write('runtime/issues/store.ts', 'export {};\n');
    expect(sourceDigest(root)).toBe(withRuntime);
  });

  it('is fresh only with a stamp naming the current digest', () => {
    expect(isDistFresh(root)).toBe(false);
    mkdirSync(join(root, PACKAGE_DIR, 'dist'), { recursive: true });
    writeFileSync(join(root, PACKAGE_DIR, 'dist', STAMP_FILE), JSON.stringify({ digest: sourceDigest(root) }));
    expect(isDistFresh(root)).toBe(true);
    write('generator/emit.ts', 'export const a = 2;\n');
    expect(isDistFresh(root)).toBe(false);
  });
});

/** Every file under `dir`, as relative path → content. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { ...process.env, ...env }, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// A copy of what the package is built from (generator and toolkit runtime sources, bins,
// tsconfig files, the package's manifest) in a scratch folder inside the repository, so
// `node_modules` resolves, with `templates/` linked: built, then run.
describe('the compiled toolkit (npm run build:toolkit, bin/loom.js)', () => {
  let pkg: string;
  let dist: string;
  let expected: Record<string, string>;
  const args = (out: string) => ['generate', join(REPO, 'schemas'), '--out', out, '--quiet', '--runtime', '../runtime/entries'];

  beforeAll(async () => {
    mkdirSync(join(REPO, '.tmp'), { recursive: true });
    pkg = mkdtempSync(join(REPO, '.tmp', 'build-test-'));
    // Every folder the build reads (TOOLKIT_SOURCES), so that a folder the toolkit gains is copied too.
    for (const d of TOOLKIT_SOURCES) {
      if (d === 'templates') symlinkSync(join(REPO, d), join(pkg, d));
      else cpSync(join(REPO, d), join(pkg, d), { recursive: true });
    }
    cpSync(join(REPO, 'bin'), join(pkg, 'bin'), { recursive: true });
    for (const f of ['package.json', 'tsconfig.json', 'tsconfig.package.json']) cpSync(join(REPO, f), join(pkg, f));
    for (const d of [`${PACKAGE_DIR}/bin`, `${PACKAGE_DIR}/package.json`]) cpSync(join(REPO, d), join(pkg, d), { recursive: true });
    build(pkg);
    dist = join(pkg, PACKAGE_DIR, 'dist');
    // What the TypeScript sources produce, in process: the reference every run must match.
    const ts = join(pkg, 'out-ts');
    const code = await runCli(args(ts), { cwd: pkg, stdout: () => {}, stderr: (t) => process.stderr.write(t) });
    expect(code).toBe(0);
    expected = tree(ts);
  });
  afterAll(() => rmSync(pkg, { recursive: true, force: true }));

  it('builds the runtime entries into dist/runtime as JavaScript with declarations, importable by plain Node', async () => {
    for (const entry of ['rest', 'client', 'connect', 'grpc']) {
      expect(readdirSync(join(dist, 'runtime/entries'))).toEqual(expect.arrayContaining([`${entry}.js`, `${entry}.d.ts`]));
    }
    // Loaded by URL, not imported: copied beside the compiled pool.
    expect(readdirSync(join(dist, 'runtime/rest/worker'))).toContain('worker-main.js');
    // The services are not part of the package.
    expect(readdirSync(join(dist, 'runtime')).sort()).toEqual(['client', 'entries', 'rest', 'rpc', 'util']);
    const script = `const s = await import(${JSON.stringify(join(dist, 'runtime/entries/rest.js'))});
      const c = await import(${JSON.stringify(join(dist, 'runtime/entries/client.js'))});
      process.stdout.write([typeof s.createRestRouter, typeof s.QueryParam, typeof c.HttpClient].join(' '));`;
    // Plain Node, no TypeScript loader: what a user's `node dist/server.js` does.
    expect(await run(process.execPath, ['--input-type=module', '-e', script])).toEqual({
      code: 0,
      stdout: 'function function function',
      stderr: '',
    });
  });

  it('builds dist/ with a stamp matching the sources, the templates precompiled and copied, and the CLI bundled', () => {
    expect(isDistFresh(pkg)).toBe(true);
    const precompiled = readFileSync(join(dist, 'templates', 'precompiled.cjs'), 'utf8');
    expect(precompiled).toContain('"types/interface": {');
    expect(readdirSync(join(dist, 'templates', 'types'))).toContain('interface.hbs');
    // Written into the build's copy of templates/, never into the (linked) sources.
    expect(readdirSync(join(REPO, 'templates'))).not.toContain('precompiled.cjs');
    expect(readdirSync(join(dist, 'generator', 'cli'))).toContain('validators-worker.js');
    // The bundle: the command and its worker side by side, the modules they share in chunks.
    const bundle = readdirSync(join(dist, 'cli'));
    expect(bundle).toEqual(expect.arrayContaining(['loom.js', 'validators-worker.js']));
    expect(bundle.filter((f) => f.startsWith('chunk-')).length).toBeGreaterThan(0);
    expect(readdirSync(join(dist, 'generator', 'cli')).filter((f) => f.endsWith('.test.js'))).toEqual([]);
  });

  it('runs dist/ when fresh and writes the same bytes as the TypeScript sources', async () => {
    const out = join(pkg, 'out-dist');
    const result = await run(process.execPath, [join(pkg, 'bin', 'loom.js'), ...args(out)], { LOOM_DEBUG: '1', LOOM_CACHE: '0' });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(Object.keys(expected)).toContain('issues/openapi.validators.ts');
    expect(tree(out)).toEqual(expected);
  });

  it('writes nothing when a schema fails, with the compiled build as with the sources', async () => {
    const schema = join(pkg, 'bad-pattern.yaml');
    writeFileSync(
      schema,
      [
        'openapi: 3.1.0',
        'info: { title: Bad, version: "1" }',
        'paths: {}',
        'components:',
        '  schemas:',
        '    Code:',
        '      type: string',
        "      pattern: '('",
      ].join('\n'),
    );
    const out = join(pkg, 'out-bad');
    mkdirSync(out);
    writeFileSync(join(out, 'keep.txt'), 'hand-written\n');
    const result = await run(process.execPath, [join(pkg, 'bin', 'loom.js'), 'generate', schema, '--out', out, '--quiet'], {
      LOOM_CACHE: '0',
    });
    expect(result.code).toBe(2);
    // Found while loading, where the location is known, not when the validators compile.
    expect(result.stderr).toBe(
      'bad-pattern.yaml:8 (/components/schemas/Code/pattern): error: pattern "(" is not a valid regular expression' +
        ' (Invalid regular expression: /(/: Unterminated group); fix it: patterns are ECMA-262 regular expressions;' +
        ' to generate anyway, pass --lenient (the pattern is not checked)\n' +
        'loom: 1 error; nothing was written\n',
    );
    expect(tree(out)).toEqual({ 'keep.txt': 'hand-written\n' });
  });

  it('compiles validators on the worker thread of the compiled build', async () => {
    const script = `
      const { startValidatorsCompiler } = await import(${JSON.stringify(join(dist, 'generator/cli/validators-prefetch.js'))});
      const compiler = startValidatorsCompiler();
      const doc = { $id: 'loom:t', $defs: { Pet: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } } };
      const bad = { $id: 'loom:bad', $defs: { X: { type: 'string', pattern: '(' } } };
      const job = (key, documents, exports) => ({ key, input: { documents, exports }, documentsJson: JSON.stringify(documents) });
      const out = await compiler.compile([
        job('ok', [doc], new Map([['validatePet', 'loom:t#/$defs/Pet']])),
        job('bad', [bad], new Map([['validateX', 'loom:bad#/$defs/X']])),
      ]);
      compiler.close();
      process.stdout.write(JSON.stringify([...out.keys()]) + '\\n' + out.get('ok'));`;
    const result = await run(process.execPath, ['--input-type=module', '-e', script]);
    expect(result.stderr).toBe('');
    const [keys, ...code] = result.stdout.split('\n');
    // The schema with an invalid pattern is left out: the emitter recompiles it and reports it.
    expect(keys).toBe('["ok"]');
    expect((JSON.parse(code.join('\n')) as { code: string }).code).toMatch(/^export const validatePet = X\(v\d+\);$/m);
  });

  it('falls back to the TypeScript sources once a source changes, with the same output', async () => {
    appendFileSync(join(pkg, 'generator', 'emit.ts'), '\n// edited after the build\n');
    expect(isDistFresh(pkg)).toBe(false);
    const out = join(pkg, 'out-stale');
    const result = await run(process.execPath, [join(pkg, 'bin', 'loom.js'), ...args(out)], { LOOM_DEBUG: '1', LOOM_CACHE: '0' });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'loom: packages/loom/dist is missing or older than the sources (npm run build:toolkit); running the TypeScript sources\n',
    );
    expect(tree(out)).toEqual(expected);
  });
});
