import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GENERATOR_VERSION } from '../emit.js';
import { runCli } from './cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'loom-init-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function loom(argv: string[], cwd = tmp): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { cwd, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

describe('loom init', () => {
  it('writes the starter project, named after its folder, depending on this version of Loom', async () => {
    const result = await loom(['init', 'My App']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('loom: created a project in My App (10 files)');
    expect(result.stdout).toContain('  cd "My App"\n  npm install\n');
    const dir = join(tmp, 'My App');
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'my-app', type: 'module', dependencies: { loom: `^${GENERATOR_VERSION}` } });
    expect(Object.keys(manifest.scripts)).toEqual(expect.arrayContaining(['generate', 'build', 'start', 'test']));
    // Stored as `gitignore` in the package (npm pack drops `.gitignore` files), written under its real name.
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toContain('node_modules/');
    for (const file of ['schemas/todos.yaml', 'schemas/echo/v1/echo.proto', 'src/server.ts', 'test/server.test.ts', 'tsconfig.json']) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
  });

  it('takes the package name and the dependency on Loom from options', async () => {
    expect((await loom(['init', 'named', '--name', '@acme/api', '--loom', 'file:../loom-0.1.0.tgz'])).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(tmp, 'named', 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@acme/api', dependencies: { loom: 'file:../loom-0.1.0.tgz' } });
  });

  it('refuses to overwrite: names every existing file and writes nothing', async () => {
    const dir = join(tmp, 'taken');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src/server.ts'), '// mine\n');
    writeFileSync(join(dir, 'README.md'), '# mine\n');
    const result = await loom(['init'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `loom: not creating a project in ${dir}: these files exist and would be overwritten:\n` +
        '  README.md\n  src/server.ts\nNothing was written.\n',
    );
    expect(existsSync(join(dir, 'package.json'))).toBe(false);
    expect(readFileSync(join(dir, 'src/server.ts'), 'utf8')).toBe('// mine\n');
  });

  it('explains itself, and refuses what it does not understand', async () => {
    expect((await loom(['init', '--help'])).stdout).toContain('Usage: loom init [dir] [options]');
    expect((await loom(['help', 'init'])).stdout).toContain('--loom <spec>');
    expect(await loom(['init', 'a', 'b'])).toMatchObject({ code: 2 });
    expect((await loom(['init', '--frobnicate'])).stderr).toContain("unknown option '--frobnicate'");
  });
});
