/**
 * @module
 * `readOnly` and `writeOnly` as a user of the generated code meets them: a client creating a
 * resource does not invent the id the server assigns, a handler does not echo a password back,
 * and both are held to the rest by `tsc`. Generated from an OpenAPI document, type-checked with
 * a user file that calls the client and implements the handler.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../generator/cli/cli.js';
import { typeCheck } from '../support/tsc-check.js';

const SCHEMA = `openapi: 3.1.0
info: { title: Pets, version: '1' }
paths:
  /pets:
    post:
      operationId: createPet
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Pet' }
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
components:
  schemas:
    Pet:
      type: object
      required: [id, name, password]
      properties:
        id: { type: integer, readOnly: true }
        name: { type: string }
        password: { type: string, writeOnly: true }
        owner: { $ref: '#/components/schemas/Owner' }
    Owner:
      type: object
      required: [id]
      properties:
        id: { type: integer, readOnly: true }
        nick: { type: string }
    # Takes the name the request form of Tag would get.
    TagRequest:
      type: object
      properties:
        note: { type: string }
    Tag:
      type: object
      required: [id]
      properties:
        id: { type: integer, readOnly: true }
    Plain:
      type: object
      required: [name]
      properties:
        name: { type: string }
`;

/** What a user writes against the generated code; `@ts-expect-error` lines must be errors. */
const USER_FILE = `import type { Context, HandlerResult } from 'loom/rest';
import { PetsClient } from './gen/api.client.js';
import type { CreatePetInput, PetsApi } from './gen/api.server.js';
import type { Pet, PetRequest, Plain, TagRequest, TagRequestForm } from './gen/api.types.js';
import { validateCreatePetBody, validatePet } from './gen/api.validators.js';

export async function create(client: PetsClient): Promise<number> {
  // No id (the server assigns it), nor the owner's.
  const pet = await client.createPet({ body: { name: 'Rex', password: 'secret', owner: { nick: 'ann' } } });
  // @ts-expect-error the client must send the writeOnly password
  await client.createPet({ body: { name: 'Rex' } });
  return pet.id;
}

export class Handler implements PetsApi {
  async createPet({ body }: CreatePetInput, _ctx: Context): Promise<HandlerResult<Pet>> {
    // @ts-expect-error the id is optional in what a client sends
    const id: number = body.id;
    void id;
    const password: string = body.password;
    void password;
    // What the server sends: an id, and never the password.
    return { id: 1, name: body.name };
  }
}

export function guards(data: unknown): string | undefined {
  if (validateCreatePetBody(data)) return data.password;
  if (validatePet(data)) return String(data.id);
  return undefined;
}

// A schema type named like a request form keeps its name; the request form moves aside.
export const note: TagRequest = { note: 'mine' };
export const tag: TagRequestForm = {};
// Types without readOnly or writeOnly properties have one form.
export const plain: Plain = { name: 'x' };
export type NoPlainRequest = typeof import('./gen/api.types.js') extends { PlainRequest: unknown } ? never : true;
export const petRequest: PetRequest = { name: 'Rex', password: 'p' };
`;

const tmp = mkdtempSync(join(tmpdir(), 'loom-rw-forms-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

beforeAll(async () => {
  writeFileSync(join(tmp, 'api.yaml'), SCHEMA);
  let stderr = '';
  const code = await runCli(['generate', 'api.yaml', '--out', 'gen', '--runtime', 'loom', '--quiet'], {
    cwd: tmp,
    stdout: () => {},
    stderr: (t) => (stderr += t),
  });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  writeFileSync(join(tmp, 'user.ts'), USER_FILE);
}, 60_000);

describe('readOnly and writeOnly properties', () => {
  it('declare a request form beside the type, used by request bodies in client and server', () => {
    const types = readFileSync(join(tmp, 'gen/api.types.ts'), 'utf8');
    expect(types).toContain('export interface Pet {\n  id: number;\n  name: string;\n  password?: string;\n  owner?: Owner;\n}');
    expect(types).toContain(
      'export interface PetRequest {\n  id?: number;\n  name: string;\n  password: string;\n  owner?: OwnerRequest;\n}',
    );
    expect(types).toContain('export interface TagRequestForm {\n  id?: number;\n}');
    expect(types).not.toContain('PlainRequest');
    expect(readFileSync(join(tmp, 'gen/api.server.ts'), 'utf8')).toContain('  body: PetRequest;\n');
  });

  it('type-check what users write, and reject what the schema forbids', async () => {
    expect(await typeCheck(tmp)).toBe('');
  }, 60_000);
});
