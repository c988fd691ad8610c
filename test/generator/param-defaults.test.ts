/**
 * Parameter defaults end to end: an OpenAPI 3 and a Swagger 2.0 document whose optional query,
 * header and cookie parameters declare a `default` are generated into `.tmp/`, served by the
 * decorator runtime and called through the generated client and by hand. A handler must receive
 * the schema's default whenever a request leaves the parameter out, typed as always present; a
 * client must be able to leave it out; a value sent wins, and a bad one is still a 400.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiDocEmitter } from '../../generator/emitters/openapi-doc/document.js';
import { loadSchemas } from '../../generator/loaders/index.js';
import { ApiError } from '../../runtime/client/api-error.js';
import { createRestRouter } from '../../runtime/rest/index.js';
import { emitInline, generateInline } from '../support/generate-inline.js';
import { typeCheck } from '../support/tsc-check.js';

const OPENAPI = `
openapi: 3.0.3
info: { title: Shelter, version: '1' }
tags: [{ name: pets }]
paths:
  /pets:
    get:
      operationId: listPets
      tags: [pets]
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 20 } }
        - { name: sort, in: query, schema: { type: string, enum: [name, age], default: name } }
        - { name: order, in: query, schema: { $ref: '#/components/schemas/Order' } }
        - { name: kinds, in: query, schema: { type: array, items: { type: string }, default: [cat, dog] } }
        - { name: verbose, in: query, schema: { type: boolean, default: false } }
        - { name: X-Page-Size, in: header, schema: { type: integer, default: 10 } }
        - { name: theme, in: cookie, schema: { type: string, default: light } }
        - { name: q, in: query, schema: { type: string } }
        - { name: since, in: query, schema: { type: integer, default: '1700000000' } }
      responses:
        '200':
          description: the handler's input, echoed
          content: { application/json: { schema: { type: object, additionalProperties: true } } }
components:
  schemas:
    Order: { type: string, enum: [asc, desc], default: asc }
`;

const SWAGGER = `
swagger: '2.0'
info: { title: Legacy, version: '1' }
tags: [{ name: files }]
paths:
  /files:
    get:
      operationId: listFiles
      tags: [files]
      produces: [application/json]
      parameters:
        - { name: page, in: query, type: integer, default: 1 }
        - { name: flag, in: query, type: boolean, default: 5 }
      responses:
        '200': { description: the handler's input, echoed, schema: { type: object, additionalProperties: true } }
`;

type Client = Record<string, (input?: object) => Promise<Record<string, unknown>>>;

let cleanup: () => void;
let dir: string;
let app: Hono;
let pets: Client;
let files: Client;

beforeAll(async () => {
  const generated = await generateInline('param-defaults', { 'shelter.yaml': OPENAPI, 'legacy.yaml': SWAGGER });
  cleanup = generated.cleanup;
  dir = generated.dir;
  const shelter = await import(/* @vite-ignore */ join(dir, 'shelter.server.ts'));
  const legacy = await import(/* @vite-ignore */ join(dir, 'legacy.server.ts'));
  const echo = async (input: object) => input;
  app = createRestRouter()
    .register(new shelter.PetsRoutes({ listPets: echo }), new legacy.FilesRoutes({ listFiles: echo }))
    .app();
  const options = { baseUrl: 'http://pets.test', fetch: (request: Request) => app.fetch(request) };
  pets = new (await import(/* @vite-ignore */ join(dir, 'shelter.client.ts'))).PetsClient(options);
  files = new (await import(/* @vite-ignore */ join(dir, 'legacy.client.ts'))).FilesClient(options);
});

afterAll(() => cleanup?.());

describe('parameter defaults: what the handler receives', () => {
  it('are filled in for every parameter a request leaves out, through $refs and on headers and cookies', async () => {
    expect(await pets.listPets!()).toEqual({
      limit: 20,
      sort: 'name',
      order: 'asc',
      kinds: ['cat', 'dog'],
      verbose: false,
      xPageSize: 10,
      theme: 'light',
      since: 1_700_000_000,
    });
  });

  it('give way to the values a request sends, and a bad value sent is still a 400', async () => {
    expect(await pets.listPets!({ limit: 5, sort: 'age', kinds: ['hamster'], verbose: true, xPageSize: 50, q: 'rex' })).toMatchObject({
      limit: 5,
      sort: 'age',
      kinds: ['hamster'],
      verbose: true,
      xPageSize: 50,
      q: 'rex',
      order: 'asc',
      theme: 'light',
    });
    const res = await app.request('/pets?limit=500&sort=size');
    expect(res.status).toBe(400);
    const { violations } = (await res.json()) as { violations: { name: string }[] };
    expect(violations.map((v) => v.name).sort()).toEqual(['limit', 'sort']);
  });

  it('read an empty number as absent, so it gets the default too', async () => {
    const res = await app.request('/pets?limit=&verbose=');
    expect(await res.json()).toMatchObject({ limit: 20, verbose: false });
  });

  it('come from Swagger 2.0 parameters; a default not of the parameter type is left out, with a warning', async () => {
    expect(await files.listFiles!()).toEqual({ page: 1 });
    const error = await files.listFiles!({ flag: 'maybe' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);

    const schemas = join(dir, 'schemas');
    mkdirSync(schemas, { recursive: true });
    writeFileSync(join(schemas, 'legacy.yaml'), SWAGGER);
    const [file] = await loadSchemas([join(schemas, 'legacy.yaml')], { root: schemas });
    expect(file!.warnings.map((w) => w.message)).toEqual([
      "parameter 'flag' has default 5, which is not a boolean; the default is ignored",
    ]);
  });
});

describe('parameter defaults: the generated code', () => {
  it('declares defaulted members present in the handler input, optional in the client, and passes tsc', async () => {
    const server = readFileSync(join(dir, 'shelter.server.ts'), 'utf8');
    expect(server).toContain(
      "@QueryParam('limit', { type: 'integer', required: false, minimum: 1, maximum: 100 }) @DefaultValue(20) limit: number,",
    );
    expect(server).toContain('  /**\n   * @default 20\n   */\n  limit: number;');
    expect(server).toContain('  q?: string | undefined;');
    const client = readFileSync(join(dir, 'shelter.client.ts'), 'utf8');
    expect(client).toContain(
      "listPets(input: Defaulted<ListPetsInput, 'limit' | 'sort' | 'order' | 'kinds' | 'verbose' | 'xPageSize' | 'theme' | 'since'> = {}",
    );
    const emitted = await emitInline({ 'shelter.yaml': OPENAPI }, [openapiDocEmitter]);
    const doc = JSON.parse(emitted.get('shelter.openapi.json')!) as {
      paths: Record<string, { get: { parameters: { name: string; schema: unknown }[] } }>;
    };
    const params = doc.paths['/pets']!.get.parameters;
    expect(params.find((p) => p.name === 'limit')!.schema).toMatchObject({ type: 'integer', default: 20 });
    expect(params.find((p) => p.name === 'order')!.schema).toEqual({ $ref: '#/components/schemas/Order', default: 'asc' });

    writeFileSync(
      join(dir, 'handlers.ts'),
      `import type { ListPetsInput, PetsApi } from './shelter.server.js';
import { PetsClient } from './shelter.client.js';

export const api: PetsApi = {
  async listPets(input: ListPetsInput) {
    const limit: number = input.limit;
    const order: 'asc' | 'desc' = input.order;
    const q: string | undefined = input.q;
    return { limit, order, q };
  },
};
export const call = (client: PetsClient) => [client.listPets(), client.listPets({ limit: undefined, q: 'rex' })];
`,
    );
    expect(await typeCheck(dir)).toBe('');
  }, 60_000);
});
