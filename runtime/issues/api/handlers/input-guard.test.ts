/**
 * @module The input guard on its own: which NUL answers 404 and which 422, and how the 422 names
 * the field the way Gitea's binding errors do.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GiteaError } from '../errors.js';
import { guardInput, wireName } from './input-guard.js';

function failure(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof GiteaError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected the guard to refuse the input');
}

describe('guardInput', () => {
  it('returns clean input as it is', () => {
    const input = { owner: 'alice', repo: 'proj', body: { title: 'Crash', labels: [1, 2], remove_deadline: false } };
    expect(guardInput(input)).toBe(input);
  });

  it('replaces lone surrogates with U+FFFD, as Go decodes JSON, and leaves pairs alone', () => {
    const input = { owner: 'a', body: { title: 'a\ud800b', body: 'pair \ud83d\udc1b ok', labels: [1], assignees: ['\udc00x'] } };
    expect(guardInput(input)).toEqual({
      owner: 'a',
      body: { title: 'a\ufffdb', body: 'pair \ud83d\udc1b ok', labels: [1], assignees: ['\ufffdx'] },
    });
    const clean = { owner: 'a', body: { title: 'emoji \ud83d\udc1b' } };
    expect(guardInput(clean)).toBe(clean);
  });

  it('names a body field in Go style, with array positions', () => {
    expect(failure(() => guardInput({ owner: 'a', body: { due_date: '2025\u0000' } }))).toEqual({
      status: 422,
      message: '[DueDate]: must not contain NUL characters',
    });
    expect(failure(() => guardInput({ owner: 'a', body: { assignees: ['ok', 'b\u0000b'] } }))).toEqual({
      status: 422,
      message: '[Assignees.1]: must not contain NUL characters',
    });
  });

  it('names a query parameter by its own name', () => {
    expect(failure(() => guardInput({ owner: 'a', labels: 'bug\u0000' }))).toEqual({
      status: 422,
      message: '[labels]: must not contain NUL characters',
    });
  });

  it('names a query parameter as sent, not by its camel-cased input key', () => {
    expect(failure(() => guardInput({ owner: 'a', repo: 'r', createdBy: 'bob\u0000' }))).toEqual({
      status: 422,
      message: '[created_by]: must not contain NUL characters',
    });
    expect(failure(() => guardInput({ priorityRepoId: 1, owner: 'x', mentionedBy: ['\u0000'] }, new Set()))).toEqual({
      status: 422,
      message: '[mentioned_by.0]: must not contain NUL characters',
    });
  });

  it('maps every query parameter of the generated routes back to its wire name', () => {
    // The generated routes bind each query parameter (`@QueryParam('created_by', …) createdBy`) to
    // an input key; wireName must give the wire name back for every one of them.
    const routes = readFileSync(new URL('../../../../generated/issues/openapi.server.ts', import.meta.url), 'utf8');
    const pairs = [...routes.matchAll(/@QueryParam\('([^']+)', \{[^}]*\}\) (\w+):/g)].map(([, name, key]) => [name!, key!] as const);
    expect(pairs).toContainEqual(['created_by', 'createdBy']);
    for (const [name, key] of pairs) expect(wireName(key)).toBe(name);
  });

  it('answers a NUL in a path parameter with 404: such a name names nothing', () => {
    expect(failure(() => guardInput({ owner: 'al\u0000ice', repo: 'proj' })).status).toBe(404);
  });

  it('leaves the keyword alone (the Issues API reads a keyword with NUL as empty)', () => {
    const input = { q: 'flick\u0000er' };
    expect(guardInput(input)).toBe(input);
  });

  it('reads a path-like key outside the path as a query (search has no path)', () => {
    expect(failure(() => guardInput({ owner: 'x\u0000' }, new Set())).status).toBe(422);
  });
});
