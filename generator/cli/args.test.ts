import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from './args.js';
import { commonParent } from './inputs.js';

describe('parseArgs', () => {
  it('reads every option of generate, in both spellings', () => {
    expect(
      parseArgs([
        'generate',
        'schemas',
        'more/api.yaml',
        '--out=gen',
        '-I',
        'vendor',
        '-Ithird_party',
        '--runtime',
        '../runtime/entries',
        '--templates',
        't1',
        '--templates=t2',
        '--plugin',
        './p.mjs',
        '--check',
        '-q',
        '--lenient',
      ]),
    ).toEqual({
      command: 'generate',
      inputs: ['schemas', 'more/api.yaml'],
      out: 'gen',
      importPaths: ['vendor', 'third_party'],
      runtime: '../runtime/entries',
      templates: ['t1', 't2'],
      plugins: ['./p.mjs'],
      check: true,
      watch: false,
      quiet: true,
      lenient: true,
    });
  });

  it('defaults the runtime to the package entry', () => {
    expect(parseArgs(['generate', 'a.proto', '-o', 'out'])).toMatchObject({ runtime: 'loom', check: false, watch: false });
  });

  it('routes help and version', () => {
    expect(parseArgs([])).toEqual({ command: 'usage' });
    expect(parseArgs(['--help'])).toEqual({ command: 'help' });
    expect(parseArgs(['help', 'generate'])).toEqual({ command: 'help', topic: 'generate' });
    expect(parseArgs(['generate', '--help'])).toEqual({ command: 'help', topic: 'generate' });
    expect(parseArgs(['--version'])).toEqual({ command: 'version' });
  });

  it('rejects mistakes with a sentence saying what is wrong', () => {
    const error = (argv: string[]) => {
      try {
        parseArgs(argv);
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    expect(error(['gen'])).toBe("unknown command 'gen'");
    expect(error(['generate', '--out', 'x'])).toBe('no schema files or folders given');
    expect(error(['generate', 'a.proto'])).toBe('--out <dir> is required');
    expect(error(['generate', 'a.proto', '--out'])).toBe('--out needs a value');
    expect(error(['generate', 'a.proto', '--out', '--check'])).toBe('--out needs a value');
    expect(error(['generate', 'a.proto', '--out', 'x', '--check', '--watch'])).toBe('--check and --watch cannot be combined');
  });
});

describe('commonParent', () => {
  it('is the deepest folder containing all inputs', () => {
    expect(commonParent(['/r/schemas'])).toBe('/r/schemas');
    expect(commonParent(['/r/schemas/system/v1alpha1', '/r/schemas/issues'])).toBe('/r/schemas');
    expect(commonParent(['/r/schemas-a', '/r/schemas-b'])).toBe('/r');
    expect(commonParent(['/a', '/b'])).toBe('/');
  });
});
