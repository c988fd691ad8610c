import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPTIONS } from './options.js';

const doc = readFileSync(join(import.meta.dirname, '../../docs/configuration.md'), 'utf8');

describe('docs/configuration.md', () => {
  it('has a row for every option with its flag, variable and default', () => {
    for (const option of OPTIONS) {
      const row = doc.split('\n').find((line) => line.includes(`| \`${option.env}\` |`));
      expect(row, option.env).toBeDefined();
      if (option.flag !== undefined) expect(row, option.env).toContain(`--${option.kind === 'boolean' ? '[no-]' : ''}${option.flag}`);
      if (option.default !== undefined) expect(row, option.env).toContain(`\`${option.default}\``);
    }
  });
});
