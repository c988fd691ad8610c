/**
 * The scaffolder's pure core (`planImplementation`) on an HTTP and an RPC service generated for
 * real: what it adds, byte for byte; what it leaves alone; a second run; a new service; methods
 * a schema dropped; and the inputs it refuses.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePlan } from '../../generator/implement/index.js';
import { typeCheck } from '../support/tsc-check.js';
import { applied, FIXTURE, onlyInserted, PETS_HANDLER, PETS_YAML, planIn, project, readTree, SHOP_HANDLER } from './implement-fixture.js';

describe('loom implement: planning', () => {
  it('adds the missing HTTP method: exact types, imports merged where the file has them, the schema text, a 501 body', async () => {
    const dir = await project();
    const plan = await planIn(dir, readTree(dir));
    expect(plan.problems).toEqual([]);
    const pets = plan.files.find((f) => f.path === join(dir, 'handlers/pets-handler.ts'))!;
    expect(pets.after).toBe(`/**
 * @module
 * Pets, by hand.
 */
import { HttpError } from 'loom/rest';
import type { Context, HandlerResult } from 'loom/rest';
import type { GetPetInput, ListPetsInput, PetsApi } from '../gen/pets.server.js';
import type { Pet } from '../gen/pets.types.js';

/** Pets kept in memory. */
export class PetsHandler implements PetsApi {
  readonly #pets: Pet[] = [{ id: 1, name: 'Rex' }];

  // Odd formatting on purpose: it must survive byte for byte.
  async listPets(  input : ListPetsInput,  _ctx: Context ) {
    /* the first \`limit\` pets */
    return this.#pets.slice(0, input.limit ?? this.#pets.length);
  }

  /**
   * Get one pet
   *
   * 404 when there is no such pet.
   *
   * Serves operation getPet (GET /pets/{id}).
   */
  async getPet(input: GetPetInput, ctx: Context): Promise<HandlerResult<Pet>> {
    throw new HttpError(501, 'getPet is not implemented');
  }
}
`);
    expect(pets.added).toEqual([{ className: 'PetsHandler', contract: 'PetsApi', method: 'getPet', line: 27 }]);
  });

  it('adds a streaming RPC through a namespace import of re-exports, reusing its names', async () => {
    const dir = await project();
    const plan = await planIn(dir, readTree(dir));
    const shop = plan.files.find((f) => f.path === join(dir, 'handlers/shop-handler.ts'))!;
    expect(shop.after).toBe(`import { RpcError } from 'loom/connect/server';
import type { RpcContext } from 'loom/connect/server';
import type * as S from './contracts.js';

export class ShopHandler implements S.ShopService {
  async getItem(request: S.GetItemRequest, _ctx: RpcContext): Promise<S.Item> {
    return { id: request.id, name: 'Lamp' };
  }

  /**
   * WatchItems streams an item as it changes
   *
   * Serves rpc shop.v1.Shop.WatchItems.
   */
  watchItems(request: S.GetItemRequest, ctx: RpcContext): AsyncIterable<S.Item> {
    throw new RpcError('unimplemented', 'shop.v1.Shop.WatchItems is not implemented');
  }
}
`);
  });

  it('keeps every byte of the existing code: bodies, comments and formatting', async () => {
    const dir = await project();
    const plan = await planIn(dir, readTree(dir));
    for (const [name, before] of [
      ['pets-handler.ts', PETS_HANDLER],
      ['shop-handler.ts', SHOP_HANDLER],
    ] as const) {
      const after = plan.files.find((f) => f.path === join(dir, 'handlers', name))!.after;
      expect(onlyInserted(before, after)).toBe(true);
      // Everything from the class's JSDoc to its last existing member is one unbroken piece.
      const classStart = before.indexOf(name === 'pets-handler.ts' ? '/** Pets kept' : 'export class');
      const lastMember = before.lastIndexOf('\n  }\n') + 4;
      expect(after).toContain(before.slice(classStart, lastMember));
    }
  });

  it('is idempotent: a second run plans nothing', async () => {
    const dir = await project();
    const files = readTree(dir);
    const first = await planIn(dir, files);
    expect(first.files.length).toBe(3);
    const second = await planIn(dir, applied(files, first));
    expect(second.files).toEqual([]);
    expect(second.problems).toEqual([]);
  });

  it('writes a new handler for a service nothing implements, named like the handlers beside it', async () => {
    const dir = await project();
    const plan = await planIn(dir, readTree(dir));
    const store = plan.files.find((f) => f.before === undefined)!;
    expect(store.path).toBe(join(dir, 'handlers/store-handler.ts'));
    expect(store.created).toEqual({ className: 'StoreHandler', contract: 'StoreApi', example: join(dir, 'handlers/pets-handler.ts') });
    expect(store.after).toBe(`/**
 * @module
 * Implements the HTTP operations of tag store (\`StoreApi\`). Written by \`loom implement\`: each
 * method fails as not implemented until its body is written.
 */
import { HttpError } from 'loom/rest';
import type { Context, HandlerResult } from 'loom/rest';
import type { GetInventoryInput, StoreApi } from '../gen/pets.server.js';

/**
 * The store's stock
 */
export class StoreHandler implements StoreApi {
  /**
   * Serves operation getInventory (GET /inventory).
   */
  async getInventory(input: GetInventoryInput, ctx: Context): Promise<HandlerResult<{ [key: string]: number }>> {
    throw new HttpError(501, 'getInventory is not implemented');
  }
}
`);
  });

  it('names new handlers by templates when given', async () => {
    const dir = await project();
    const plan = await planIn(dir, readTree(dir), { file: join(dir, 'src/{service}/{service}.impl.ts'), className: 'The{Service}' });
    const store = plan.files.find((f) => f.before === undefined)!;
    expect([store.path, store.created?.className]).toEqual([join(dir, 'src/store/store.impl.ts'), 'TheStore']);
    expect(store.after).toContain("import type { GetInventoryInput, StoreApi } from '../../gen/pets.server.js';\n");
  });

  it('fills an empty class between its braces', async () => {
    const dir = await project({
      ...FIXTURE,
      'handlers/shop-handler.ts':
        "import type { ShopService } from '../gen/shop.server.js';\n\nexport class ShopHandler implements ShopService {}\n",
    });
    const plan = await planIn(dir, readTree(dir));
    const shop = plan.files.find((f) => f.path === join(dir, 'handlers/shop-handler.ts'))!;
    expect(shop.after).toBe(`import { RpcError } from 'loom/connect/server';
import type { RpcContext } from 'loom/connect/server';
import type { ShopService } from '../gen/shop.server.js';
import type { GetItemRequest, Item } from '../gen/shop.types.js';

export class ShopHandler implements ShopService {
  /**
   * GetItem returns one item
   *
   * Serves rpc shop.v1.Shop.GetItem.
   */
  async getItem(request: GetItemRequest, ctx: RpcContext): Promise<Item> {
    throw new RpcError('unimplemented', 'shop.v1.Shop.GetItem is not implemented');
  }

  /**
   * WatchItems streams an item as it changes
   *
   * Serves rpc shop.v1.Shop.WatchItems.
   */
  watchItems(request: GetItemRequest, ctx: RpcContext): AsyncIterable<Item> {
    throw new RpcError('unimplemented', 'shop.v1.Shop.WatchItems is not implemented');
  }
}
`);
    expect(shop.added.map((a) => [a.method, a.line])).toEqual([
      ['getItem', 12],
      ['watchItems', 21],
    ]);
  });

  it('writes in the layout of the file: CRLF line ends, four-space indents, double quotes, no semicolons', async () => {
    const handler = PETS_HANDLER.replace(/'/g, '"')
      .replace(/;\n/g, '\n')
      .replace(/^( +)/gm, (s) => (s.length === 1 ? s : s.repeat(2)))
      .replace(/\n/g, '\r\n');
    const dir = await project({ ...FIXTURE, 'handlers/pets-handler.ts': handler });
    const plan = await planIn(dir, readTree(dir));
    const after = plan.files.find((f) => f.path === join(dir, 'handlers/pets-handler.ts'))!.after;
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    expect(after).toContain(
      '    async getPet(input: GetPetInput, ctx: Context): Promise<HandlerResult<Pet>> {\r\n' +
        '        throw new HttpError(501, "getPet is not implemented")\r\n' +
        '    }\r\n}\r\n',
    );
    expect(after).toContain('import { HttpError } from "loom/rest"\r\nimport type { Context, HandlerResult } from "loom/rest"\r\n');
  });

  it('leaves classes implementing the generated clients alone: they are not contracts', async () => {
    const dir = await project({
      ...FIXTURE,
      'handlers/fake-shop.ts':
        "import type { ShopClient } from '../gen/shop.client.js';\n\nexport class FakeShop implements ShopClient {}\n",
    });
    const plan = await planIn(dir, readTree(dir));
    expect(plan.problems).toEqual([]);
    expect(plan.files.map((f) => f.path.slice(dir.length + 1))).toEqual([
      'handlers/pets-handler.ts',
      'handlers/shop-handler.ts',
      'handlers/store-handler.ts',
    ]);
  });

  it('reports methods the schema no longer has, with file and line, and deletes nothing', async () => {
    // listPets leaves the schema; its handler method stays where it is.
    const yaml = PETS_YAML.replace(/ {2}\/pets:\n[\s\S]*?(?= {2}\/pets\/\{id\}:)/, '');
    expect(yaml).not.toContain('listPets');
    const dir = await project({ ...FIXTURE, 'schemas/pets.yaml': yaml });
    const plan = await planIn(dir, readTree(dir));
    expect(plan.stale).toEqual([
      { path: join(dir, 'handlers/pets-handler.ts'), line: 14, className: 'PetsHandler', method: 'listPets', contracts: ['PetsApi'] },
    ]);
    const pets = plan.files.find((f) => f.path === join(dir, 'handlers/pets-handler.ts'))!;
    expect(pets.after).toContain('  async listPets(  input : ListPetsInput,  _ctx: Context ) {\n');
  });

  it('refuses a class implementing two contracts that declare one method with different types', async () => {
    const dir = await project({
      ...FIXTURE,
      'schemas/vet.yaml': `openapi: 3.0.3
info: { title: Vet, version: '1' }
paths:
  /vet/{name}:
    get:
      tags: [vet]
      operationId: getPet
      parameters:
        - { name: name, in: path, required: true, schema: { type: string } }
      responses:
        '204': { description: seen }
`,
      'handlers/both.ts': `import type { PetsApi } from '../gen/pets.server.js';
import type { VetApi } from '../gen/vet.server.js';

export class Both implements PetsApi, VetApi {}
`,
    });
    const plan = await planIn(dir, readTree(dir));
    const errors = plan.problems.filter((p) => p.severity === 'error');
    expect(errors).toEqual([
      {
        severity: 'error',
        path: join(dir, 'handlers/both.ts'),
        line: 4,
        message: expect.stringMatching(
          new RegExp(
            "^Both implements PetsApi and VetApi, which both declare 'getPet' with different types " +
              '\\(.*pets\\.server\\.ts:\\d+ and .*vet\\.server\\.ts:\\d+\\): no one method can be both; ' +
              'implement the two contracts in separate classes$',
          ),
        ),
      },
    ]);
  });

  it('refuses a handler file that does not parse, at its line', async () => {
    const broken = PETS_HANDLER.replace(
      '  async listPets(  input : ListPetsInput,  _ctx: Context ) {',
      '  async listPets(input: ListPetsInput, _ctx: Context {',
    );
    const dir = await project({ ...FIXTURE, 'handlers/pets-handler.ts': broken });
    const plan = await planIn(dir, readTree(dir));
    expect(plan.problems).toEqual([
      {
        severity: 'error',
        path: join(dir, 'handlers/pets-handler.ts'),
        line: 14,
        message: "cannot parse: ',' expected; fix the syntax, then run again",
      },
    ]);
  });

  it('what it writes type-checks, and the compiler finds nothing missing', async () => {
    const dir = await project();
    const plan = await planIn(dir, readTree(dir));
    await writePlan(plan.files);
    expect(await typeCheck(dir)).toBe('');
  });
});
