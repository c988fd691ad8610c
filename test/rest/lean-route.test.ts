/**
 * @module
 * The lean handler (`runtime/rest/hono/lean-handler.ts`) serves the most common route, path and
 * query values of built-in types and a JSON body, in one function instead of the general steps.
 * Its answers must be the general handler's: the same routes are served twice over real HTTP,
 * once as they are (lean) and once with a static `@Header`, which takes them off the lean path,
 * and every request below, the usual one and each way it can go wrong, must get the same status
 * and body from both, besides the answer this test expects.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BodyParam,
  Consumes,
  createRestRouter,
  GET,
  Header,
  HttpError,
  Path,
  PathParam,
  POST,
  Produces,
  QueryParam,
  RestResponse,
} from '../../runtime/rest/index.js';
import { type Listening, listen, rawSend, sendBody } from '../support/rest-answers.js';

/** The item schema of the REST benchmark: a name and a price. */
const ITEM_SCHEMA = {
  type: 'object',
  required: ['name', 'price'],
  properties: { name: { type: 'string', minLength: 1 }, price: { type: 'number', minimum: 0 } },
};

abstract class ItemRoutes {
  // The REST benchmark's route: a path integer, a required and an optional query integer, a
  // validated JSON body of at most 64 bytes (and of JSON only), a JSON answer.
  @POST
  @Path('/items/{id}')
  @Consumes('application/json')
  @Produces('application/json')
  create(
    @PathParam('id', { type: 'integer' }) id: number,
    @QueryParam('limit', { type: 'integer', required: true }) limit: number,
    @QueryParam('offset', { type: 'integer' }) offset: number | undefined,
    @BodyParam({ schema: ITEM_SCHEMA, required: true, maxBytes: 64 }) body: { name: string; price: number },
  ) {
    if (body.name === 'teapot') throw new HttpError(418, "I'm a teapot");
    if (body.name === 'created') return RestResponse.status(201).entity({ id });
    return { id, limit, offset, name: body.name, total: body.price * limit };
  }
  // No body, an answer that comes later, a default.
  @GET
  @Path('/later/{id}')
  async later(@PathParam('id', { type: 'integer' }) id: number, @QueryParam('flag', { type: 'boolean' }) flag = false) {
    await Promise.resolve();
    return [id, flag];
  }
}
@Path('/lean')
class LeanItems extends ItemRoutes {}
@Path('/general')
@Header('X-Route: general')
class GeneralItems extends ItemRoutes {}

describe('the lean handler answers as the general handler does', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listen(createRestRouter().register(new LeanItems(), new GeneralItems()).app());
  });
  afterAll(() => server.close());

  /** Sends one request to both routes; returns the lean route's answer once both are the same. */
  async function both(
    method: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string> = {},
    chunked = false,
  ): Promise<{ status: number; json: unknown }> {
    const send = async (prefix: string) => {
      const r =
        chunked && body !== undefined
          ? await sendBody(server.port, method, prefix + path, [body], { declareLength: false, headers })
          : await rawSend(server.port, method, prefix + path, body, headers).then((a) => ({ status: a.status, body: a.text }));
      return { status: r.status, json: JSON.parse(r.body) as unknown };
    };
    const [lean, general] = [await send('/lean'), await send('/general')];
    expect(lean).toEqual(general);
    return lean;
  }
  const json = { 'content-type': 'application/json' };
  const item = '{"name":"widget","price":9.5}';

  it('answers the usual request, of declared length or chunked, whatever the JSON type is written as', async () => {
    const expected = { status: 200, json: { id: 42, limit: 10, offset: 5, name: 'widget', total: 95 } };
    expect(await both('POST', '/items/42?limit=10&offset=5', item, json)).toEqual(expected);
    expect(await both('POST', '/items/42?limit=10&offset=5', item, json, true)).toEqual(expected);
    expect(await both('POST', '/items/42?limit=10&offset=5', item, { 'content-type': 'application/json; charset=utf-8' })).toEqual(
      expected,
    );
    expect(await both('POST', '/items/42?limit=10', item, json)).toEqual({
      status: 200,
      json: { id: 42, limit: 10, name: 'widget', total: 95 },
    });
  });
  it('refuses a body over the limit (413), declared or chunked, and one of another type (415)', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(80), price: 1 });
    expect((await both('POST', '/items/1?limit=1', big, json)).status).toBe(413);
    expect((await both('POST', '/items/1?limit=1', big, json, true)).status).toBe(413);
    expect((await both('POST', '/items/1?limit=1', item, { 'content-type': 'text/plain' })).status).toBe(415);
  });
  it('lists every bad value in one 400: the path, the query, then the body', async () => {
    // A name of the wrong type and no price: two of the body.
    const r = await both('POST', '/items/x?offset=y', '{"name":1}', json);
    expect(r.status).toBe(400);
    const violations = (r.json as { violations: { location: string; name: string }[] }).violations;
    expect(violations.map((v) => v.location)).toEqual(['path', 'query', 'query', 'body', 'body']);
    expect(violations.slice(0, 3).map((v) => v.name)).toEqual(['id', 'limit', 'offset']);
    expect((await both('POST', '/items/1?limit=1', '{"name":', json)).status).toBe(400);
    expect((await both('POST', '/items/1?limit=1', '', json)).json).toMatchObject({
      violations: [{ location: 'body', message: 'is required' }],
    });
  });
  it('refuses an Accept it cannot answer (406) and takes one it can', async () => {
    expect((await both('POST', '/items/1?limit=1', item, { ...json, accept: 'text/html' })).status).toBe(406);
    expect((await both('POST', '/items/1?limit=1', item, { ...json, accept: 'application/*' })).status).toBe(200);
  });
  it('writes a built response, an error the method throws, and a result that comes later', async () => {
    expect(await both('POST', '/items/7?limit=1', '{"name":"created","price":1}', json)).toEqual({ status: 201, json: { id: 7 } });
    expect(await both('POST', '/items/7?limit=1', '{"name":"teapot","price":1}', json)).toMatchObject({ status: 418 });
    expect(await both('GET', '/later/3', undefined)).toEqual({ status: 200, json: [3, false] });
    expect(await both('GET', '/later/3?flag=true', undefined)).toEqual({ status: 200, json: [3, true] });
    expect((await both('GET', '/later/3?flag=maybe', undefined)).status).toBe(400);
  });
});
