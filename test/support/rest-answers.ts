/**
 * @module
 * Helpers for the REST runtime suite: one call returns status, headers and the exact body text.
 */
import type { Hono } from 'hono';

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON (throws when it is not JSON). */
  json(): unknown;
}

/** Sends a request through `app.request` (no socket) and reads the whole answer. */
export async function call(
  app: Hono,
  method: string,
  url: string,
  init: { body?: BodyInit; headers?: Record<string, string>; json?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] ??= 'application/json';
  }
  const res = await app.request(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as unknown };
}

import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

/** A real listener on 127.0.0.1, ephemeral port. */
export interface Listening {
  readonly port: number;
  close(): Promise<void>;
}

export function listen(app: Hono): Promise<Listening> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => {
      const port = (server.address() as AddressInfo).port;
      resolve({ port, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/** A request through node:http (which, unlike fetch, allows TRACE), with the whole answer. */
export function rawCall(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return rawSend(port, method, path, undefined, headers);
}

/**
 * Sends a body in `chunks` through node:http, declaring its length or chunked, and reads the whole
 * answer. The server may answer (413) before the body is all sent: that is not an error here.
 */
export function sendBody(
  port: number,
  method: string,
  path: string,
  chunks: readonly string[],
  options: { declareLength: boolean; headers?: Record<string, string> },
): Promise<{ status: number; body: string }> {
  const total = chunks.reduce((n, chunk) => n + Buffer.byteLength(chunk), 0);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        method,
        path,
        agent: false,
        headers: { ...options.headers, ...(options.declareLength ? { 'content-length': total } : { 'transfer-encoding': 'chunked' }) },
      },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk: string) => (text += chunk))
          .on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

/** A request with a whole body (or none) through node:http (declared length), with the whole answer and its headers. */
export function rawSend(
  port: number,
  method: string,
  path: string,
  body: string | Uint8Array | undefined,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
