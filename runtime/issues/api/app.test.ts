import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from '../store/index.js';
import type { IssueStore } from '../store/store.js';
import { createIssuesApp } from './app.js';

describe('createIssuesApp', () => {
  let store: IssueStore | undefined;
  afterEach(async () => store?.close());

  it('answers an internal failure with 500, a blank Gitea message, and reports it', async () => {
    store = await createStore(':memory:');
    const alice = await store.createUser({ name: 'alice', email: 'a@example.com' });
    await store.createRepo({ ownerId: alice.id, name: 'proj' });
    // A store whose issue lookup breaks, as a lost database connection would.
    const broken = new Proxy(store, {
      get: (target, key, receiver) =>
        key === 'getIssue'
          ? async () => {
              throw new Error('connection lost');
            }
          : Reflect.get(target, key, receiver),
    });
    const reported: unknown[] = [];
    const app = createIssuesApp({ store: broken, onUnexpectedError: (e) => reported.push(e), config: { publicUrl: 'http://h/' } });
    const res = await app.request('/api/v1/repos/alice/proj/issues/1');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: '', url: 'http://h/api/swagger' });
    expect((reported[0] as Error).message).toBe('connection lost');
  });

  it("answers unknown routes with Gitea's 404 body", async () => {
    store = await createStore(':memory:');
    const res = await createIssuesApp({ store, config: { publicUrl: 'http://h' } }).request('/api/v1/nothing/here');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'not found', url: 'http://h/api/swagger' });
  });

  it('rejects an invalid configuration at construction', async () => {
    store = await createStore(':memory:');
    expect(() => createIssuesApp({ store: store!, config: { maxResponseItems: 0 } })).toThrow(/maxResponseItems/);
    expect(() => createIssuesApp({ store: store!, config: { timeZone: 'Mars/Olympus' } })).toThrow(RangeError);
  });
});
