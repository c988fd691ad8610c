/**
 * Polymorphism through a base object, end to end: a `discriminator` on an object its subtypes
 * extend with `allOf` (OpenAPI 3, with and without `mapping`) and Swagger 2.0's
 * `discriminator: petType` (with `x-discriminator-value`). A body typed as the base must be checked
 * as the subtype its tag names — that subtype's types and required properties, reported as that
 * subtype's errors — while a tag naming no subtype is checked as the base alone; the OpenAPI
 * document must write the discriminator back.
 */
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiDocEmitter } from '../../generator/emitters/openapi-doc/document.js';
import { createRestRouter } from '../../runtime/rest/index.js';
import { emitInline, generateInline } from '../support/generate-inline.js';

const OPENAPI = `
openapi: 3.0.3
info: { title: Shelter, version: '1' }
tags: [{ name: pets }]
paths:
  /pets:
    post:
      operationId: addPet
      tags: [pets]
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } }
      responses:
        '200':
          description: the body, echoed
          content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } }
  /litters:
    post:
      operationId: addLitter
      tags: [pets]
      requestBody:
        required: true
        content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Pet' } } } }
      responses:
        '204': { description: stored }
components:
  schemas:
    Pet:
      type: object
      required: [petType, name]
      properties:
        petType: { type: string }
        name: { type: string, minLength: 1 }
      discriminator:
        propertyName: petType
        mapping: { cat: '#/components/schemas/Cat' }
    Cat:
      allOf:
        - $ref: '#/components/schemas/Pet'
        - type: object
          required: [lives]
          properties:
            lives: { type: integer, minimum: 1, maximum: 9 }
            meows: { type: boolean }
    Dog:
      allOf:
        - $ref: '#/components/schemas/Pet'
        - type: object
          properties: { barks: { type: boolean } }
`;

const SWAGGER = `
swagger: '2.0'
info: { title: Legacy, version: '1' }
tags: [{ name: animals }]
paths:
  /animals:
    post:
      operationId: addAnimal
      tags: [animals]
      consumes: [application/json]
      parameters:
        - { name: body, in: body, required: true, schema: { $ref: '#/definitions/Animal' } }
      responses:
        '204': { description: stored }
definitions:
  Animal:
    type: object
    discriminator: kind
    required: [kind]
    properties: { kind: { type: string } }
  Cat:
    x-discriminator-value: kitty
    allOf:
      - $ref: '#/definitions/Animal'
      - { type: object, required: [lives], properties: { lives: { type: integer } } }
`;

interface Answer {
  readonly status: number;
  readonly json: { violations?: { name: string; message: string }[] } & Record<string, unknown>;
}

let cleanup: () => void;
let app: Hono;

beforeAll(async () => {
  const generated = await generateInline('base-discriminator', { 'shelter.yaml': OPENAPI, 'legacy.yaml': SWAGGER });
  cleanup = generated.cleanup;
  const shelter = await import(/* @vite-ignore */ join(generated.dir, 'shelter.server.ts'));
  const legacy = await import(/* @vite-ignore */ join(generated.dir, 'legacy.server.ts'));
  const echo = async ({ body }: { body: unknown }) => body;
  app = createRestRouter()
    .register(
      new shelter.PetsRoutes({ addPet: echo, addLitter: async () => undefined }),
      new legacy.AnimalsRoutes({ addAnimal: async () => undefined }),
    )
    .app();
});

afterAll(() => cleanup?.());

async function post(path: string, body: unknown): Promise<Answer> {
  const res = await app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const text = await res.text();
  return { status: res.status, json: text === '' ? {} : JSON.parse(text) };
}

/** `name: message` of each violation, sorted. */
function problems(answer: Answer): string[] {
  return (answer.json.violations ?? []).map((v) => `${v.name}: ${v.message}`).sort();
}

describe('a body typed as a base object with a discriminator', () => {
  it('is accepted when it is a valid value of the subtype its tag names', async () => {
    const cat = { petType: 'cat', name: 'Tom', lives: 7, meows: true };
    expect(await post('/pets', cat)).toEqual({ status: 200, json: cat });
    expect((await post('/pets', { petType: 'Dog', name: 'Rex', barks: true })).status).toBe(200);
  });

  it('is checked as that subtype: its property types and its required properties, each reported once', async () => {
    const wrong = await post('/pets', { petType: 'cat', name: 'Tom', lives: 12, meows: 'yes' });
    expect(wrong.status).toBe(400);
    expect(problems(wrong)).toEqual(['/lives: must be <= 9', '/meows: must be boolean']);
    const missing = await post('/pets', { petType: 'cat', name: 'Tom' });
    expect(problems(missing)).toEqual(["/lives: must have required property 'lives'"]);
  });

  it('names a subtype by its schema name when the mapping leaves it out', async () => {
    expect(problems(await post('/pets', { petType: 'Dog', name: 'Rex', barks: 'loud' }))).toEqual(['/barks: must be boolean']);
    // A cat's properties mean nothing to a dog.
    expect((await post('/pets', { petType: 'Dog', name: 'Rex', lives: 'many' })).status).toBe(200);
  });

  it('is checked as the base alone when its tag names no subtype, and the base rules still hold for subtypes', async () => {
    expect((await post('/pets', { petType: 'fish', name: 'Nemo', lives: 'many' })).status).toBe(200);
    expect(problems(await post('/pets', { petType: 'cat', name: '', lives: 3 }))).toEqual(['/name: must NOT have fewer than 1 characters']);
    expect(problems(await post('/pets', { name: 'Tom' }))).toEqual(["/petType: must have required property 'petType'"]);
  });

  it('is checked per element inside arrays', async () => {
    const answer = await post('/litters', [
      { petType: 'cat', name: 'A', lives: 1 },
      { petType: 'cat', name: 'B' },
    ]);
    expect(problems(answer)).toEqual(["/1/lives: must have required property 'lives'"]);
  });

  it("comes from Swagger 2.0's discriminator, with x-discriminator-value as the tag", async () => {
    expect((await post('/animals', { kind: 'kitty', lives: 3 })).status).toBe(204);
    expect(problems(await post('/animals', { kind: 'kitty' }))).toEqual(["/lives: must have required property 'lives'"]);
    // The definition's name is not its tag when x-discriminator-value gives one.
    expect((await post('/animals', { kind: 'Cat' })).status).toBe(204);
  });
});

describe('the OpenAPI document', () => {
  it('writes the discriminator back on the base, mapping every subtype', async () => {
    const emitted = await emitInline({ 'shelter.yaml': OPENAPI }, [openapiDocEmitter]);
    const doc = JSON.parse(emitted.get('shelter.openapi.json')!) as { components: { schemas: Record<string, Record<string, unknown>> } };
    expect(doc.components.schemas['Pet']!['discriminator']).toEqual({
      propertyName: 'petType',
      mapping: { cat: '#/components/schemas/Cat', Dog: '#/components/schemas/Dog' },
    });
  });
});
