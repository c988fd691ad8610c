/**
 * @module The body size limit through a real Node server: a body over the limit is answered 413
 * whether its size is declared (`Content-Length`) or only known once streamed (chunked), and a
 * body within the limit reaches the handler intact.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendBody } from '../../../test/rest/helpers.js';
import { limitBodySize } from './body-limit.js';

const LIMIT = 1000;

function send(port: number, method: string, chunks: readonly string[], declareLength: boolean) {
  return sendBody(port, method, '/echo', chunks, { declareLength });
}

describe('limitBodySize', () => {
  let server: ServerType;
  let port: number;

  beforeAll(async () => {
    const app = new Hono();
    app.use('*', limitBodySize(LIMIT, (c) => c.json({ message: 'too large' }, 413)));
    app.all('/echo', async (c) => c.text(`${c.req.method} ${(await c.req.text()).length}`));
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('passes a body within the limit, declared or chunked, to the handler whole', async () => {
    expect(await send(port, 'POST', ['a'.repeat(LIMIT)], true)).toEqual({ status: 200, body: `POST ${LIMIT}` });
    expect(await send(port, 'PATCH', ['a'.repeat(600), 'b'.repeat(400)], false)).toEqual({ status: 200, body: `PATCH ${LIMIT}` });
  });

  it('answers 413 for a declared length over the limit', async () => {
    expect(await send(port, 'POST', ['a'.repeat(LIMIT + 1)], true)).toEqual({ status: 413, body: '{"message":"too large"}' });
  });

  it('answers 413 for a chunked body that grows over the limit', async () => {
    expect(await send(port, 'POST', ['a'.repeat(600), 'b'.repeat(600)], false)).toEqual({ status: 413, body: '{"message":"too large"}' });
  });

  it('lets GET through untouched', async () => {
    expect(await send(port, 'GET', [], true)).toEqual({ status: 200, body: 'GET 0' });
  });
});
