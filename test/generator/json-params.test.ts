/**
 * Parameters described by `content: application/json` end to end: the generated client sends
 * the value as one JSON text, the generated routes parse and validate it, and the handler gets
 * the object; JSON that is malformed or breaks the schema is a 400 naming the parameter.
 */
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestRouter } from '../../runtime/rest/index.js';
import { generateInline } from '../support/generate-inline.js';

const OPENAPI =
  `
openapi: 3.1.0
info: { title: Search, version: '1' }
tags: [{ name: search }]
paths:
  /search:
    get:
      operationId: search
      tags: [search]
      parameters:
        - name: where
          in: query
          content:
            application/json:
              schema: { type: object, required: [q], ` +
  `properties: { q: { type: string, minLength: 1 }, tags: { type: array, items: { type: string } } } }
        - name: X-Scope
          in: header
          content: { application/json: { schema: { type: object, properties: { team: { type: integer } } } } }
      responses:
        '200':
          description: the handler's input, echoed
          content: { application/json: { schema: { type: object, additionalProperties: true } } }
`;

let cleanup: () => void;
let app: Hono;
let client: { search(input: object): Promise<unknown> };

beforeAll(async () => {
  const generated = await generateInline('json-params', { 'search.yaml': OPENAPI });
  cleanup = generated.cleanup;
  const server = await import(/* @vite-ignore */ join(generated.dir, 'search.server.ts'));
  app = createRestRouter()
    .register(new server.SearchRoutes({ search: async (input: object) => input }))
    .app();
  const { SearchClient } = await import(/* @vite-ignore */ join(generated.dir, 'search.client.ts'));
  client = new SearchClient({ baseUrl: 'http://search.test', fetch: (request: Request) => app.fetch(request) });
});

afterAll(() => cleanup?.());

describe('JSON parameters', () => {
  it('travel from the generated client to the handler as the objects they were', async () => {
    const where = { q: 'a&b=c', tags: ['x y', 'ü'] };
    expect(await client.search({ where, xScope: { team: 7 } })).toEqual({ where, xScope: { team: 7 } });
  });

  it('that are not JSON, or break their schema, are a 400 naming the parameter', async () => {
    const malformed = await app.request(`/search?where=${encodeURIComponent('{q:')}`);
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(await malformed.json())).toContain('where');
    const invalid = await app.request(`/search?where=${encodeURIComponent('{"q":""}')}`, { headers: { 'X-Scope': '{"team":"seven"}' } });
    expect(invalid.status).toBe(400);
    const names = ((await invalid.json()) as { violations: { name: string }[] }).violations.map((v) => v.name);
    expect(names.sort()).toEqual(['X-Scope/team', 'where/q']);
  });
});
