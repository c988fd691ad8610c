/**
 * @module The admission middleware through a real Node server: a body over the limit is answered
 * 413 whether its size is declared (`Content-Length`) or only known once streamed (chunked), a body
 * within the limit reaches the handler intact, a wrong credential is 401 before the body is read,
 * and a body without a Content-Type is Gitea's 422.
 */
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendBody } from '../../../test/support/rest-answers.js';
import { createStore } from '../store/index.js';
import type { IssueStore } from '../store/store.js';
import { issuesAdmission } from './admission.js';

const LIMIT = 1000;

function send(port: number, method: string, chunks: readonly string[], declareLength: boolean) {
  return sendBody(port, method, '/echo', chunks, { declareLength, headers: { 'content-type': 'application/octet-stream' } });
}

describe('issuesAdmission', () => {
  let server: ServerType;
  let port: number;
  let store: IssueStore;

  beforeAll(async () => {
    store = await createStore(':memory:');
    const app = new Hono();
    app.onError((error, c) => c.json({ message: error.message }, (error as { status?: 401 | 422 }).status ?? 500));
    app.use('*', issuesAdmission({ store, maxBodyBytes: LIMIT, onTooLarge: (c) => c.json({ message: 'too large' }, 413) }));
    app.all('/echo', async (c) =>
      c.text(`${c.req.method} ${(await c.req.text()).length} ${c.get('issuesCaller') === null ? 'anonymous' : 'signed in'}`),
    );
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await store.close();
  });

  it('passes a body within the limit, declared or chunked, to the handler whole', async () => {
    expect(await send(port, 'POST', ['a'.repeat(LIMIT)], true)).toEqual({ status: 200, body: `POST ${LIMIT} anonymous` });
    expect(await send(port, 'PATCH', ['a'.repeat(600), 'b'.repeat(400)], false)).toEqual({ status: 200, body: `PATCH ${LIMIT} anonymous` });
  });

  it('answers 413 for a declared length over the limit', async () => {
    expect(await send(port, 'POST', ['a'.repeat(LIMIT + 1)], true)).toEqual({ status: 413, body: '{"message":"too large"}' });
  });

  it('answers 413 for a chunked body that grows over the limit', async () => {
    expect(await send(port, 'POST', ['a'.repeat(600), 'b'.repeat(600)], false)).toEqual({ status: 413, body: '{"message":"too large"}' });
  });

  it('lets GET through untouched', async () => {
    expect(await send(port, 'GET', [], true)).toEqual({ status: 200, body: 'GET 0 anonymous' });
  });

  it('answers 401 for a wrong credential and 422 for a body without a Content-Type', async () => {
    expect(await sendBody(port, 'POST', '/echo?token=wrong', ['{}'], { declareLength: true })).toEqual({
      status: 401,
      body: '{"message":"invalid username, password or token"}',
    });
    expect(await sendBody(port, 'POST', '/echo', ['{}'], { declareLength: true })).toEqual({
      status: 422,
      body: '{"message":"[]: Empty Content-Type"}',
    });
  });
});
