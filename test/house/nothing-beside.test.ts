/**
 * A clone runs its tests with nothing beside it: no tracked file reads the workplace's shared
 * folder (its reference documents now live in `test/fixtures/reference/`). Read from the text, so
 * cheap: the absolute path anywhere, and in code a relative path or `join` that climbs out of the
 * repository to a `shared` folder. `.ci/run` proves the same for real, running the tests in a
 * fresh clone in a temporary folder.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** This file, whose examples show what is looked for. */
const SELF = 'test/house/nothing-beside.test.ts';
const SHARED_ABSOLUTE = '/work/shared';
const CODE = /\.(ts|js|mjs|cjs|sh)$|^\.ci\//;
/** `../../shared`: the climbs are counted against the file's own depth. */
const CLIMB = /((?:\.\.\/)+)shared\b/g;
/** `'../shared…'`: a path from the working directory, which is the repository's root. */
const FROM_ROOT = /['"`]\.\.\/shared\b/;
/** `join(ROOT, '..', 'shared')` and the like. */
const JOINED = /(['"])\.\.\1\s*,\s*(?:(['"])\.\.\2\s*,\s*)*['"]shared['"]/;

/** Why `text`, the content of `file` (relative to the root), reads beside the repository, line by line. */
function besideReferences(file: string, text: string): string[] {
  const found: string[] = [];
  const depth = dirname(file) === '.' ? 0 : dirname(file).split('/').length;
  for (const [index, line] of text.split('\n').entries()) {
    const where = `${file}:${index + 1}`;
    if (line.includes(SHARED_ABSOLUTE)) found.push(`${where} names ${SHARED_ABSOLUTE}`);
    if (!CODE.test(file)) continue;
    const climbs = [...line.matchAll(CLIMB)].some((match) => match[1]!.length / 3 > depth);
    if (climbs || FROM_ROOT.test(line) || JOINED.test(line)) found.push(`${where} climbs out of the repository to shared/`);
  }
  return found;
}

/** Tracked text files, relative to the root (large data files included: they are read whole). */
function trackedFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return listed.split('\0').filter((file) => file !== '' && existsSync(join(ROOT, file)));
}

describe('nothing beside the repository', () => {
  it('finds what it looks for, and not a schema $ref inside the repository', () => {
    expect(besideReferences('test/a/b.test.ts', "readFileSync('/work/shared/reference/x.json')")).toHaveLength(1);
    expect(besideReferences('test/a/b.test.ts', "new URL('../../../shared/reference/x.json', import.meta.url)")).toHaveLength(1);
    expect(besideReferences('bench/run.ts', "readFileSync('../shared/reference/x.json')")).toHaveLength(1);
    expect(besideReferences('test/a/b.test.ts', "join(ROOT, '..', 'shared', 'reference')")).toHaveLength(1);
    expect(besideReferences('docs/a.md', 'Read /work/shared/STYLE.md')).toHaveLength(1);
    expect(besideReferences('generator/loaders/x.test.ts', "schema: { $ref: '../../shared/user.yaml#/User' }")).toEqual([]);
    expect(besideReferences('docs/generator.md', '`../../shared/user.yaml` puts the root at the folder holding both')).toEqual([]);
  });

  it('no tracked file reads the shared folder beside the clone', () => {
    const files = trackedFiles().filter((file) => file !== SELF);
    expect(files.length).toBeGreaterThan(0);
    const found = files.flatMap((file) => {
      const bytes = readFileSync(join(ROOT, file));
      return bytes.includes(0) ? [] : besideReferences(file, bytes.toString('utf8'));
    });
    expect(found).toEqual([]);
  });
});
