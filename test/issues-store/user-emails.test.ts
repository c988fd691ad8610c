/**
 * @module E-mail addresses of users are unique, compared case-insensitively (Gitea's
 * `ErrEmailAlreadyUsed`), on both engines, also when several creations race for one address.
 */

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IssueStore, IssueStoreError } from '../../runtime/issues/store/index.js';
import { openTestStore, TEST_ENGINES, TEST_POSTGRES_URL, type TestStore } from '../support/test-stores.js';

/** The key space of the PostgreSQL dialect's `exclusiveLock` (`postgres-dialect.ts`). */
const EXCLUSIVE_LOCK_KEY = 0x4c6f6f6e;

/** Resolves once some session waits for an `exclusiveLock` (a condition, polled; no timing). */
async function lockWaiter(): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND NOT granted`, [
        EXCLUSIVE_LOCK_KEY,
      ]);
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    await client.end();
  }
}

describe.each(TEST_ENGINES)('user e-mail addresses on %s', (engine) => {
  let handle: TestStore;
  let store: IssueStore;

  beforeAll(async () => {
    handle = await openTestStore(engine);
    store = handle.store;
    await store.createUser({ name: 'alice', email: 'Alice@Example.com' });
  });

  afterAll(async () => {
    await handle?.dispose();
  });

  const code = (promise: Promise<unknown>) =>
    promise.then(
      () => 'created',
      (e: unknown) => (e instanceof IssueStoreError ? e.code : String(e)),
    );

  it('refuses an address another user has, in any case, and checks the name first', async () => {
    expect(await code(store.createUser({ name: 'alice2', email: 'alice@example.COM' }))).toBe('email_taken');
    expect(await code(store.createUser({ name: 'ALICE', email: 'alice@example.com' }))).toBe('conflict');
    expect(await store.findUserByName('alice2')).toBeUndefined();
    expect(await code(store.createUser({ name: 'alice3', email: 'alice3@example.com' }))).toBe('created');
  });

  it('lets organizations and users without an address share theirs', async () => {
    const owner = (await store.findUserByName('alice'))!;
    expect(await code(store.createOrg({ name: 'acme', ownerId: owner.id, email: 'alice@example.com' }))).toBe('created');
    expect(await code(store.createUser({ name: 'noaddress1', email: '' }))).toBe('created');
    expect(await code(store.createUser({ name: 'noaddress2', email: '' }))).toBe('created');
  });

  it('makes a creation wait for a transaction that is creating a user with the same address', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let created!: () => void;
    const firstCreated = new Promise<void>((resolve) => (created = resolve));
    // The first creation's transaction stays open after its insert until the gate opens.
    const first = store.transaction(async (tx) => {
      await tx.createUser({ name: 'early', email: 'race@example.com' });
      created();
      await gate;
    });
    await firstCreated;
    const second = code(store.createUser({ name: 'late', email: 'RACE@example.com' }));
    // PostgreSQL: the second must be waiting for the address's lock before the first commits;
    // without that lock it would not see the uncommitted row and create a duplicate right away.
    // (SQLite: it waits for the write transaction anyway.)
    if (engine === 'postgres') await Promise.race([second, lockWaiter()]);
    release();
    await first;
    expect(await second).toBe('email_taken');
  });
});
