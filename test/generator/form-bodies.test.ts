/**
 * Form bodies end to end: an inline OpenAPI 3.1 document (multipart and url-encoded bodies, one
 * operation taking JSON or a form) and a Swagger 2.0 `formData` operation are generated into
 * `.tmp/`, served by the decorator runtime, and called both by hand and through the generated
 * client. Handlers must receive what their generated types say (numbers, booleans, arrays,
 * `File`s, parsed objects), and bad fields must be one 400 listing each of them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../runtime/client/api-error.js';
import { createRestRouter } from '../../runtime/rest/index.js';
import { generateInline } from '../support/generate-inline.js';
import { typeCheck } from '../support/tsc-check.js';

const OPENAPI_31 = `
openapi: 3.1.0
info: { title: Shelter, version: '1' }
tags: [{ name: pets }]
paths:
  /pets:
    post:
      operationId: createPet
      tags: [pets]
      parameters:
        - { name: dryRun, in: query, schema: { type: boolean } }
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [name, age, photo]
              properties:
                name: { type: string, minLength: 1 }
                age: { type: integer, minimum: 0, maximum: 40 }
                weight: { type: number }
                vaccinated: { type: boolean }
                tags: { type: array, items: { type: string } }
                scores: { type: array, items: { type: integer } }
                photo: { type: string, format: binary }
                owner: { $ref: '#/components/schemas/Owner' }
                vets: { type: array, items: { $ref: '#/components/schemas/Owner' } }
                kind: { type: string, enum: [cat, dog] }
                codes: { type: array, items: { type: integer } }
                certificate: { type: string, contentMediaType: application/pdf }
            encoding:
              codes: { style: form, explode: false }
      responses:
        '204': { description: stored }
  /pets/search:
    post:
      operationId: searchPets
      tags: [pets]
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [q]
              properties:
                q: { type: string }
                limit: { type: integer, minimum: 1 }
                exact: { type: boolean }
                kinds: { type: array, items: { type: string, enum: [cat, dog] } }
                filter: { $ref: '#/components/schemas/Filter' }
                sizes: { type: array, items: { type: integer } }
                words: { type: array, items: { type: string } }
            encoding:
              sizes: { explode: false }
              words: { style: spaceDelimited, explode: false }
      responses:
        '204': { description: searched }
  /notes:
    post:
      operationId: addNote
      tags: [pets]
      requestBody:
        required: true
        content:
          application/json: { schema: { $ref: '#/components/schemas/Note' } }
          application/x-www-form-urlencoded: { schema: { $ref: '#/components/schemas/Note' } }
      responses:
        '204': { description: noted }
components:
  schemas:
    Owner:
      type: object
      required: [name]
      properties: { name: { type: string }, phone: { type: string } }
    Filter:
      type: object
      properties: { minAge: { type: integer } }
    Note:
      type: object
      required: [text, stars]
      properties: { text: { type: string }, stars: { type: integer, maximum: 5 } }
`;

const SWAGGER_20 = `
swagger: '2.0'
info: { title: Legacy, version: '1' }
tags: [{ name: uploads }]
paths:
  /uploads:
    post:
      operationId: upload
      tags: [uploads]
      consumes: [multipart/form-data]
      parameters:
        - { name: file, in: formData, type: file, required: true }
        - { name: count, in: formData, type: integer, required: true }
        - { name: public, in: formData, type: boolean }
        - { name: labels, in: formData, type: array, items: { type: string }, collectionFormat: multi }
        - { name: ids, in: formData, type: array, items: { type: integer } }
        - { name: tags, in: formData, type: array, items: { type: string }, collectionFormat: pipes }
        - { name: cols, in: formData, type: array, items: { type: string }, collectionFormat: tsv }
      responses:
        '204': { description: uploaded }
`;

type Body = Record<string, unknown>;
interface Recorded {
  readonly op: string;
  readonly input: { body?: Body; dryRun?: boolean };
}
type Client = Record<string, (input: object) => Promise<unknown>>;

let cleanup: () => void;
let dir: string;
let app: Hono;
let shelter: Client;
let legacy: Client;
const calls: Recorded[] = [];

beforeAll(async () => {
  const generated = await generateInline('form-bodies', { 'shelter.yaml': OPENAPI_31, 'legacy.yaml': SWAGGER_20 });
  cleanup = generated.cleanup;
  dir = generated.dir;
  const server = await import(/* @vite-ignore */ join(dir, 'shelter.server.ts'));
  const legacyServer = await import(/* @vite-ignore */ join(dir, 'legacy.server.ts'));
  const record = (op: string) => async (input: Recorded['input']) => {
    calls.push({ op, input });
  };
  app = createRestRouter()
    .register(
      new server.PetsRoutes({ createPet: record('createPet'), searchPets: record('searchPets'), addNote: record('addNote') }),
      new legacyServer.UploadsRoutes({ upload: record('upload') }),
    )
    .app();
  // The generated clients talk to the app without a socket.
  const options = { baseUrl: 'http://pets.test', fetch: (request: Request) => app.fetch(request) };
  shelter = new (await import(/* @vite-ignore */ join(dir, 'shelter.client.ts'))).PetsClient(options);
  legacy = new (await import(/* @vite-ignore */ join(dir, 'legacy.client.ts'))).UploadsClient(options);
});

afterAll(() => cleanup?.());

/** Sends `body` to `path` and returns the status, the parsed answer and the body the handler got. */
async function post(
  path: string,
  body: BodyInit,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown; received?: Body }> {
  const before = calls.length;
  const res = await app.request(path, { method: 'POST', body, headers });
  const text = await res.text();
  return {
    status: res.status,
    json: text === '' ? undefined : JSON.parse(text),
    received: calls.length > before ? calls.at(-1)!.input.body : undefined,
  };
}

function pet(fields: Record<string, string | Blob | (string | Blob)[]>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  return form;
}

const PHOTO = () => new File(['\x89PNG'], 'rex.png', { type: 'image/png' });
const json = (value: unknown) => new Blob([JSON.stringify(value)], { type: 'application/json' });
const URLENCODED = { 'content-type': 'application/x-www-form-urlencoded' };

describe('generated routes: multipart bodies (OpenAPI 3.1)', () => {
  it('hand the handler numbers, booleans, arrays, the File and parsed JSON parts', async () => {
    const r = await post(
      '/pets',
      pet({
        name: 'Rex',
        age: '3',
        weight: '12.5',
        vaccinated: 'true',
        tags: ['good', 'loud'],
        scores: '7',
        photo: PHOTO(),
        owner: json({ name: 'Ann' }),
        vets: [json({ name: 'Dr. B' }), '{"name":"Dr. C"}'],
        kind: 'dog',
      }),
    );
    expect(r.status).toBe(204);
    const body = r.received!;
    expect(body).toMatchObject({
      name: 'Rex',
      age: 3,
      weight: 12.5,
      vaccinated: true,
      tags: ['good', 'loud'],
      scores: [7],
      owner: { name: 'Ann' },
      vets: [{ name: 'Dr. B' }, { name: 'Dr. C' }],
      kind: 'dog',
    });
    expect(body.photo).toBeInstanceOf(File);
    expect((body.photo as File).name).toBe('rex.png');
    expect(await (body.photo as File).text()).toBe('\x89PNG');
  });

  it('answers 400 listing every bad field, conversion and schema problems and other parameters together', async () => {
    const r = await post(
      '/pets?dryRun=perhaps',
      pet({
        name: '',
        age: 'three',
        weight: 'heavy',
        vaccinated: 'maybe',
        scores: ['1', '2.5'],
        photo: 'not a file',
        owner: '{"name":',
        vets: json({ phone: '1' }),
        kind: 'cow',
      }),
    );
    expect(r.status).toBe(400);
    expect(r.received).toBeUndefined();
    const violations = (r.json as { violations: { location: string; name: string; message: string }[] }).violations;
    expect(violations).toEqual(
      expect.arrayContaining([
        { location: 'query', name: 'dryRun', message: 'must be a boolean (true or false), got "perhaps"' },
        { location: 'body', name: '/age', message: 'must be an integer, got "three"' },
        { location: 'body', name: '/weight', message: 'must be a number, got "heavy"' },
        { location: 'body', name: '/vaccinated', message: 'must be a boolean (true or false), got "maybe"' },
        { location: 'body', name: '/scores/1', message: 'must be an integer, got "2.5"' },
        { location: 'body', name: '/photo', message: 'must be an uploaded file' },
        { location: 'body', name: '/owner', message: 'must be valid JSON' },
        { location: 'body', name: '/name', message: 'must NOT have fewer than 1 characters' },
        { location: 'body', name: '/vets/0/name', message: "must have required property 'name'" },
        { location: 'body', name: '/kind', message: 'must be equal to one of the allowed values' },
      ]),
    );
    // Each field once: a value that could not be converted is not also reported by the schema.
    expect(violations.filter((v) => v.name === '/age')).toHaveLength(1);
    expect(violations).toHaveLength(10);
  });

  it('checks converted values against the schema: bounds and required fields', async () => {
    const r = await post('/pets', pet({ name: 'Old', age: '41', photo: PHOTO() }));
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ violations: [{ location: 'body', name: '/age', message: 'must be <= 40' }] });
    const missing = await post('/pets', pet({ name: 'Rex', age: '2' }));
    expect(missing.json).toMatchObject({
      violations: [{ location: 'body', name: '/photo', message: "must have required property 'photo'" }],
    });
  });

  it('refuses a repeated single-valued field instead of picking one', async () => {
    const r = await post('/pets', pet({ name: 'Rex', age: ['1', '2'], photo: PHOTO() }));
    expect(r.json).toMatchObject({ violations: [{ location: 'body', name: '/age', message: 'must be sent once, got 2 values' }] });
  });

  it('treats an empty file input and empty number inputs as not sent, as HTML forms send them', async () => {
    // What a browser sends for a form whose file input and number input were left empty.
    const parts = [
      'name="name"\r\n\r\nRex',
      'name="age"\r\n\r\n2',
      'name="weight"\r\n\r\n',
      'name="photo"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n',
    ];
    const browser = `${parts.map((part) => `--B\r\nContent-Disposition: form-data; ${part}\r\n`).join('')}--B--\r\n`;
    const r = await post('/pets', browser, { 'content-type': 'multipart/form-data; boundary=B' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ violations: [{ location: 'body', name: '/photo', message: "must have required property 'photo'" }] });
    const ok = await post('/pets', pet({ name: 'Rex', age: '2', weight: '', photo: PHOTO() }));
    expect(ok.status).toBe(204);
    expect(ok.received).not.toHaveProperty('weight');
  });
});

describe('generated routes: url-encoded bodies', () => {
  it('convert fields and collect repeated keys (form, explode) into arrays', async () => {
    const r = await post('/pets/search', 'q=rex&limit=5&exact=on&kinds=cat&kinds=dog&filter=%7B%22minAge%22%3A2%7D', URLENCODED);
    expect(r.status).toBe(204);
    expect(r.received).toEqual({ q: 'rex', limit: 5, exact: true, kinds: ['cat', 'dog'], filter: { minAge: 2 } });
    const one = await post('/pets/search', 'q=rex&kinds=cat', URLENCODED);
    expect(one.received).toEqual({ q: 'rex', kinds: ['cat'] });
  });

  it('reject fractions for integers, unknown enum values and files that cannot be sent', async () => {
    const r = await post('/pets/search', 'q=rex&limit=2.5&kinds=cow&exact=yes', URLENCODED);
    expect(r.status).toBe(400);
    expect((r.json as { violations: unknown[] }).violations).toEqual([
      { location: 'body', name: '/limit', message: 'must be an integer, got "2.5"' },
      { location: 'body', name: '/exact', message: 'must be a boolean (true or false), got "yes"' },
      { location: 'body', name: '/kinds/0', message: 'must be equal to one of the allowed values' },
    ]);
  });

  it('read arrays whose encoding says explode: false from one field (commas, spaces)', async () => {
    const r = await post('/pets/search', 'q=rex&sizes=1,2&words=big%20dog', URLENCODED);
    expect(r.status).toBe(204);
    expect(r.received).toEqual({ q: 'rex', sizes: [1, 2], words: ['big', 'dog'] });
  });

  it('an operation that takes JSON or a form reads each as sent and validates both', async () => {
    expect((await post('/notes', JSON.stringify({ text: 'hi', stars: 4 }), { 'content-type': 'application/json' })).received).toEqual({
      text: 'hi',
      stars: 4,
    });
    expect((await post('/notes', 'text=hi&stars=4', URLENCODED)).received).toEqual({ text: 'hi', stars: 4 });
    const bad = await post('/notes', 'text=hi&stars=9', URLENCODED);
    expect(bad.json).toMatchObject({ status: 400, violations: [{ location: 'body', name: '/stars', message: 'must be <= 5' }] });
    const badJson = await post('/notes', JSON.stringify({ text: 'hi', stars: '4' }), { 'content-type': 'application/json' });
    expect(badJson.json).toMatchObject({ violations: [{ location: 'body', name: '/stars', message: 'must be integer' }] });
  });
});

describe('generated routes: Swagger 2.0 formData', () => {
  it('reads the file, the integer, the boolean and the multi-valued array', async () => {
    const r = await post('/uploads', pet({ file: new File(['data'], 'a.bin'), count: '2', public: 'false', labels: ['x', 'y'] }));
    expect(r.status).toBe(204);
    expect(r.received).toMatchObject({ count: 2, public: false, labels: ['x', 'y'] });
    expect(r.received!.file).toBeInstanceOf(File);
  });

  it('splits arrays by collectionFormat: csv when absent, pipes, tsv', async () => {
    const r = await post('/uploads', pet({ file: new File(['data'], 'a.bin'), count: '1', ids: '1,2,3', tags: 'a|b', cols: 'x\ty' }));
    expect(r.status).toBe(204);
    expect(r.received).toMatchObject({ ids: [1, 2, 3], tags: ['a', 'b'], cols: ['x', 'y'] });
    const bad = await post('/uploads', pet({ file: new File(['data'], 'a.bin'), count: '1', ids: '1,x' }));
    expect(bad.json).toMatchObject({ violations: [{ location: 'body', name: '/ids/1', message: 'must be an integer, got "x"' }] });
  });

  it('rejects text where the file goes and a missing required field', async () => {
    const r = await post('/uploads', pet({ file: 'data' }));
    expect((r.json as { violations: unknown[] }).violations).toEqual([
      { location: 'body', name: '/file', message: 'must be an uploaded file' },
      { location: 'body', name: '/count', message: "must have required property 'count'" },
    ]);
  });
});

describe('generated clients round-trip form bodies', () => {
  it('multipart: numbers, booleans, arrays, a file and JSON objects arrive as sent', async () => {
    const photo = PHOTO();
    await shelter.createPet({
      dryRun: true,
      body: {
        name: 'Rex',
        age: 3,
        weight: 12.5,
        vaccinated: false,
        tags: ['a', 'b'],
        scores: [1, 2],
        photo,
        owner: { name: 'Ann', phone: '1' },
        vets: [{ name: 'Dr. B' }],
        kind: 'cat',
      },
    });
    const { input } = calls.at(-1)!;
    expect(input.dryRun).toBe(true);
    expect(input.body).toMatchObject({
      name: 'Rex',
      age: 3,
      weight: 12.5,
      vaccinated: false,
      tags: ['a', 'b'],
      scores: [1, 2],
      owner: { name: 'Ann', phone: '1' },
      vets: [{ name: 'Dr. B' }],
      kind: 'cat',
    });
    expect(await (input.body!.photo as File).text()).toBe(await photo.text());
  });

  it("multipart: a string with a contentMediaType (OpenAPI 3.1's spelling of a file) travels as a file part", async () => {
    await shelter.createPet({
      body: { name: 'Rex', age: 3, photo: PHOTO(), certificate: new Blob(['%PDF'], { type: 'application/pdf' }) },
    });
    expect(await (calls.at(-1)!.input.body!.certificate as File).text()).toBe('%PDF');
    const text = await post('/pets', pet({ name: 'Rex', age: '3', photo: PHOTO(), certificate: 'not a file' }));
    expect(text.json).toMatchObject({ violations: [{ location: 'body', name: '/certificate', message: 'must be an uploaded file' }] });
  });

  it('url-encoded: typed values, and a client-side 400 surfaces as ApiError', async () => {
    await shelter.searchPets({ body: { q: 'rex', limit: 2, exact: false, kinds: ['dog'], filter: { minAge: 1 } } });
    expect(calls.at(-1)!.input.body).toEqual({ q: 'rex', limit: 2, exact: false, kinds: ['dog'], filter: { minAge: 1 } });
    const error = await shelter.searchPets({ body: { q: 'rex', limit: 0 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body).toMatchObject({ violations: [{ location: 'body', name: '/limit', message: 'must be >= 1' }] });
  });

  it('Swagger 2.0 formData: file, integer, boolean and array', async () => {
    await legacy.upload({ body: { file: new Blob(['bytes']), count: 7, public: true, labels: ['only'] } });
    const body = calls.at(-1)!.input.body!;
    expect(body).toMatchObject({ count: 7, public: true, labels: ['only'] });
    expect(await (body.file as Blob).text()).toBe('bytes');
  });

  it('delimited arrays go in one field, as the schema says, and arrive as arrays', async () => {
    const sent: FormData[] = [];
    const spying = {
      baseUrl: 'http://pets.test',
      fetch: async (request: Request) => {
        sent.push(await request.clone().formData());
        return app.fetch(request);
      },
    };
    const spyLegacy = new (await import(/* @vite-ignore */ join(dir, 'legacy.client.ts'))).UploadsClient(spying);
    await spyLegacy.upload({
      body: { file: new Blob(['b']), count: 1, labels: ['p', 'q'], ids: [4, 5], tags: ['a', 'b'], cols: ['x', 'y'] },
    });
    expect(sent[0]!.getAll('labels')).toEqual(['p', 'q']);
    expect([sent[0]!.getAll('ids'), sent[0]!.getAll('tags'), sent[0]!.getAll('cols')]).toEqual([['4,5'], ['a|b'], ['x\ty']]);
    expect(calls.at(-1)!.input.body).toMatchObject({ labels: ['p', 'q'], ids: [4, 5], tags: ['a', 'b'], cols: ['x', 'y'] });
    const spyShelter = new (await import(/* @vite-ignore */ join(dir, 'shelter.client.ts'))).PetsClient(spying);
    await spyShelter.searchPets({ body: { q: 'rex', sizes: [1, 2], words: ['big', 'dog'] } });
    expect(calls.at(-1)!.input.body).toEqual({ q: 'rex', sizes: [1, 2], words: ['big', 'dog'] });
    await spyShelter.createPet({ body: { name: 'Rex', age: 3, photo: PHOTO(), codes: [7, 8] } });
    expect(sent.at(-1)!.getAll('codes')).toEqual(['7,8']);
    expect(calls.at(-1)!.input.body).toMatchObject({ codes: [7, 8] });
  });

  it('the generated code type-checks, with handlers written against its form body types', async () => {
    writeFileSync(
      join(dir, 'handlers.ts'),
      `import type { CreatePetInput, PetsApi } from './shelter.server.js';
import type { UploadInput } from './legacy.server.js';

export const pets: Pick<PetsApi, 'createPet'> = {
  async createPet({ body }: CreatePetInput) {
    const years: number = body.age;
    const photo: Blob = body.photo;
    const certificate: Blob | undefined = body.certificate;
    const tags: string[] | undefined = body.tags;
    const owner: string | undefined = body.owner?.name;
    void [years, photo, certificate, tags, owner];
  },
};
export const count = (input: UploadInput): number => input.body.count;
`,
    );
    expect(await typeCheck(dir)).toBe('');
  }, 60_000);
});
