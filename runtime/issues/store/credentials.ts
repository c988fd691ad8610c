/**
 * @module Password hashing (scrypt) and access-token secrets (40 hex characters, stored as SHA-256).
 * Tokens are random 160-bit values, so a fast unsalted hash is enough to make a stolen database
 * useless while keeping the lookup a single indexed equality.
 */

import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const SCRYPT_KEY_LENGTH = 32;
// N=2^14, r=8, p=1: the Node default cost, ~30 ms; logins are rare next to token use.
const SCRYPT_PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

function scryptAsync(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, SCRYPT_KEY_LENGTH, SCRYPT_PARAMS, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * Hashes a password into a self-describing string `scrypt$N$r$p$salt$hash` (base64).
 *
 * @example
 * const stored = await hashPassword('s3cret'); // 'scrypt$16384$8$1$…$…'
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt);
  return ['scrypt', SCRYPT_PARAMS.N, SCRYPT_PARAMS.r, SCRYPT_PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * Checks a password against a string from {@link hashPassword}, in constant time. A malformed
 * stored value is a mismatch, not an exception.
 *
 * @example
 * await verifyPasswordHash('s3cret', stored); // true
 */
export async function verifyPasswordHash(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, 'base64');
  const key = await new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password,
      Buffer.from(saltText, 'base64'),
      expected.length,
      { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT_PARAMS.maxmem },
      (error, derived) => (error ? reject(error) : resolve(derived)),
    );
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** The shape of a Gitea access token: 40 lower-case hex characters. */
export const TOKEN_PATTERN = /^[0-9a-f]{40}$/;

/**
 * A new token secret: 40 hex characters, like Gitea's.
 *
 * @example
 * generateToken(); // '3f9a…' (40 chars)
 */
export function generateToken(): string {
  return randomBytes(20).toString('hex');
}

/**
 * The stored form of a token. Taken as given: tokens are issued, and accepted, in lower-case hex
 * only, as Gitea issues and accepts them (its digest of `ABC…` is not that of `abc…` either).
 *
 * @example
 * hashToken(token); // 64 hex chars
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
