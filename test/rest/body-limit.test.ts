/**
 * @module
 * The router's body size limit (`maxBodyBytes`) through a real Node server: a declared length over
 * the limit is 413 before anything is read, a chunked body (or one of no declared length) is 413
 * once it passes the limit, a body within it reaches the method intact, and `Infinity` lifts the
 * limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyParam, createRestRouter, FormParam, Path, POST, RegistrationError } from '../../runtime/rest/index.js';
import { call, type Listening, listen, sendBody } from '../support/rest-answers.js';

@Path('/up')
class Uploads {
  @POST @Path('/json') json(@BodyParam() body: { text: string }) {
    return { length: body.text.length };
  }
  @POST @Path('/form') form(@FormParam('text') text: string) {
    return { length: text.length };
  }
}

function send(port: number, path: string, chunks: readonly string[], declareLength: boolean, type = 'application/json') {
  return sendBody(port, 'POST', path, chunks, { declareLength, headers: { 'content-type': type } });
}

const json = (n: number) => JSON.stringify({ text: 'a'.repeat(n) });

describe('maxBodyBytes', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listen(createRestRouter({ maxBodyBytes: 100 }).register(Uploads).app());
  });
  afterAll(() => server.close());

  it('answers 413 for a declared length over the limit', async () => {
    expect(await send(server.port, '/up/json', [json(200)], true)).toEqual({
      status: 413,
      body: '{"status":413,"message":"Payload Too Large: the request body is larger than 100 bytes"}',
    });
  });
  it('answers 413 for a chunked body once it passes the limit, JSON or form', async () => {
    expect((await send(server.port, '/up/json', [json(40), json(80)], false)).status).toBe(413);
    expect((await send(server.port, '/up/form', ['text=', 'b'.repeat(200)], false, 'application/x-www-form-urlencoded')).status).toBe(413);
  });
  it('hands a body within the limit to the method intact, declared or chunked', async () => {
    expect(await send(server.port, '/up/json', [json(50)], true)).toEqual({ status: 200, body: '{"length":50}' });
    const chunks = [json(50).slice(0, 20), json(50).slice(20)];
    expect(await send(server.port, '/up/json', chunks, false)).toEqual({ status: 200, body: '{"length":50}' });
    expect(await send(server.port, '/up/form', ['text=', 'c'.repeat(60)], false, 'application/x-www-form-urlencoded')).toEqual({
      status: 200,
      body: '{"length":60}',
    });
  });
  it('defaults to 1 MiB, and Infinity lifts it', async () => {
    const big = json(1024 * 1024);
    expect(
      (
        await call(createRestRouter().register(Uploads).app(), 'POST', '/up/json', {
          body: big,
          headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
        })
      ).status,
    ).toBe(413);
    expect(
      (
        await call(createRestRouter({ maxBodyBytes: Infinity }).register(Uploads).app(), 'POST', '/up/json', {
          body: big,
          headers: { 'content-type': 'application/json' },
        })
      ).text,
    ).toBe(`{"length":${1024 * 1024}}`);
  });
  it('counts a body that declares no length at all, as app.fetch and HTTP/2 may send it', async () => {
    const app = createRestRouter({ maxBodyBytes: 100 }).register(Uploads).app();
    // Neither Content-Length nor Transfer-Encoding: Hono's in-process request sends none.
    expect((await call(app, 'POST', '/up/json', { body: json(200), headers: { 'content-type': 'application/json' } })).status).toBe(413);
    const form = new FormData();
    form.set('text', 'd'.repeat(300));
    expect((await call(app, 'POST', '/up/form', { body: form })).status).toBe(413);
    expect((await call(app, 'POST', '/up/json', { body: json(50), headers: { 'content-type': 'application/json' } })).text).toBe(
      '{"length":50}',
    );
  });
  it('refuses a limit that is no number of bytes', () => {
    expect(() => createRestRouter({ maxBodyBytes: -1 }).register(Uploads).app()).toThrow(RegistrationError);
  });
});
