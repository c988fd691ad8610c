/**
 * @module
 * No hand-written source line is longer than the formatter's width (`lineWidth` in `biome.jsonc`).
 * Biome cannot break a long string, template or comment, so this is what holds the width for them:
 * split strings with `+`, break SQL at spaces, reflow comments. Generated code is the generator's
 * to lay out and is left out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The formatter's width, read from its configuration so the two cannot drift apart. */
function lineWidth(): number {
  const config = readFileSync(join(ROOT, 'biome.jsonc'), 'utf8');
  const match = /"lineWidth"\s*:\s*(\d+)/.exec(config);
  if (match === null) throw new Error('biome.jsonc sets no lineWidth');
  return Number(match[1]);
}

/** Tracked `.ts`, `.js`, `.mjs` and `.cjs` files outside `generated/`, relative to the root. */
function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.js', '*.mjs', '*.cjs'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return listed.split('\0').filter((file) => file !== '' && !file.startsWith('generated/') && existsSync(join(ROOT, file)));
}

describe('line width', () => {
  const max = lineWidth();

  it(`no hand-written source line is longer than ${max} characters`, () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(0);
    const long: string[] = [];
    for (const file of files) {
      const lines = readFileSync(join(ROOT, file), 'utf8').split(/\r?\n/);
      for (const [index, line] of lines.entries()) {
        // Characters, not UTF-16 units: `→` and `…` count once, as they do for the formatter.
        const length = [...line].length;
        if (length > max) long.push(`${file}:${index + 1} (${length} characters)`);
      }
    }
    expect(long, `lines over ${max} characters`).toEqual([]);
  });
});
