/**
 * A SYSTEM_TOKEN that no client could send (it could never match `Bearer <token>`) stops the
 * server at start-up, like every other invalid setting: one line, exit code 2, the token not
 * echoed. Started as a real process, as an operator would.
 */
import { describe, expect, it } from 'vitest';
import { runServerCommand } from '../support/server-harness.js';

describe('SYSTEM_TOKEN at start-up', () => {
  it.each([
    ['an inner space', 'open sesame-4821', 'contains a space at position 5'],
    ['a control character', 'open\u001bsesame-4821', 'contains a control character at position 5'],
  ])('with %s is an invalid configuration: one line on stderr, exit code 2', async (_label, token, problem) => {
    const { code, stdout, stderr } = await runServerCommand([], { SYSTEM_TOKEN: token });
    expect(code).toBe(2);
    expect(stderr).toBe(
      `loom: invalid configuration: invalid SYSTEM_TOKEN: ${problem}; ` +
        'use printable ASCII without spaces (it is sent as "authorization: Bearer <token>")\n',
    );
    expect(stdout).toBe('');
    expect(stderr).not.toContain('sesame');
  });
});
