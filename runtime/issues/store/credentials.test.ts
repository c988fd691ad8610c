/** @module Password hashing and token secrets. */

import { describe, expect, it } from 'vitest';
import { generateToken, hashPassword, hashToken, TOKEN_PATTERN, verifyPasswordHash } from './credentials.js';

describe('credentials', () => {
  it('hashes passwords with a fresh salt and verifies only the right one', async () => {
    const a = await hashPassword('s3cret');
    const b = await hashPassword('s3cret');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPasswordHash('s3cret', a)).toBe(true);
    expect(await verifyPasswordHash('S3cret', a)).toBe(false);
    expect(await verifyPasswordHash('s3cret', 'plain-text')).toBe(false);
  });

  it('makes Gitea-shaped tokens and digests of the token as given', () => {
    const token = generateToken();
    expect(token).toMatch(TOKEN_PATTERN);
    expect(generateToken()).not.toBe(token);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token.toUpperCase())).not.toBe(hashToken(token));
    expect(hashToken(token)).not.toContain(token);
  });
});
