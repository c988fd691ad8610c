/**
 * @module
 * The generator on large, real schemas: ~150 protos from `google-proto-files` (BigQuery
 * Storage, Spanner, Firestore, Cloud Storage, Dataproc, IAM, `google/api`, `google/type`,
 * `google/rpc`, `google/longrunning`, and every well-known type they import) and the
 * OpenAPI 3.0 / 3.1 and Swagger 2.0 documents in `test/fixtures/schemas/real/`. All output is generated
 * once, type-checked by one `tsc` run together with a user file that implements and calls
 * it, and then checked for exact lines and for validators that accept and reject payloads.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../generator/cli/cli.js';
import { REPO, typeCheck } from '../support/tsc-check.js';

const PROTOS = join(REPO, 'node_modules/google-proto-files');

/** Folders under `google/`: streaming, several services per file, every well-known type, enum aliases. */
const PROTO_FOLDERS = [
  'cloud/bigquery/storage',
  'spanner/v1',
  'firestore/v1',
  'storage/v2',
  'cloud/dataproc',
  'iam/v1',
  'api',
  'type',
  'rpc',
  'longrunning',
];

const tmp = mkdtempSync(join(tmpdir(), 'loom-large-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const runs: Record<'proto' | 'openapi' | 'shadow', { code: number; stderr: string }> = {} as never;

async function loom(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await runCli([...args, '--quiet'], { cwd: tmp, stdout: () => {}, stderr: (t) => (stderr += t) });
  return { code, stderr };
}

/** Reads a generated file by its path under the temp folder. */
function out(path: string): string {
  return readFileSync(join(tmp, path), 'utf8');
}

function listFiles(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith(suffix));
}

/** Schemas that name their types after globals the generated code needs (`Blob`, `AsyncIterable`). */
function writeShadowingSchemas(): void {
  mkdirSync(join(tmp, 'shadow-src/shadow/v1'), { recursive: true });
  writeFileSync(
    join(tmp, 'shadow-src/shadow/v1/shadow.proto'),
    [
      'syntax = "proto3";',
      'package shadow.v1;',
      'message AsyncIterable { string chunk = 1; }',
      'message Promise { string id = 1; }',
      'service Pipe { rpc Flow(stream AsyncIterable) returns (stream Promise); }',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(tmp, 'shadow-src/git.yaml'),
    [
      'openapi: 3.0.3',
      'info: { title: Git, version: "1" }',
      'paths:',
      '  /blobs:',
      '    post:',
      '      operationId: createBlob',
      '      requestBody:',
      '        required: true',
      '        content:',
      '          multipart/form-data:',
      '            schema:',
      '              type: object',
      '              required: [content]',
      '              properties:',
      '                content: { type: string, format: binary }',
      '      responses:',
      "        '201': { description: Stored., content: { application/json: { schema: { $ref: '#/components/schemas/Blob' } } } }",
      'components:',
      '  schemas:',
      '    Blob: { type: object, properties: { sha: { type: string } } }',
      '',
    ].join('\n'),
  );
}

/** Code a user writes against the output; `tsc` must accept it, including each `@ts-expect-error`. */
const USER_CODE = `import type { BigQueryWriteService } from './proto/cloud/bigquery/storage/v1/storage.server.js';
import type { Status } from './proto/rpc/status.types.js';
import type { Shipping } from './openapi/catalog-3.0.types.js';
import { ProductsClient } from './openapi/catalog-3.0.client.js';
import type { Event } from './openapi/events-3.1.types.js';
import type { CreateBlobInput } from './shadow/git.server.js';

// A bidirectional stream is implemented as an async generator over the requests.
export const write: Pick<BigQueryWriteService, 'appendRows'> = {
  async *appendRows(requests) {
    for await (const request of requests) yield { writeStream: request.writeStream, rowErrors: [], appendResult: { offset: '0' } };
  },
};

export const status: Status = {
  code: 3,
  message: 'bad',
  details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [] }],
};
// @ts-expect-error an Any needs its '@type'
export const untyped: Status = { code: 3, message: 'bad', details: [{ fieldViolations: [] }] };

export const parcel: Shipping = { method: 'parcel', weightGrams: 300 };
// @ts-expect-error freight is measured in pallets, not grams
export const freight: Shipping = { method: 'freight', weightGrams: 300 };

export function describeEvent(e: Event): string {
  switch (e.kind) {
    case 'LogEvent': return e.message;
    case 'MetricEvent': return \`\${e.name}=\${e.value}\${e.unit ?? ''}\`;
    case 'TraceEvent': return e.span.name;
  }
}

export async function list(client: ProductsClient): Promise<number> {
  const page = await client.listProducts({ xRequestId: '1b4e28ba-2fa1-11d2-883f-0016d3cca427', priority: 1, tags: ['new'] });
  // @ts-expect-error priority is an integer enum 1 | 2 | 3
  await client.listProducts({ xRequestId: 'x', priority: 4 });
  return page.items.length;
}

// 200 with the product, or 204 when nothing changed: the client may resolve to undefined.
export async function rename(client: ProductsClient): Promise<string | undefined> {
  const updated = await client.updateProduct({ productId: 7, body: { name: 'New' } });
  // @ts-expect-error possibly undefined
  updated.name;
  return updated?.name;
}

// A multipart file is a Blob even though the schema declares its own \`Blob\` object.
export const upload: CreateBlobInput = { body: { content: new Blob(['hello']) } };
// @ts-expect-error the schema's Blob object is not a file
export const notAFile: CreateBlobInput = { body: { content: { sha: 'abc' } } };
`;

beforeAll(async () => {
  runs.proto = await loom(['generate', ...PROTO_FOLDERS.map((d) => join(PROTOS, 'google', d)), '--out', 'proto', '-I', PROTOS]);
  runs.openapi = await loom(['generate', join(REPO, 'test/fixtures/schemas/real'), '--out', 'openapi']);
  writeShadowingSchemas();
  runs.shadow = await loom(['generate', 'shadow-src', '--out', 'shadow']);
  writeFileSync(join(tmp, 'user-code.ts'), USER_CODE);
}, 180_000);

describe('google-proto-files', () => {
  it('generates every file without an error', () => {
    expect(runs.proto.stderr.split('\n').filter((l) => l.includes(': error:'))).toEqual([]);
    expect(runs.proto.code).toBe(0);
    // The selection plus the well-known types it imports.
    expect(listFiles(join(tmp, 'proto'), '.types.ts').length).toBeGreaterThanOrEqual(150);
  });

  it('types streaming methods on the server, the client, and two services in one file', () => {
    const server = out('proto/cloud/bigquery/storage/v1/storage.server.ts');
    expect(server).toContain('export interface BigQueryReadService {');
    expect(server).toContain('export interface BigQueryWriteService {');
    expect(server).toContain('  readRows(request: ReadRowsRequest, ctx: RpcContext): AsyncIterable<ReadRowsResponse>;\n');
    expect(server).toContain(
      '  appendRows(requests: AsyncIterable<AppendRowsRequest>, ctx: RpcContext): AsyncIterable<AppendRowsResponse>;\n',
    );
    const client = out('proto/cloud/bigquery/storage/v1/storage.client.ts');
    expect(client).toContain(
      '  appendRows(requests: AsyncIterable<Partial<AppendRowsRequest>>, options?: RpcCallOptions): AsyncIterable<AppendRowsResponse>;\n',
    );
    // Client streaming alone: many requests, one response.
    expect(out('proto/storage/v2/storage.server.ts')).toContain(
      '  writeObject(requests: AsyncIterable<WriteObjectRequest>, ctx: RpcContext): Promise<WriteObjectResponse>;\n',
    );
    const codec = out('proto/cloud/bigquery/storage/v1/storage.codec.ts');
    expect(codec).toMatch(
      new RegExp(
        String.raw`name: 'AppendRows',\s+localName: 'appendRows',\s+` +
          String.raw`path: '/google\.cloud\.bigquery\.storage\.v1\.BigQueryWrite/AppendRows',\s+` +
          String.raw`clientStreaming: true,\s+serverStreaming: true,`,
      ),
    );
  });

  it('maps well-known types as proto3 JSON spells them', () => {
    expect(out('proto/rpc/status.types.ts')).toContain(`   * @generated from field: repeated google.protobuf.Any details = 3;
   */
  details: { '@type': string; [key: string]: unknown }[];`);
    const spanner = out('proto/spanner/v1/spanner.types.ts');
    expect(spanner).toMatch(
      /@generated from field: google\.protobuf\.Timestamp commit_timestamp = 3;\n {3}\*\/\n {2}commitTimestamp\?: string;/,
    );
    expect(spanner).toMatch(
      /@generated from field: google\.protobuf\.Struct params = 4;\n {3}\*\/\n {2}params\?: \{ \[key: string\]: unknown \};/,
    );
    expect(spanner).toMatch(
      /@generated from field: google\.protobuf\.Duration max_commit_delay = 8;\n {3}\*\/\n {2}maxCommitDelay\?: string;/,
    );
    expect(out('proto/firestore/v1/query.types.ts')).toMatch(
      /@generated from field: google\.protobuf\.Int32Value limit = 5;\n {3}\*\/\n {2}limit\?: number \| undefined;/,
    );
    expect(out('proto/storage/v2/storage.types.ts')).toMatch(
      /@generated from field: google\.protobuf\.FieldMask read_mask = 5;\n {3}\*\/\n {2}readMask\?: string;/,
    );
    expect(out('proto/google/protobuf/empty.types.ts')).toContain('export type Empty = Record<string, never>;\n');
    expect(out('proto/google/protobuf/struct.types.ts')).toContain('export type Value = unknown;\n');
  });

  it('renders a oneof as optional members, 64-bit integers as strings, and keeps enum aliases', () => {
    const document = out('proto/firestore/v1/document.types.ts');
    expect(document).toMatch(/@generated from field: int64 integer_value = 2;\n {3}\*\/\n {2}integerValue\?: string;/);
    expect(document).toMatch(
      /@generated from field: google\.protobuf\.Timestamp timestamp_value = 10;\n {3}\*\/\n {2}timestampValue\?: string;/,
    );
    expect(document).toMatch(/@generated from field: bytes bytes_value = 18;\n {3}\*\/\n {2}bytesValue\?: Uint8Array;/);
    const storage = out('proto/storage/v2/storage.types.ts');
    expect(storage).toMatch(/ {2}MAX_READ_CHUNK_BYTES: 2097152,\n/);
    expect(storage).toMatch(/ {2}MAX_WRITE_CHUNK_BYTES: 2097152,\n/);
    // `Object` is a global: the message is renamed, never shadowing it.
    expect(storage).toContain('export interface Object$ {');
  });
});

describe('OpenAPI 3.0, 3.1 and Swagger 2.0 fixtures', () => {
  it('generate with only the warnings about what is not modelled', () => {
    expect(runs.openapi.code).toBe(0);
    expect(runs.openapi.stderr).toBe(
      'events-3.1.yaml:169 (/components/schemas/EventBase/properties/labels/propertyNames): warning: ' +
        "keyword 'propertyNames' is ignored: generated types and validators do not enforce it\n",
    );
  });

  it('types composition, nullability, enums, maps and recursion', () => {
    const catalog = out('openapi/catalog-3.0.types.ts');
    expect(catalog).toContain(`export type Shipping =
  | (ParcelShipping & { method: 'parcel' })
  | (FreightShipping & { method: 'freight' })
  | (DigitalShipping & { method: 'digital' });
`);
    expect(catalog).toContain('export type SearchFilter = Money | {\n  text: string;\n};\n');
    expect(catalog).toContain('export interface Product extends NewProduct {\n');
    expect(catalog).toContain('  description?: string | null;\n');
    expect(catalog).toContain("  size?: 'S' | 'M' | 'L' | 'XL' | null;\n");
    expect(catalog).toContain('  parent?: CategoryNode | null;\n  children: CategoryNode[];\n');
    expect(catalog).toContain('  attributes?: { [key: string]: string };\n  metadata?: { [key: string]: unknown };\n');
    expect(catalog).toContain('export const Priority = {\n  Value_1: 1,\n  Value_2: 2,\n  Value_3: 3,\n} as const;\n');
    expect(catalog).toContain("export const Category = {\n  Books: 'books',\n  Music: 'music',\n  Garden: 'garden',\n} as const;\n");
    const events = out('openapi/events-3.1.types.ts');
    expect(events).toContain(`export type Event =
  | (LogEvent & { kind: 'LogEvent' })
  | (MetricEvent & { kind: 'MetricEvent' })
  | (TraceEvent & { kind: 'TraceEvent' });
`);
    expect(events).toContain('export interface MetricEvent extends EventBase {\n');
    expect(events).toContain("  unit?: 'ms' | 'bytes' | 'count' | null;\n");
    expect(events).toContain('  correlationId?: string | null;\n');
    const zoo = out('openapi/zoo-swagger-2.0.types.ts');
    expect(zoo).toContain('export interface Dog extends Animal {\n');
    expect(zoo).toContain('  nickname?: string | null;\n');
    expect(zoo).toContain('  lives?: 1 | 7 | 9;\n');
    expect(zoo).toContain('export interface Error$ {\n');
    expect(out('openapi/zoo-swagger-2.0.server.ts')).toContain(
      "    @QueryParam('include', { type: 'string', required: false, array: { separator: ',' }, enum: ['owner', " +
        "'vet'] }) include: ('owner' | 'vet')[] | undefined,\n",
    );
    expect(events).toContain('export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };\n');
  });

  it('rewrites OpenAPI 3.0 nullability as 3.1 in the served document', () => {
    const doc = JSON.parse(out('openapi/catalog-3.0.openapi.json'));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.schemas.NewProduct.properties.description).toEqual({ type: ['string', 'null'] });
    expect(doc.components.schemas.CategoryNode.properties.parent).toEqual({
      anyOf: [{ $ref: '#/components/schemas/CategoryNode' }, { type: 'null' }],
    });
    expect(doc.components.schemas.Shipping.discriminator.propertyName).toBe('method');
    expect(doc.paths['/products'].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'query:category',
      'query:priority',
      'query:page_size',
      'query:tags',
      'header:X-Request-Id',
      'cookie:session',
    ]);
  });

  it('binds every parameter location, form, multipart and binary bodies', () => {
    const server = out('openapi/catalog-3.0.server.ts');
    expect(server).toContain("    @QueryParam('tags', { type: 'string', required: false, array: true }) tags: string[] | undefined,\n");
    expect(server).toContain(
      "    @QueryParam('priority', { type: 'integer', required: false, enum: [1, 2, 3] }) priority: Priority | undefined,\n",
    );
    expect(server).toContain("    @HeaderParam('X-Request-Id', { type: 'string', required: true, format: 'uuid' }) xRequestId: string,\n");
    expect(server).toContain("    @CookieParam('session', { type: 'string', required: false }) session: string | undefined,\n");
    expect(server).toContain("  @Produces('application/json', 'text/csv')\n");
    expect(server).toContain("  @Consumes('application/x-www-form-urlencoded')\n");
    expect(server).toContain("  @Consumes('multipart/form-data')\n");
    expect(server).toContain('  body: {\n    file: Blob;\n    caption?: string | null;\n    position?: number;\n  };\n');
    expect(server).toContain('    @BodyParam({ validate: validateCreateProductBody, required: true }) body: NewProduct,\n');
    // A default response is not a success: a plain return value is sent with the first 2xx.
    expect(server).toMatch(/@DELETE\n {2}@Path\('\/products\/\{productId\}'\)\n {2}@Status\(204\)\n/);
    expect(server).toContain('    return this.api.getCategoryTree({}, ctx);\n');
    const events = out('openapi/events-3.1.server.ts');
    // OpenAPI 3.1 spells a binary body as a string with `contentMediaType`: it arrives as bytes.
    expect(events).toContain('export interface PutAttachmentInput {\n  eventId: string;\n  body: Uint8Array;\n}\n');
    expect(events).toContain("    @CookieParam('tenant', { type: 'string', required: true }) tenant: string,\n");
    expect(events).toContain("  @Consumes('application/x-www-form-urlencoded', 'multipart/form-data')\n");
    expect(out('openapi/catalog-3.0.client.ts')).toContain(
      '  async updateProduct(input: UpdateProductInput, options?: RequestOptions): Promise<Product | undefined> {\n',
    );
    expect(out('openapi/events-3.1.client.ts')).toContain("    { name: 'tenant', key: 'tenant', in: 'cookie' },\n");
  });

  it('compiles validators that accept valid payloads and reject invalid ones', async () => {
    const catalog = await import(pathToFileURL(join(tmp, 'openapi/catalog-3.0.validators.js')).href);
    const product = {
      sku: 'B-1',
      name: 'Dune',
      description: null,
      price: { amount: '9.99', currency: 'EUR' },
      category: 'books',
      priority: 1,
      attributes: { cover: 'hard' },
      metadata: { anything: [1, 'two'] },
      variants: [{ sku: 'B-1-S', size: null }],
      shipping: { method: 'parcel', weightGrams: 500 },
    };
    expect(catalog.validateCreateProductBody(product)).toBe(true);
    expect(catalog.validateProduct({ ...product, id: 7, createdAt: '2024-05-01T10:00:00Z' })).toBe(true);
    expect(
      catalog.validateCategoryNode({ name: 'root', parent: null, children: [{ name: 'leaf', children: [] }], filter: { text: 'x' } }),
    ).toBe(true);

    const rejects = (validate: { (x: unknown): boolean; errors?: unknown[] | null }, payload: unknown, error: object): void => {
      expect(validate(payload)).toBe(false);
      expect(validate.errors).toContainEqual(expect.objectContaining(error));
    };
    rejects(catalog.validateCreateProductBody, { ...product, category: 'food' }, { instancePath: '/category', keyword: 'enum' });
    rejects(catalog.validateCreateProductBody, { ...product, priority: 4 }, { instancePath: '/priority', keyword: 'enum' });
    rejects(
      catalog.validateCreateProductBody,
      { ...product, colour: 'red' },
      { keyword: 'additionalProperties', params: { additionalProperty: 'colour' } },
    );
    rejects(
      catalog.validateCreateProductBody,
      { ...product, attributes: { cover: 1 } },
      { instancePath: '/attributes/cover', keyword: 'type' },
    );
    rejects(
      catalog.validateCreateProductBody,
      { ...product, shipping: { method: 'freight', weightGrams: 5 } },
      { instancePath: '/shipping' },
    );
    rejects(catalog.validateProduct, { ...product, id: 7, createdAt: 'yesterday' }, { instancePath: '/createdAt', keyword: 'format' });
    rejects(
      catalog.validateCategoryNode,
      { name: 'root', children: [{ name: 'leaf' }] },
      { instancePath: '/children/0', params: { missingProperty: 'children' } },
    );
    rejects(catalog.validateImage, { url: null }, { instancePath: '/url', keyword: 'type' });

    const events = await import(pathToFileURL(join(tmp, 'openapi/events-3.1.validators.js')).href);
    const metric = {
      kind: 'MetricEvent',
      id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
      at: '2024-05-01T10:00:00Z',
      severity: 3,
      name: 'latency',
      value: 12.5,
      unit: null,
      correlationId: null,
    };
    const trace = {
      kind: 'TraceEvent',
      id: metric.id,
      at: metric.at,
      severity: 6,
      span: { name: 'root', children: [{ name: 'db', durationMs: 3, children: [] }] },
    };
    const log = { kind: 'LogEvent', id: metric.id, at: metric.at, severity: 0, message: 'hi', fields: { nested: [1, { deep: null }] } };
    expect(events.validateIngestEventsBody([metric, trace, log])).toBe(true);
    expect(events.validateSubscription({ id: 's', callback: 'https://example.com/cb', status: 'active', expiresAt: null })).toBe(true);
    rejects(events.validateIngestEventsBody, [], { keyword: 'minItems' });
    rejects(events.validateEvent, { ...metric, severity: 8 }, { instancePath: '/severity', keyword: 'enum' });
    rejects(events.validateEvent, { ...metric, unit: 'parsecs' }, { instancePath: '/unit' });
    rejects(
      events.validateEvent,
      { ...trace, span: { name: 'root', children: [], extra: 1 } },
      { instancePath: '/span', keyword: 'additionalProperties' },
    );
    expect(events.validateEvent({ ...metric, kind: 'Other' })).toBe(false);
    expect(events.validateSubscription({ id: 's', callback: 'https://example.com/cb', status: 'gone' })).toBe(false);
  });
});

describe('global names a schema shadows', () => {
  it('spells the global as globalThis.X where a schema type takes its name', () => {
    expect(runs.shadow.stderr).toBe('');
    expect(runs.shadow.code).toBe(0);
    expect(out('shadow/shadow/v1/shadow.server.ts')).toContain(
      '  flow(requests: globalThis.AsyncIterable<AsyncIterable>, ctx: RpcContext): globalThis.AsyncIterable<Promise$>;\n',
    );
    expect(out('shadow/shadow/v1/shadow.client.ts')).toContain(
      '  flow(requests: globalThis.AsyncIterable<Partial<AsyncIterable>>, options?: RpcCallOptions): globalThis.AsyncIterable<Promise$>;\n',
    );
    expect(out('shadow/git.server.ts')).toContain('  body: {\n    content: globalThis.Blob;\n  };\n');
  });
});

describe('all of it, with code that uses it', () => {
  it('type-checks with zero errors', async () => {
    const files = listFiles(tmp, '.ts').map((p) => relative(tmp, join(tmp, p)));
    expect(files.length).toBeGreaterThan(600);
    expect(await typeCheck(tmp)).toBe('');
  }, 180_000);
});
