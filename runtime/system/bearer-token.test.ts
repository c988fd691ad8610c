import { describe, expect, it } from 'vitest';
import { RpcError } from '../rpc/index.js';
import { requireBearerToken } from './bearer-token.js';

function outcome(check: ReturnType<typeof requireBearerToken>, authorization?: string): string {
  const headers = new Headers(authorization === undefined ? {} : { authorization });
  try {
    check({ headers });
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(RpcError);
    return `${(error as RpcError).code}: ${(error as RpcError).message}`;
  }
}

describe('requireBearerToken', () => {
  const check = requireBearerToken('s3cret');

  it('accepts the token, with the scheme in any case', () => {
    expect(outcome(check, 'Bearer s3cret')).toBe('ok');
    expect(outcome(check, 'bearer s3cret')).toBe('ok');
  });

  it('refuses a missing header, another token, a prefix of the token and another scheme', () => {
    expect(outcome(check)).toBe('unauthenticated: this service requires "authorization: Bearer <token>"');
    expect(outcome(check, 'Bearer s3cre')).toBe('unauthenticated: invalid bearer token');
    expect(outcome(check, 'Bearer s3cret2')).toBe('unauthenticated: invalid bearer token');
    expect(outcome(check, 'Basic czNjcmV0')).toBe('unauthenticated: invalid bearer token');
    expect(outcome(check, 'Bearer')).toBe('unauthenticated: invalid bearer token');
    expect(outcome(check, 's3cret')).toBe('unauthenticated: invalid bearer token');
  });

  it('refuses to be configured with an empty token, which would accept nothing useful', () => {
    expect(() => requireBearerToken('')).toThrow('requireBearerToken: the token must not be empty');
  });
});

describe('requireBearerToken and tokens no header can carry', () => {
  it.each([
    ['a space', 'two words', 'contains a space at position 4'],
    ['a tab', 'tab\there', 'contains a control character at position 4'],
    ['a newline', 'line\nbreak', 'contains a control character at position 5'],
    ['a non-ASCII letter', 'tökén', 'contains a non-ASCII character at position 2'],
  ])('refuses a token with %s at once, instead of refusing every caller later', (_label, token, problem) => {
    expect(() => requireBearerToken(token)).toThrow(
      `requireBearerToken: the token ${problem}; use printable ASCII without spaces (it is sent as "authorization: Bearer <token>")`,
    );
  });

  it('accepts every printable ASCII character', () => {
    const token = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
    expect(outcome(requireBearerToken(token), `Bearer ${token}`)).toBe('ok');
  });
});
