/**
 * Operations end to end, over real HTTP: inline OpenAPI 3.0 and 3.1 documents are generated into
 * `.tmp/`, the generated routes classes are served by the decorator runtime on an ephemeral port,
 * and the generated clients call them. Covers object query parameters (`deepObject`, `form`
 * exploded or not), parameter constraints the decorator options cannot say (enforced by generated
 * validators), `2XX` and `default`-only success responses, binary responses labelled as text,
 * trailing slashes, operation names that collide across tags or with class members, properties
 * named like `Object.prototype` members, non-ASCII schema names, and a type-check of it all with
 * and without `exactOptionalPropertyTypes`.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../runtime/client/api-error.js';
import { createRestRouter } from '../../runtime/rest/index.js';
import { ALL_EMITTERS, emitInline, generateInline } from '../support/generate-inline.js';
import { typeCheck } from '../support/tsc-check.js';

const SHOP = `
openapi: 3.0.3
info: { title: Shop, version: '1' }
servers: [{ url: /api }]
tags: [{ name: a b }, { name: a-b }]
paths:
  /pets:
    get:
      operationId: listPets
      tags: [a b]
      parameters:
        - { name: filter, in: query, style: deepObject, explode: true, schema: { $ref: '#/components/schemas/Filter' } }
        - name: page
          in: query
          schema: { type: object, required: [size], properties: { size: { type: integer, maximum: 50 }, from: { type: integer } } }
        - { name: point, in: query, explode: false, schema: { type: object, properties: { x: { type: number }, y: { type: number } } } }
        - { name: code, in: query, schema: { type: string, pattern: '^[A-Z]{3}$' } }
        - { name: weight, in: query, schema: { type: number, minimum: 0, exclusiveMinimum: true, multipleOf: 0.5 } }
        - { name: ids, in: query, schema: { type: array, minItems: 1, maxItems: 3, uniqueItems: true, items: { type: integer } } }
        - { name: X-Slug, in: header, schema: { type: string, minLength: 2, maxLength: 5 } }
      responses:
        '2XX':
          description: what the server read
          content: { application/json: { schema: { type: object, properties: { got: {} } } } }
        '400': { description: bad request }
  /pets/{id}/photo:
    get:
      operationId: getPhoto
      tags: [a b]
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: the photo, content: { application/octet-stream: { schema: { type: string, format: binary } } } }
  /status/:
    get:
      operationId: get-item
      tags: [a b]
      responses:
        default: { description: the status, content: { application/json: { schema: { $ref: '#/components/schemas/Health' } } } }
  /items:
    get:
      operationId: getItem
      tags: [a-b]
      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/商品' } } } } }
  /members/api:
    get: { operationId: api, tags: [a-b], responses: { '204': { description: ok } } }
  /members/constructor:
    get: { operationId: constructor, tags: [a-b], responses: { '204': { description: ok } } }
  /members/then:
    get: { operationId: then, tags: [a-b], responses: { '204': { description: ok } } }
components:
  schemas:
    Filter:
      type: object
      properties:
        name: { type: string }
        age: { type: integer, minimum: 0 }
        tags: { type: array, items: { type: string } }
    Health:
      type: object
      required: [ok]
      properties:
        ok: { type: boolean }
        valueOf: { type: integer }
        constructor: { type: string }
    商品:
      type: object
      required: [名前]
      properties: { 名前: { type: string } }
`;

const SCALE =
  `
openapi: 3.1.0
info: { title: Scale, version: '1' }
paths:
  /weigh:
    get:
      operationId: weigh
      parameters:
        - { name: grams, in: query, required: true, schema: { type: integer, exclusiveMinimum: 0, exclusiveMaximum: 1000 } }
        - { name: at, in: query, content: { application/json: { schema: { type: object, ` +
  `properties: { lat: { type: number }, tags: { type: array, items: { type: string } } } } } } }
      responses: { '204': { description: weighed } }
`;

type Client = Record<string, (input?: object) => Promise<unknown>>;
interface Violation {
  readonly location: string;
  readonly name: string;
  readonly message: string;
}

let cleanup: () => void;
let dir: string;
let server: ServerType;
let origin: string;
let ab: Client;
let ab2: Client;
let scale: Client;
let photoFetch: typeof fetch;
const calls: { op: string; input: Record<string, unknown> }[] = [];

beforeAll(async () => {
  const generated = await generateInline('http-operations', { 'shop.yaml': SHOP, 'scale.yaml': SCALE });
  cleanup = generated.cleanup;
  dir = generated.dir;
  const shop = await import(/* @vite-ignore */ join(dir, 'shop.server.ts'));
  const scaleServer = await import(/* @vite-ignore */ join(dir, 'scale.server.ts'));
  const record =
    (op: string, result: (input: Record<string, unknown>) => unknown = () => undefined) =>
    async (input: Record<string, unknown>) => {
      calls.push({ op, input });
      return result(input);
    };
  const router = createRestRouter().register(
    new shop.ABRoutes({
      listPets: record('listPets', (input) => ({ got: input })),
      getPhoto: record('getPhoto', () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff])),
      getItem: record('getItem', () => ({ ok: true })),
    }),
    new shop.AB2Routes({
      getItem2: record('getItem2', () => ({ 名前: 'Teekanne' })),
      api$: record('api$'),
      constructor$: record('constructor$'),
      then$: record('then$'),
    }),
    new scaleServer.ScaleRoutes({ weigh: record('weigh') }),
  );
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: router.app().fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const shopClient = await import(/* @vite-ignore */ join(dir, 'shop.client.ts'));
  const scaleClient = await import(/* @vite-ignore */ join(dir, 'scale.client.ts'));
  ab = new shopClient.ABClient({ baseUrl: origin });
  ab2 = new shopClient.AB2Client({ baseUrl: origin });
  scale = new scaleClient.ScaleClient({ baseUrl: origin });
  // A server that labels raw bytes `text/plain`, as Gitea does for a raw file.
  photoFetch = async (input, init) => {
    const response = await fetch(input, init);
    return new Response(await response.arrayBuffer(), {
      status: response.status,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  };
});

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  cleanup?.();
});

/** A GET straight to the server: the status and the violations of a 400. */
async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; violations?: Violation[] }> {
  const response = await fetch(`${origin}${path}`, { headers });
  const body = response.headers.get('content-type')?.includes('json')
    ? ((await response.json()) as { violations?: Violation[] })
    : undefined;
  return { status: response.status, ...(body?.violations ? { violations: body.violations } : {}) };
}

describe('object query parameters', () => {
  it('travel from the generated client to the handler: deepObject, form exploded, form not exploded', async () => {
    const result = await ab.listPets!({
      filter: { name: 'rex', age: 3, tags: ['a', 'b'] },
      page: { size: 10, from: 20 },
      point: { x: 1.5, y: -2 },
    });
    expect(result).toEqual({
      got: { filter: { name: 'rex', age: 3, tags: ['a', 'b'] }, page: { size: 10, from: 20 }, point: { x: 1.5, y: -2 }, ids: [] },
    });
  });

  it('are read from the query as OpenAPI serializes them', async () => {
    expect(await get('/api/pets?filter[name]=rex&filter[age]=4&size=5&point=x,1,y,2')).toEqual({ status: 200 });
    expect(calls.at(-1)!.input).toMatchObject({ filter: { name: 'rex', age: 4 }, page: { size: 5 }, point: { x: 1, y: 2 } });
  });

  it('are checked by their schema once converted: a 400 names each field', async () => {
    const bad = await get('/api/pets?filter[age]=-1&size=99&from=x');
    expect(bad.status).toBe(400);
    expect(bad.violations).toEqual(
      expect.arrayContaining([
        { location: 'query', name: 'filter/age', message: 'must be >= 0' },
        { location: 'query', name: 'page/from', message: 'must be an integer, got "x"' },
      ]),
    );
    // `size` is required inside `page`: an exploded object with only `from` lacks it.
    const missing = await get('/api/pets?from=1');
    expect(missing.violations).toEqual([{ location: 'query', name: 'page/size', message: "must have required property 'size'" }]);
  });
});

describe('parameter constraints the decorator options cannot say', () => {
  it('reject what the schema forbids: pattern, exclusive bounds (3.0 and 3.1), multipleOf, item counts, uniqueness, lengths', async () => {
    const cases: [string, Record<string, string>, string, string][] = [
      ['/api/pets?code=abc', {}, 'code', 'must match pattern "^[A-Z]{3}$"'],
      ['/api/pets?weight=0', {}, 'weight', 'must be > 0'],
      ['/api/pets?weight=0.3', {}, 'weight', 'must be multiple of 0.5'],
      ['/api/pets?ids=1&ids=2&ids=3&ids=4', {}, 'ids', 'must NOT have more than 3 items'],
      ['/api/pets?ids=1&ids=1', {}, 'ids', 'must NOT have duplicate items (items ## 1 and 0 are identical)'],
      ['/api/pets', { 'x-slug': 'x' }, 'X-Slug', 'must have at least 2 characters'],
      ['/weigh?grams=0', {}, 'grams', 'must be > 0'],
      ['/weigh?grams=1000', {}, 'grams', 'must be < 1000'],
    ];
    for (const [path, headers, name, message] of cases) {
      const result = await get(path, headers);
      expect([path, result.status, result.violations?.map((v) => [v.name, v.message])]).toEqual([path, 400, [[name, message]]]);
    }
  });

  it('let valid values through, converted', async () => {
    await ab.listPets!({ code: 'ABC', weight: 2.5, ids: [1, 2], xSlug: 'ok' });
    expect(calls.at(-1)!.input).toMatchObject({ code: 'ABC', weight: 2.5, ids: [1, 2], xSlug: 'ok' });
    await scale.weigh!({ grams: 999 });
    expect(calls.at(-1)).toEqual({ op: 'weigh', input: { grams: 999 } });
    // A `content: application/json` parameter goes as one JSON text and comes back as the object.
    await scale.weigh!({ grams: 5, at: { lat: 52.5, tags: ['a', 'b'] } });
    expect(calls.at(-1)).toEqual({ op: 'weigh', input: { grams: 5, at: { lat: 52.5, tags: ['a', 'b'] } } });
    const error = await scale.weigh!({ grams: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
  });
});

describe('success responses', () => {
  it("a '2XX' range answers 200 with its body, and the client resolves to it", async () => {
    const response = await fetch(`${origin}/api/pets`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ got: { ids: [] } });
  });

  it("'default' is the success of an operation that declares no other, at a path ending in '/'", async () => {
    expect(await ab.getItem!()).toEqual({ ok: true });
    expect(calls.at(-1)!.op).toBe('getItem');
    expect((await fetch(`${origin}/api/status/`)).status).toBe(200);
  });

  it('a binary body reaches the client as bytes, even labelled text/plain', async () => {
    const shopClient = await import(/* @vite-ignore */ join(dir, 'shop.client.ts'));
    const photos = new shopClient.ABClient({ baseUrl: origin, fetch: photoFetch }) as Client;
    const bytes = await photos.getPhoto!({ id: '7' });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect([...(bytes as Uint8Array)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0xff]);
  });

  it('the generated routes and client say so', () => {
    const server = readFileSync(join(dir, 'shop.server.ts'), 'utf8');
    expect(server).toContain("  @GET\n  @Path('/pets')\n  @Produces('application/json')\n  @Status(200)\n  listPets(\n");
    expect(server).toContain("  @GET\n  @Path('/status/')\n  @Produces('application/json')\n  @Status(200)\n  getItem(\n");
    expect(server).toContain('  getItem(input: GetItemInput, ctx: Context): Promise<HandlerResult<Health>>;\n');
    const client = readFileSync(join(dir, 'shop.client.ts'), 'utf8');
    expect(client).toContain(`const getPhotoOperation: OperationSpec = {
  name: 'getPhoto',
  method: 'GET',
  path: '/api/pets/{id}/photo',
  params: [
    { name: 'id', key: 'id', in: 'path' },
  ],
  accept: 'application/octet-stream',
  binary: true,
};`);
  });
});

describe('operation names', () => {
  it('stay unique in the file across tags, and off the members of the generated classes', async () => {
    expect(await ab2.getItem2!()).toEqual({ 名前: 'Teekanne' });
    await ab2.api$!();
    await ab2.constructor$!();
    await ab2.then$!();
    expect(calls.slice(-3).map((c) => c.op)).toEqual(['api$', 'constructor$', 'then$']);
    // No `then` method: awaiting a client gives the client, not a call.
    expect(await Promise.resolve(ab2)).toBe(ab2);
  });
});

describe('the generated code', () => {
  it('type-checks with a user file, with and without exactOptionalPropertyTypes', async () => {
    // Importing the runtime as a user does (\`loom/*\`, its declarations): the user's compiler
    // options then apply to generated code only.
    const project = mkdtempSync(join(tmpdir(), 'loom-http-operations-'));
    const files = await emitInline({ 'shop.yaml': SHOP, 'scale.yaml': SCALE }, ALL_EMITTERS, 'loom');
    for (const [path, content] of files) writeFileSync(join(project, path), content);
    writeFileSync(
      join(project, 'user.ts'),
      `import type { AB2Api, ApiInput, ConstructorInput, GetItem2Input, ListPetsInput } from './shop.server.js';
import type { Health, 商品 } from './shop.types.js';
import { validateHealth, validate商品 } from './shop.validators.js';

// Properties named like Object.prototype members: plain literals without them still assign.
export const health: Health = { ok: true };
export const full: Health = { ok: false, valueOf: 2, constructor: 'x' };
export const item: 商品 = { 名前: 'Tasse' };
export const valid: boolean = validateHealth(health) && validate商品(item);

export class Handlers implements AB2Api {
  async getItem2(_input: GetItem2Input) {
    return { 名前: 'Kanne' };
  }
  async api$(_input: ApiInput) {}
  async constructor$(_input: ConstructorInput) {}
  async then$() {}
}

// Optional inputs may be passed as undefined, as the routes class does.
export const input: ListPetsInput = { code: undefined, filter: { name: 'rex' } };
`,
    );
    try {
      expect(await typeCheck(project)).toBe('');
      expect(await typeCheck(project, { exactOptionalPropertyTypes: true })).toBe('');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('validates properties named like Object.prototype members as own properties', async () => {
    const v = await import(/* @vite-ignore */ join(dir, 'shop.validators.js'));
    expect(v.validateHealth({ ok: true })).toBe(true);
    expect(v.validateHealth({ ok: true, valueOf: 3, constructor: 'c' })).toBe(true);
    expect(v.validateHealth({ ok: true, valueOf: 'three' })).toBe(false);
    expect(v.validateHealth({ ok: true, constructor: 7 })).toBe(false);
    expect(v.validate商品({ 名前: 'Tasse' })).toBe(true);
    expect(v.validate商品({})).toBe(false);
  });
});
