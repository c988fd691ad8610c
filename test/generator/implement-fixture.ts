/**
 * @module
 * A small project for the scaffolder's tests: an OpenAPI document with two tags (`pets`, with a
 * class that implements one of its two operations; `store`, with none) and a proto service
 * (`Shop`, one unary RPC implemented through a namespace import of re-exports, one streaming RPC
 * missing). Contracts are generated for real; planning reads the files from memory.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from '../../generator/cli/cli.js';
import { type ImplementPlan, type NamingOptions, planImplementation } from '../../generator/implement/index.js';
import { loadTsMorph } from '../../generator/implement/load-ts-morph.js';

export const PETS_YAML = `openapi: 3.0.3
info: { title: Pets, version: '1' }
tags:
  - name: pets
    description: Pets in the shop
  - name: store
    description: The store's stock
paths:
  /pets:
    get:
      tags: [pets]
      summary: List the pets
      operationId: listPets
      parameters:
        - { name: limit, in: query, schema: { type: integer } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Pet' } } } } }
  /pets/{id}:
    get:
      tags: [pets]
      summary: Get one pet
      description: 404 when there is no such pet.
      operationId: getPet
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
        '404': { description: no such pet }
  /inventory:
    get:
      tags: [store]
      operationId: getInventory
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object, additionalProperties: { type: integer } } } } }
components:
  schemas:
    Pet:
      type: object
      required: [id, name]
      properties:
        id: { type: integer }
        name: { type: string }
`;

export const SHOP_PROTO = `syntax = "proto3";
package shop.v1;

// The shop's catalogue
service Shop {
  // GetItem returns one item
  rpc GetItem(GetItemRequest) returns (Item) {}
  // WatchItems streams an item as it changes
  rpc WatchItems(GetItemRequest) returns (stream Item) {}
}

message GetItemRequest { string id = 1; }
message Item { string id = 1; string name = 2; }
`;

export const PETS_HANDLER = `/**
 * @module
 * Pets, by hand.
 */
import type { Context } from 'loom/rest';
import type { ListPetsInput, PetsApi } from '../gen/pets.server.js';
import type { Pet } from '../gen/pets.types.js';

/** Pets kept in memory. */
export class PetsHandler implements PetsApi {
  readonly #pets: Pet[] = [{ id: 1, name: 'Rex' }];

  // Odd formatting on purpose: it must survive byte for byte.
  async listPets(  input : ListPetsInput,  _ctx: Context ) {
    /* the first \`limit\` pets */
    return this.#pets.slice(0, input.limit ?? this.#pets.length);
  }
}
`;

export const SHOP_CONTRACTS = `export type * from '../gen/shop.server.js';
export type * from '../gen/shop.types.js';
`;

export const SHOP_HANDLER = `import type { RpcContext } from 'loom/connect/server';
import type * as S from './contracts.js';

export class ShopHandler implements S.ShopService {
  async getItem(request: S.GetItemRequest, _ctx: RpcContext): Promise<S.Item> {
    return { id: request.id, name: 'Lamp' };
  }
}
`;

/** The fixture's files by path relative to the project. */
export const FIXTURE: Readonly<Record<string, string>> = {
  'schemas/pets.yaml': PETS_YAML,
  'schemas/shop.proto': SHOP_PROTO,
  'handlers/pets-handler.ts': PETS_HANDLER,
  'handlers/contracts.ts': SHOP_CONTRACTS,
  'handlers/shop-handler.ts': SHOP_HANDLER,
};

const root = mkdtempSync(join(tmpdir(), 'loom-implement-'));
let projects = 0;

/** A project folder with `files` written and its schemas generated into `gen/`. */
export async function project(files: Readonly<Record<string, string>> = FIXTURE): Promise<string> {
  const dir = join(root, `p${++projects}`);
  writeTree(dir, files);
  let stderr = '';
  const code = await runCli(['generate', 'schemas', '--out', 'gen', '--quiet'], {
    cwd: dir,
    stdout: () => {},
    stderr: (t) => (stderr += t),
  });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return dir;
}

export function writeTree(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** Every file below `dir`, by absolute path. */
export function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath ?? (entry as { path?: string }).path ?? dir, entry.name);
    files.set(path, readFileSync(path, 'utf8'));
  }
  return files;
}

/**
 * Plans from files in memory: the handlers are `handlers/**`, the contracts `gen/*.server.ts`.
 *
 * @example
 * const plan = await planIn(dir, readTree(dir));
 */
export async function planIn(dir: string, files: ReadonlyMap<string, string>, naming?: NamingOptions): Promise<ImplementPlan> {
  const paths = [...files.keys()].sort();
  return planImplementation({
    tsMorph: await loadTsMorph(),
    readFile: (path) => files.get(path),
    handlerFiles: paths.filter((p) => p.startsWith(join(dir, 'handlers')) && p.endsWith('.ts')),
    contractFiles: paths.filter((p) => p.startsWith(join(dir, 'gen')) && p.endsWith('.server.ts')),
    naming,
    defaultFolder: join(dir, 'handlers'),
  });
}

/** The files with a plan applied, as the next run would read them. */
export function applied(files: ReadonlyMap<string, string>, plan: ImplementPlan): Map<string, string> {
  const next = new Map(files);
  for (const f of plan.files) next.set(f.path, f.after);
  return next;
}

/** Whether `before` is `after` with text inserted only: every byte kept, in order. */
export function onlyInserted(before: string, after: string): boolean {
  let i = 0;
  for (let j = 0; j < after.length && i < before.length; j++) if (after[j] === before[i]) i++;
  return i === before.length;
}
