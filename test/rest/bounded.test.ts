/**
 * @module
 * Bounded work per request: validation reports stop at the router's `maxViolations` (100 by
 * default), so a body of a hundred thousand bad items is the usual 400 with its first violations,
 * never a stack overflow (a 500) or an answer built from a hundred thousand entries. Over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyParam, createRestRouter, Path, POST, QueryParam, RegistrationError } from '../../runtime/rest/index.js';
import { type Listening, listen, rawSend } from '../support/rest-answers.js';

const NUMBERS = { type: 'array', items: { type: 'integer' } } as const;

@Path('/bulk')
class Bulk {
  @POST
  save(@BodyParam({ schema: NUMBERS, required: true }) items: number[]) {
    return { saved: items.length };
  }
  @POST
  @Path('/ids')
  ids(@QueryParam('id', { type: 'integer', array: true, maximum: 10 }) ids: number[], @BodyParam({ schema: NUMBERS }) items: number[]) {
    return { ids, items };
  }
}

interface Answer {
  status: number;
  message: string;
  violations: { location: string; name: string; message: string }[];
}

describe('bounded validation reports', () => {
  let server: Listening;
  let small: Listening;
  beforeAll(async () => {
    server = await listen(
      createRestRouter({ maxBodyBytes: 4 * 1024 * 1024 })
        .register(new Bulk())
        .app(),
    );
    small = await listen(createRestRouter({ maxViolations: 3 }).register(new Bulk()).app());
  });
  afterAll(async () => {
    await server.close();
    await small.close();
  });

  it('a 100,000-item bad array is the usual 400 with the first 100 violations', async () => {
    const body = JSON.stringify(Array.from({ length: 100_000 }, () => 'x'));
    const r = await rawSend(server.port, 'POST', '/bulk', body, { 'content-type': 'application/json' });
    expect(r.status).toBe(400);
    expect(r.headers['x-status-reason']).toBe('Validation failed');
    const answer = JSON.parse(r.text) as Answer;
    expect(answer.violations).toHaveLength(100);
    expect(answer.violations[0]).toEqual({ location: 'body', name: '/0', message: 'must be integer' });
    expect(answer.violations[99]!.name).toBe('/99');
    expect(answer.message).toBe('body /0: must be integer (and more: the first 100 violations are listed)');
  });
  it('a good body of the same size goes through', async () => {
    const body = JSON.stringify(Array.from({ length: 100_000 }, (_, i) => i));
    const r = await rawSend(server.port, 'POST', '/bulk', body, { 'content-type': 'application/json' });
    expect([r.status, r.text]).toEqual([200, '{"saved":100000}']);
  });
  it('the limit is a router option, counted over every parameter of the request', async () => {
    const r = await rawSend(small.port, 'POST', '/bulk/ids?id=11&id=12', '["a","b","c"]', { 'content-type': 'application/json' });
    const answer = JSON.parse(r.text) as Answer;
    expect(answer.violations.map((v) => `${v.location} ${v.name}`)).toEqual(['query id', 'query id', 'body /0']);
    expect(answer.message).toBe('query id: must be <= 10 (and more: the first 3 violations are listed)');
    const few = await rawSend(small.port, 'POST', '/bulk/ids?id=11', '["a"]', { 'content-type': 'application/json' });
    expect((JSON.parse(few.text) as Answer).message).toBe('query id: must be <= 10 (and 1 more)');
  });
  it('a limit that is no positive whole number is refused', () => {
    expect(() => createRestRouter({ maxViolations: 0 })).toThrow(RegistrationError);
  });
});
