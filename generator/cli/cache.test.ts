import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_ENTRIES, openCache } from './cache.js';

const tmp = mkdtempSync(join(tmpdir(), 'loom-cache-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('openCache', () => {
  it('stores under node_modules/.cache/loom and reads back', () => {
    const dir = join(tmp, 'project');
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    const cache = openCache(dir, {})!;
    expect(cache.get('validators-abc')).toBeUndefined();
    cache.set('validators-abc', 'export const x = 1;');
    expect(cache.get('validators-abc')).toBe('export const x = 1;');
    expect(readdirSync(join(dir, 'node_modules/.cache/loom'))).toEqual(['validators-abc']);
  });

  it('is off with LOOM_CACHE=0 or without node_modules', () => {
    const dir = join(tmp, 'bare');
    mkdirSync(dir);
    expect(openCache(dir, {})).toBeUndefined();
    mkdirSync(join(dir, 'node_modules'));
    expect(openCache(dir, { LOOM_CACHE: '0' })).toBeUndefined();
  });

  it(`keeps at most ${MAX_ENTRIES} entries`, () => {
    const dir = join(tmp, 'full');
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    const cache = openCache(dir, {})!;
    for (let i = 0; i < MAX_ENTRIES + 5; i++) cache.set(`k${i}`, String(i));
    expect(readdirSync(join(dir, 'node_modules/.cache/loom'))).toHaveLength(MAX_ENTRIES);
  });
});
