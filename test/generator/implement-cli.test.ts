/**
 * `loom implement` from the command line: what it prints, its exit codes (0 done, 1 `--check`
 * found something missing, 2 bad input), files it cannot write, the repository's own handlers,
 * and that ts-morph is loaded by this command and never by `loom generate`.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../generator/cli/cli.js';
import { IMPLEMENT_HELP, MAIN_HELP } from '../../generator/cli/help.js';
import { REPO } from '../support/tsc-check.js';
import { FIXTURE, PETS_HANDLER, PETS_YAML, project, SHOP_HANDLER } from './implement-fixture.js';

const tmp = mkdtempSync(join(tmpdir(), 'loom-implement-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function loom(args: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { cwd, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('loom implement', () => {
  it('has its own --help, and the main help lists it', async () => {
    const help = await loom(['implement', '--help'], tmp);
    expect([help.code, help.stdout]).toEqual([0, IMPLEMENT_HELP]);
    expect((await loom(['help', 'implement'], tmp)).stdout).toBe(IMPLEMENT_HELP);
    expect(MAIN_HELP).toContain('\n  implement  Keep hand-written handlers in step with the generated contracts');
  });

  it('--check exits 1 with what is missing; a run adds it; then --check exits 0 and a second run changes nothing', async () => {
    const dir = await project();
    const check = await loom(['implement', 'handlers', '--contracts', 'gen', '--check'], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(
      "loom: handlers lack what the contracts declare; run 'loom implement handlers':\n" +
        '  missing  handlers/pets-handler.ts  PetsHandler.getPet (PetsApi)\n' +
        '  missing  handlers/shop-handler.ts  ShopHandler.watchItems (ShopService)\n' +
        '  no file  StoreApi has no implementation; would write handlers/store-handler.ts: ' +
        'StoreHandler implements StoreApi (1 method, named like handlers/pets-handler.ts)\n',
    );
    expect(readFileSync(join(dir, 'handlers/pets-handler.ts'), 'utf8')).toBe(PETS_HANDLER);
    expect(existsSync(join(dir, 'handlers/store-handler.ts'))).toBe(false);

    const run = await loom(['implement', 'handlers', '--contracts', 'gen'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        '^  added    handlers/pets-handler\\.ts:27  PetsHandler\\.getPet \\(PetsApi\\)\n' +
          '  added    handlers/shop-handler\\.ts:15  ShopHandler\\.watchItems \\(ShopService\\)\n' +
          '  wrote    handlers/store-handler\\.ts  ' +
          'StoreHandler implements StoreApi \\(1 method, named like handlers/pets-handler\\.ts\\)\n' +
          'loom: 3 methods added, 1 new file \\(2 classes, 3 contracts, \\d+\\.\\d\\d s\\)\n' +
          'loom: register StoreHandler where the app builds its routes \\(next to the other handlers\\)\n$',
      ),
    );

    const written = ['pets-handler.ts', 'shop-handler.ts', 'store-handler.ts'].map((f) => join(dir, 'handlers', f));
    const stamps = written.map((f) => [readFileSync(f, 'utf8'), statSync(f).mtimeMs]);
    const again = await loom(['implement', 'handlers', '--contracts', 'gen'], dir);
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(again.stdout).toMatch(/^loom: 0 methods added, 0 new files \(3 classes, 3 contracts, \d+\.\d\d s\)\n$/);
    expect(written.map((f) => [readFileSync(f, 'utf8'), statSync(f).mtimeMs])).toEqual(stamps);
    const clean = await loom(['implement', 'handlers', '--contracts', 'gen', '--check'], dir);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/^loom: handlers are up to date \(3 classes, 3 contracts, \d+\.\d\d s\)\n$/);
  });

  it('lists methods no contract declares any more as warnings with file and line, and exits 0', async () => {
    const yaml = PETS_YAML.replace(/ {2}\/pets:\n[\s\S]*?(?= {2}\/pets\/\{id\}:)/, '');
    const dir = await project({ ...FIXTURE, 'schemas/pets.yaml': yaml });
    const run = await loom(['implement', 'handlers', '--contracts', 'gen', '--check'], dir);
    expect(run.stderr).toContain(
      'handlers/pets-handler.ts:14: warning: PetsHandler.listPets is in none of PetsApi (removed from the schema?); ' +
        'nothing calls it through the contract: delete it, or make it private if the class uses it\n',
    );
  });

  it('refuses to write when one file is read-only, and writes none of the others', async () => {
    const dir = await project();
    const pets = join(dir, 'handlers/pets-handler.ts');
    chmodSync(pets, 0o444);
    try {
      const run = await loom(['implement', 'handlers', '--contracts', 'gen'], dir);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        'handlers/pets-handler.ts: error: cannot write: the file is read-only; make it writable (chmod u+w) and run again\n' +
          'loom: 1 error; nothing was written\n',
      );
      expect(readFileSync(pets, 'utf8')).toBe(PETS_HANDLER);
      expect(readFileSync(join(dir, 'handlers/shop-handler.ts'), 'utf8')).toBe(SHOP_HANDLER);
      expect(existsSync(join(dir, 'handlers/store-handler.ts'))).toBe(false);
    } finally {
      chmodSync(pets, 0o644);
    }
  });

  it('names a file that does not parse, with its line, and writes nothing', async () => {
    const dir = await project({ ...FIXTURE, 'handlers/shop-handler.ts': SHOP_HANDLER.replace("name: 'Lamp' };", "name: 'Lamp' ;") });
    const run = await loom(['implement', 'handlers', '--contracts', 'gen'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "handlers/shop-handler.ts:6: error: cannot parse: ',' expected; fix the syntax, then run again\nloom: 1 error; nothing was written\n",
    );
    expect(readFileSync(join(dir, 'handlers/pets-handler.ts'), 'utf8')).toBe(PETS_HANDLER);
  });

  it('answers bad usage with exit 2', async () => {
    const dir = await project();
    expect(await loom(['implement'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: "loom: no handler folders given\nRun 'loom implement --help' for usage.\n",
    });
    expect((await loom(['implement', 'handlers', '--contracts', 'nowhere'], dir)).stderr).toBe(
      "loom: the contracts folder nowhere does not exist; pass --contracts <the --out folder of 'loom generate'>\n",
    );
    expect((await loom(['implement', 'handlers', '--new-file', 'x.ts'], dir)).code).toBe(2);
    expect((await loom(['implement', 'absent', '--contracts', 'gen'], dir)).stderr).toBe('loom: no such handler folder: absent\n');
  });

  it("finds nothing missing in this repository's handlers", async () => {
    const run = await loom(['implement', 'runtime', '--check'], REPO);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});

describe('ts-morph', () => {
  /** Runs `bin/loom.js` with a module hook that records (or, `missing`, refuses) every import of ts-morph. */
  function loomProcess(
    args: string[],
    cwd: string,
    mode: 'record' | 'missing',
  ): Promise<{ code: number; stderr: string; loaded: boolean }> {
    const log = join(tmp, `ts-morph-${Math.random().toString(36).slice(2)}.log`);
    const hook = join(tmp, 'hook.mjs');
    writeFileSync(
      hook,
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  if (specifier === 'ts-morph' || specifier.startsWith('ts-morph/')) {
    appendFileSync(process.env.TS_MORPH_LOG, specifier + '\\n');
    if (process.env.TS_MORPH_MODE === 'missing') {
      throw Object.assign(new Error("Cannot find package 'ts-morph'"), { code: 'ERR_MODULE_NOT_FOUND' });
    }
  }
  return next(specifier, context);
}
`,
    );
    const register = join(tmp, 'register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', pathToFileURL(register).href, join(REPO, 'bin/loom.js'), ...args],
        { cwd, env: { ...process.env, TS_MORPH_LOG: log, TS_MORPH_MODE: mode } },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stderr, loaded: existsSync(log) }),
      );
    });
  }

  it('is never loaded by loom generate, and is by loom implement', async () => {
    const dir = await project();
    const generate = await loomProcess(['generate', 'schemas', '--out', 'gen'], dir, 'record');
    expect([generate.code, generate.loaded]).toEqual([0, false]);
    const implement = await loomProcess(['implement', 'handlers', '--contracts', 'gen', '--check'], dir, 'record');
    expect([implement.code, implement.loaded]).toEqual([1, true]);
  });

  it('when missing, loom implement says what to install and exits 2', async () => {
    const dir = await project();
    const run = await loomProcess(['implement', 'handlers', '--contracts', 'gen'], dir, 'missing');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "loom: 'loom implement' needs ts-morph, which is not installed: run 'npm install --save-dev ts-morph' and try again\n",
    );
  });
});
