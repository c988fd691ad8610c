import { describe, expect, it } from 'vitest';
import { renderHelp } from './help.js';
import { OPTIONS } from './options.js';

describe('renderHelp', () => {
  it('lists every option with its flag, environment variable and default', () => {
    const help = renderHelp('npm start --');
    expect(help.startsWith('Usage: npm start -- [options]\n')).toBe(true);
    for (const option of OPTIONS) {
      expect(help).toContain(`env ${option.env};`);
      if (option.flag !== undefined) expect(help).toContain(`--${option.kind === 'boolean' ? '[no-]' : ''}${option.flag}`);
      if (option.default !== undefined) expect(help).toContain(`default: ${option.default})`);
    }
    expect(help).toContain('  --port <port>');
    expect(help).toContain('(env PORT; default: 3000)');
    expect(help).toContain('(env SYSTEM_TOKEN; default: unset; environment only)');
    expect(help).toContain('--[no-]demo');
  });
});
