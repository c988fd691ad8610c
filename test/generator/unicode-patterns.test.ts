/**
 * @module
 * Patterns written for the regular expression `u` flag (`\p{L}`, `\u{…}`) are checked with it by
 * the generated validators, as JSON Schema means them; the plainer patterns real schemas write
 * (`[\w-]`, `\-`), which the flag rejects, keep working without it; and a pattern that needs the
 * flag but is not valid with it is named in a warning instead of silently matching `p{L}`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../generator/cli/cli.js';

const SCHEMA = `openapi: 3.0.3
info: { title: Names, version: '1' }
paths: {}
components:
  schemas:
    Letters: { type: string, pattern: '^\\p{L}+$' }
    Bug: { type: string, pattern: '^\\u{1F41B}$' }
    Slug: { type: string, pattern: '^[\\w-]+\\-[a-z]+$' }
    Broken: { type: string, pattern: '^\\p{L}\\-x$' }
`;

type Validator = (value: unknown) => boolean;
let v: Record<string, Validator>;
let stderr = '';
const tmp = mkdtempSync(join(tmpdir(), 'loom-unicode-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

beforeAll(async () => {
  writeFileSync(join(tmp, 'api.yaml'), SCHEMA);
  const code = await runCli(['generate', 'api.yaml', '--out', 'gen', '--quiet'], {
    cwd: tmp,
    stdout: () => {},
    stderr: (t) => (stderr += t),
  });
  expect(code).toBe(0);
  v = (await import(pathToFileURL(join(tmp, 'gen/api.validators.js')).href)) as Record<string, Validator>;
}, 60_000);

describe('patterns and the u flag', () => {
  it('checks \\p{…} and \\u{…} as Unicode, as JSON Schema means them', () => {
    expect([
      v['validateLetters']!('héllo'),
      v['validateLetters']!('Ωmega'),
      v['validateLetters']!('p{L}'),
      v['validateLetters']!('a1'),
    ]).toEqual([true, true, false, false]);
    expect([v['validateBug']!('🐛'), v['validateBug']!('x')]).toEqual([true, false]);
  });

  it('keeps plainer patterns working without the flag', () => {
    expect([v['validateSlug']!('a_b-c'), v['validateSlug']!('a b-c')]).toEqual([true, false]);
  });

  it('warns about a pattern written for the flag but not valid with it', () => {
    expect(stderr).toContain(
      '(/components/schemas/Broken/pattern): warning: pattern "^\\\\p{L}\\\\-x$" is written for the regular expression \'u\' flag',
    );
    expect(stderr).not.toContain('/Letters/');
  });
});
