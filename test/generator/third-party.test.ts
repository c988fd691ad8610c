/**
 * Descriptions as third parties publish them (#23): legal but ambiguous for code, or slightly off in
 * ways their authors' tools accept. Each class of the APIs.guru directory's failures, in small: Loom
 * generates with a warning that names the place, and the output type-checks. `bench/apis-guru.ts`
 * runs the whole directory.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Emitter, emit } from '../../generator/emit.js';
import { formatDiagnostic, loadSchemas, memoryFileSystem, SchemaError } from '../../generator/loaders/index.js';
import type { HttpOperation, SchemaFile } from '../../generator/model/model.js';
import { loadTemplates } from '../../generator/templates.js';
import { ALL_EMITTERS } from '../support/generate-inline.js';
import { typeCheck } from '../support/tsc-check.js';

const ROOT = '/descriptions';

async function load(files: Record<string, string>): Promise<SchemaFile[]> {
  return loadSchemas(
    Object.keys(files).map((f) => join(ROOT, f)),
    { root: ROOT, fileSystem: memoryFileSystem(files, ROOT) },
  );
}

const warnings = (files: readonly SchemaFile[]) => files.flatMap((f) => f.warnings.map(formatDiagnostic));
const operations = (file: SchemaFile) => file.services.flatMap((s) => s.operations) as HttpOperation[];

/** Generates `files` with every emitter and type-checks the output as a user project would; '' when clean. */
async function generateAndCheck(files: Record<string, string>): Promise<string> {
  const out = emit(await load(files), ALL_EMITTERS, { runtimeImport: 'loom', templates: loadTemplates() });
  const dir = mkdtempSync(join(tmpdir(), 'loom-third-party-'));
  try {
    for (const f of out.files) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), f.content);
    }
    return await typeCheck(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ok = (description = 'ok') =>
  `{ '200': { description: ${description}, content: { application/json: { schema: { type: object } } } } }`;

/** A 200 answer whose JSON body is the schema `name` of the components. */
const okRef = (name: string) =>
  `{ '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/${name}' } } } } }`;

describe('third-party descriptions', () => {
  it('nesting deeper than any stack: read to a bound, with a warning at the place', async () => {
    const depth = 5000;
    const schema = `${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`;
    const text = `{"openapi":"3.0.3","info":{"title":"Deep","version":"1"},"paths":{},"components":{"schemas":{"Deep":${schema}}}}`;
    const files = await load({ 'deep.json': text });
    expect(warnings(files).find((w) => w.includes('nests deeper than'))).toMatch(
      /^deep\.json:1 \(\/components\/schemas\/Deep(\/properties\/a){201}\): warning: /,
    );
    expect(emit(files, ALL_EMITTERS, { runtimeImport: 'loom', templates: loadTemplates() }).files.map((f) => f.path)).toContain(
      'deep.validators.ts',
    );
  });

  it('a query string in a path key: the path without it, its variables as query parameters', async () => {
    const [file] = await load({
      'search.yaml': `openapi: 3.0.3
info: { title: Search, version: '1' }
paths:
  /search/articles?query={query}:
    get:
      parameters: [{ name: query, in: path, required: true, schema: { type: string } }]
      responses: ${ok()}
  /uploads:
    post: { operationId: upload, responses: ${ok()} }
  /uploads?convert={convert}:
    post: { operationId: uploadConverted, parameters: [{ name: convert, in: query, schema: { type: boolean } }], responses: ${ok()} }
`,
    });
    const [search] = operations(file!);
    expect(search).toMatchObject({ path: '/search/articles', parameters: [{ name: 'query', in: 'query' }] });
    expect(operations(file!).map((o) => o.name)).toEqual(['getSearchArticles', 'upload']);
    expect(warnings([file!])).toEqual([
      "search.yaml:4 (/paths/~1search~1articles?query={query}): warning: path '/search/articles?query={query}' carries a query string, " +
        "which OpenAPI paths cannot; it is read as '/search/articles' with 'query' as query parameters",
      "search.yaml:10 (/paths/~1uploads?convert={convert}): warning: path '/uploads?convert={convert}' carries a query string, " +
        "which OpenAPI paths cannot; it is read as '/uploads' with 'convert' as query parameters",
      "search.yaml:11 (/paths/~1uploads?convert={convert}/post): warning: POST '/uploads?convert={convert}' " +
        "is the same route as POST '/uploads' once its query string is set aside; it is left out",
    ]);
  });

  it('clashing derived names: the later operation numbered, with a warning', async () => {
    const [file] = await load({
      'jobs.yaml': `openapi: 3.0.3
info: { title: Jobs, version: '1' }
paths:
  /jobs: { get: { responses: ${ok()} } }
  /jobs/: { get: { responses: ${ok()} } }
`,
    });
    expect(operations(file!).map((o) => [o.name, o.localName, o.path])).toEqual([
      ['getJobs', 'getJobs', '/jobs'],
      ['getJobs2', 'getJobs2', '/jobs/'],
    ]);
    expect(warnings([file!])).toEqual([
      'jobs.yaml:5 (/paths/~1jobs~1/get): warning: this operation has no operationId and the one derived from its method and path, ' +
        "'getJobs', is already used by GET /jobs; it is named 'getJobs2' (add an operationId to choose)",
    ]);
  });

  it('a discriminator mapping into a file that is not in the bundle: the entry left out, with a warning', async () => {
    const [file] = await load({
      'pets.yaml': `openapi: 3.0.3
info: { title: Pets, version: '1' }
paths: {}
components:
  schemas:
    Pet:
      oneOf: [{ $ref: '#/components/schemas/Cat' }]
      discriminator: { propertyName: kind, mapping: { cat: '#/components/schemas/Cat', dog: './dogs.yaml#/Dog' } }
    Cat: { type: object, properties: { kind: { type: string } } }
`,
    });
    expect(warnings([file!])).toEqual([
      "pets.yaml:8 (/components/schemas/Pet/discriminator): warning: discriminator mapping 'dog' names './dogs.yaml#/Dog', " +
        "which cannot be resolved (the file './dogs.yaml' was not loaded); the entry is left out",
    ]);
  });

  it('a file name that needs escaping, a schema whose allOf parents disagree, a class named like a schema: all type-check', async () => {
    const errors = await generateAndCheck({
      'asteroids neows.yaml': `openapi: 3.0.3
info: { title: NeoWs, version: '1' }
paths:
  /feed: { get: { operationId: feed, responses: ${okRef('Feed')} } }
  /longview: { get: { operationId: getLongview, tags: [Longview], responses: ${okRef('LongviewClient')} } }
components:
  schemas:
    Feed: { type: object, properties: { count: { type: integer } } }
    LongviewClient: { type: object, properties: { id: { type: integer } } }
    Summary: { type: object, properties: { sla: { type: string } } }
    Update: { type: object, properties: { sla: { type: integer } } }
    Detail: { allOf: [{ $ref: '#/components/schemas/Summary' }, { $ref: '#/components/schemas/Update' }] }
`,
    });
    expect(errors).toBe('');
  });

  it('an emitter that fails names the file and the emitter, not a stack trace', async () => {
    const broken: Emitter = {
      name: 'broken',
      emit() {
        throw new RangeError('Maximum call stack size exceeded');
      },
    };
    const files = await load({ 'a.yaml': `openapi: 3.0.3\ninfo: { title: A, version: '1' }\npaths: {}\n` });
    const failure = (() => {
      try {
        emit(files, [broken], { runtimeImport: 'loom', templates: loadTemplates() });
      } catch (e) {
        return e;
      }
    })();
    expect(failure).toBeInstanceOf(SchemaError);
    expect((failure as SchemaError).message).toBe(
      'a.yaml: error: the broken emitter failed on this file: Maximum call stack size exceeded; please report this with the description',
    );
  });
});
