/**
 * Every refusal of the OpenAPI loader says how to override it (#23). For each kind of refusal, in a
 * small description beside a healthy operation: (a) without `--lenient` it is refused, and the
 * message ends with the override (the option, with what it then does, and `x-loom-skip: true` when
 * an operation or path item could be left out instead); (b) with `--lenient` it generates, with a
 * warning at the place, and the output type-checks; (c) `x-loom-skip: true` on the operation or path
 * item leaves it out, with no error and no warning. Once through the real CLI, to prove the option
 * is wired.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../generator/cli/cli.js';
import { emit, GENERATOR_VERSION } from '../../generator/emit.js';
import { loadSchemas, memoryFileSystem, SchemaError } from '../../generator/loaders/index.js';
import type { Diagnostic, HttpOperation, SchemaFile } from '../../generator/model/model.js';
import { loadTemplates } from '../../generator/templates.js';
import { ALL_EMITTERS } from '../support/generate-inline.js';
import { REPO, typeCheck } from '../support/tsc-check.js';

type Json = Record<string, unknown>;

const ROOT = '/descriptions';
const OK = { '200': { description: 'ok' } };
/** A response whose JSON body is `schema`. */
const body = (schema: unknown) => ({ '200': { description: 'ok', content: { 'application/json': { schema } } } });

/** An OpenAPI 3.0 description: `GET /ok`, which nothing is wrong with, and `paths` beside it. */
function openapi(paths: Json, components?: Json): Json {
  return {
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    paths: { '/ok': { get: { operationId: 'ok', responses: OK } }, ...paths },
    ...(components ? { components } : {}),
  };
}

interface Refusal {
  /** The description's file name (without `.json`), and what the test says. */
  readonly file: string;
  readonly what: string;
  readonly doc: Json;
  /** The JSON pointer the refusal names. */
  readonly pointer: string;
  /** Its words before the override. */
  readonly message: string;
  /** What `--lenient` does instead. */
  readonly consequence: string;
  /** With `--lenient`, when a use says it rather than the place refused (a file that cannot be loaded). */
  readonly lenient?: { readonly pointer: string; readonly message: string; readonly consequence: string };
  /** What `x-loom-skip: true` would leave out: where the mark goes, and how the message names it. */
  readonly skip?: { readonly mark: readonly string[]; readonly what: 'operation' | 'path item'; readonly name: string };
}

const THINGS_GET = { mark: ['paths', '/things', 'get'], what: 'operation', name: 'GET /things' } as const;
const THINGS_POST = { mark: ['paths', '/things', 'post'], what: 'operation', name: 'POST /things' } as const;
const THINGS_ITEM = { mark: ['paths', '/things'], what: 'path item', name: "'/things'" } as const;
const UNKNOWN = 'this schema becomes unknown';
const FILE_REFS = 'every $ref to it becomes unknown, or leaves out the parameter, response, … it stands for';

const REFUSALS: readonly Refusal[] = [
  {
    file: 'schema-not-object',
    what: 'a schema that is not an object',
    doc: openapi({ '/things': { get: { responses: body('string') } } }),
    pointer: '/paths/~1things/get/responses/200/content/application~1json/schema',
    message: 'a schema must be an object, found "string"',
    consequence: UNKNOWN,
    skip: THINGS_GET,
  },
  {
    file: 'unsupported-type',
    what: 'an unsupported type',
    doc: openapi(
      { '/things': { get: { responses: body({ $ref: '#/components/schemas/Odd' }) } } },
      { schemas: { Odd: { type: 'decimal' } } },
    ),
    pointer: '/components/schemas/Odd/type',
    message: "unsupported type 'decimal': use one of string, number, integer, boolean, array, object or null",
    consequence: UNKNOWN,
  },
  {
    file: 'unresolved-ref',
    what: 'a $ref to a schema that does not exist',
    doc: openapi({ '/things': { get: { responses: body({ $ref: '#/components/schemas/Missing' }) } } }),
    pointer: '/paths/~1things/get/responses/200/content/application~1json/schema',
    message:
      "$ref '#/components/schemas/Missing' cannot be resolved: nothing is declared at '/components/schemas/Missing' in unresolved-ref.json",
    consequence: UNKNOWN,
    skip: THINGS_GET,
  },
  {
    file: 'missing-file',
    what: 'a $ref to a file that does not exist',
    doc: openapi({}, { schemas: { Remote: { $ref: './missing.json#/Remote' } } }),
    pointer: '/components/schemas/Remote',
    message: "$ref './missing.json#/Remote' cannot be loaded: the file does not exist; fix the path (it is relative to missing-file.json)",
    consequence: FILE_REFS,
    lenient: {
      pointer: '/components/schemas/Remote',
      message: "$ref './missing.json#/Remote' cannot be loaded: the file does not exist",
      consequence: UNKNOWN,
    },
  },
  {
    file: 'url-ref',
    what: 'a $ref to a URL',
    doc: openapi({ '/things': { get: { responses: body({ $ref: 'https://example.com/schemas.json#/Thing' }) } } }),
    pointer: '/paths/~1things/get/responses/200/content/application~1json/schema',
    message:
      "$ref 'https://example.com/schemas.json#/Thing' points to a URL; only local files are supported: " +
      'download it next to the schema and use a relative path',
    consequence: FILE_REFS,
    lenient: {
      pointer: '/paths/~1things/get/responses/200/content/application~1json/schema',
      message: "$ref 'https://example.com/schemas.json#/Thing' cannot be loaded: it points to a URL, and only local files are read",
      consequence: UNKNOWN,
    },
  },
  {
    file: 'proto-property',
    what: 'a property named __proto__',
    doc: openapi({}, { schemas: { Obj: { type: 'object', properties: { ['__proto__']: { type: 'string' }, name: { type: 'string' } } } } }),
    pointer: '/components/schemas/Obj/properties/__proto__',
    message:
      "property '__proto__' cannot be generated: JavaScript treats that name as an object's prototype, " +
      'so validators and documents would silently drop it; rename the property',
    consequence: 'the property is left out',
  },
  {
    file: 'bad-pattern',
    what: 'a pattern that is no regular expression',
    doc: openapi({}, { schemas: { Code: { type: 'string', pattern: '[a-' } } }),
    pointer: '/components/schemas/Code/pattern',
    message:
      'pattern "[a-" is not a valid regular expression (Invalid regular expression: /[a-/: Unterminated character class); ' +
      'fix it: patterns are ECMA-262 regular expressions',
    consequence: 'the pattern is not checked',
  },
  {
    file: 'ref-cycle',
    what: 'a chain of $refs that never reaches a schema',
    doc: openapi({}, { schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } } }),
    pointer: '/components/schemas/A',
    message:
      '$ref chain A → B → A never reaches a schema: each one only refers to the next; ' +
      'give one of them a real schema (type, properties, …) or point the $ref elsewhere',
    consequence: 'each schema of the chain becomes unknown',
  },
  {
    file: 'paths-not-object',
    what: "'paths' that is not an object",
    doc: { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: ['/ok'] },
    pointer: '/paths',
    message: "'paths' must be an object of path templates",
    consequence: 'the document gets no operations',
  },
  {
    file: 'path-item-ref',
    what: 'a path item whose $ref cannot be resolved',
    doc: openapi({ '/things': { $ref: '#/x-path-items/things' } }),
    pointer: '/paths/~1things',
    message: "$ref '#/x-path-items/things' cannot be resolved: nothing is declared at '/x-path-items/things' in path-item-ref.json",
    consequence: 'the path item is left out',
    skip: THINGS_ITEM,
  },
  {
    file: 'operation-not-object',
    what: 'an operation that is not an object',
    doc: openapi({ '/things': { get: 7 } }),
    pointer: '/paths/~1things/get',
    message: "operation 'GET /things' must be an object",
    consequence: 'the operation is left out',
    skip: THINGS_ITEM,
  },
  {
    file: 'parameters-not-array',
    what: "an operation's 'parameters' that are not an array",
    doc: openapi({ '/things': { get: { parameters: { name: 'q' }, responses: OK } } }),
    pointer: '/paths/~1things/get/parameters',
    message: "'parameters' must be an array",
    consequence: 'these parameters are left out',
    skip: THINGS_GET,
  },
  {
    file: 'path-parameters-not-array',
    what: "a path item's 'parameters' that are not an array",
    doc: openapi({ '/things': { parameters: { name: 'q' }, get: { responses: OK } } }),
    pointer: '/paths/~1things/parameters',
    message: "'parameters' must be an array",
    consequence: 'these parameters are left out',
    skip: THINGS_ITEM,
  },
  {
    file: 'parameter-without-name',
    what: "a parameter without a 'name'",
    doc: openapi({ '/things': { get: { parameters: [{ in: 'query', schema: { type: 'string' } }], responses: OK } } }),
    pointer: '/paths/~1things/get/parameters/0',
    message: "a parameter needs a string 'name' and 'in'",
    consequence: 'the parameter is left out',
    skip: THINGS_GET,
  },
  {
    file: 'parameter-ref',
    what: 'a parameter whose $ref cannot be resolved',
    doc: openapi({ '/things': { get: { parameters: [{ $ref: '#/components/parameters/Nope' }], responses: OK } } }),
    pointer: '/paths/~1things/get/parameters/0',
    message:
      "$ref '#/components/parameters/Nope' cannot be resolved: nothing is declared at '/components/parameters/Nope' in parameter-ref.json",
    consequence: 'the parameter is left out',
    skip: THINGS_GET,
  },
  {
    file: 'parameter-ref-cycle',
    what: 'parameters that only refer to each other',
    doc: openapi(
      { '/things': { get: { parameters: [{ $ref: '#/components/parameters/A' }], responses: OK } } },
      { parameters: { A: { $ref: '#/components/parameters/B' }, B: { $ref: '#/components/parameters/A' } } },
    ),
    pointer: '/components/parameters/A',
    message: "$ref chain is circular: '#/components/parameters/B' never reaches an object",
    consequence: 'the parameter is left out',
    skip: THINGS_GET,
  },
  {
    file: 'in-body',
    what: "a Swagger 2.0 'in: body' parameter in OpenAPI 3",
    doc: openapi({ '/things': { post: { parameters: [{ name: 'payload', in: 'body', schema: { type: 'object' } }], responses: OK } } }),
    pointer: '/paths/~1things/post/parameters/0/in',
    message:
      "parameter 'payload' has 'in: body', which is Swagger 2.0: OpenAPI 3 describes the body with the operation's " +
      "'requestBody' (content: { application/json: { schema: … } }); move it there",
    consequence: 'the parameter is left out',
    skip: THINGS_POST,
  },
  {
    file: 'unknown-location',
    what: 'a parameter in an unknown location',
    doc: openapi({ '/things': { get: { parameters: [{ name: 'q', in: 'querystring', schema: { type: 'string' } }], responses: OK } } }),
    pointer: '/paths/~1things/get/parameters/0/in',
    message: "parameter 'q' has unknown location 'in: querystring': use path, query, header or cookie",
    consequence: 'the parameter is left out',
    skip: THINGS_GET,
  },
  {
    file: 'body-and-form',
    what: "Swagger 2.0 'in: body' and 'in: formData' parameters on one operation",
    doc: {
      swagger: '2.0',
      info: { title: 'T', version: '1' },
      paths: {
        '/ok': { get: { operationId: 'ok', responses: OK } },
        '/things': {
          post: {
            parameters: [
              { name: 'payload', in: 'body', schema: { type: 'object' } },
              { name: 'note', in: 'formData', type: 'string' },
            ],
            responses: OK,
          },
        },
      },
    },
    pointer: '/paths/~1things/post',
    message: "an operation cannot have both 'in: body' and 'in: formData' parameters; keep one of them",
    consequence: "the 'in: formData' parameters are left out",
    skip: THINGS_POST,
  },
  {
    file: 'request-body-ref',
    what: 'a request body whose $ref cannot be resolved',
    doc: openapi({ '/things': { post: { requestBody: { $ref: '#/components/requestBodies/Nope' }, responses: OK } } }),
    pointer: '/paths/~1things/post/requestBody',
    message:
      "$ref '#/components/requestBodies/Nope' cannot be resolved: " +
      "nothing is declared at '/components/requestBodies/Nope' in request-body-ref.json",
    consequence: 'the request body is left out',
    skip: THINGS_POST,
  },
  {
    file: 'responses-not-object',
    what: "'responses' that are not an object",
    doc: openapi({ '/things': { get: { responses: [] } } }),
    pointer: '/paths/~1things/get/responses',
    message: "'responses' must be an object keyed by status code",
    consequence: 'the operation has no responses',
    skip: THINGS_GET,
  },
  {
    file: 'bad-status',
    what: 'a response status that is not a status code',
    doc: openapi({ '/things': { get: { responses: { '20x': { description: 'ok' } } } } }),
    pointer: '/paths/~1things/get/responses/20x',
    message: "response status '20x' is not a status code: use 100–599, a range such as 4XX, or 'default'",
    consequence: 'the response is left out',
    skip: THINGS_GET,
  },
  {
    file: 'response-ref',
    what: 'a response whose $ref cannot be resolved',
    doc: openapi({ '/things': { get: { responses: { '200': { $ref: '#/components/responses/Nope' } } } } }),
    pointer: '/paths/~1things/get/responses/200',
    message:
      "$ref '#/components/responses/Nope' cannot be resolved: nothing is declared at '/components/responses/Nope' in response-ref.json",
    consequence: 'the response is left out',
    skip: THINGS_GET,
  },
  {
    file: 'header-ref',
    what: 'a response header whose $ref cannot be resolved',
    doc: openapi({
      '/things': { get: { responses: { '200': { description: 'ok', headers: { 'X-Rate': { $ref: '#/components/headers/Nope' } } } } } },
    }),
    pointer: '/paths/~1things/get/responses/200/headers/X-Rate',
    message: "$ref '#/components/headers/Nope' cannot be resolved: nothing is declared at '/components/headers/Nope' in header-ref.json",
    consequence: 'the header is left out',
    skip: THINGS_GET,
  },
];

/** The descriptions as files (JSON, so that a mark is set by path), or one of them marked `x-loom-skip: true`. */
function files(refusals: readonly Refusal[], mark = false): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of refusals) {
    const doc = structuredClone(r.doc);
    if (mark && r.skip) {
      let node = doc;
      for (const key of r.skip.mark) node = node[key] as Json;
      node['x-loom-skip'] = true;
    }
    out[`${r.file}.json`] = JSON.stringify(doc, null, 2);
  }
  return out;
}

async function load(text: Record<string, string>, lenient: boolean): Promise<SchemaFile[]> {
  return loadSchemas(
    Object.keys(text).map((f) => join(ROOT, f)),
    { root: ROOT, fileSystem: memoryFileSystem(text, ROOT), lenient },
  );
}

/** The errors of a load that must fail. */
async function refused(text: Record<string, string>): Promise<readonly Diagnostic[]> {
  try {
    await load(text, false);
  } catch (e) {
    if (e instanceof SchemaError) return e.diagnostics;
    throw e;
  }
  throw new Error('expected a SchemaError');
}

const place = (d: Diagnostic) => ({ file: d.source.file, pointer: d.source.pointer, message: d.message });
const operations = (file: SchemaFile) => file.services.flatMap((s) => s.operations as HttpOperation[]).map((o) => `${o.method} ${o.path}`);

describe('refused without --lenient, and the message says how to override it', () => {
  it.each(REFUSALS)('$what', async (r) => {
    const skip = r.skip ? ` or mark the ${r.skip.what} x-loom-skip: true to leave ${r.skip.name} out` : '';
    expect((await refused(files([r]))).map(place)).toEqual([
      { file: `${r.file}.json`, pointer: r.pointer, message: `${r.message}; to generate anyway, pass --lenient (${r.consequence})${skip}` },
    ]);
  });

  it('in so many words', async () => {
    const [error] = await refused(files([REFUSALS[0]!]));
    expect(error!.message).toBe(
      'a schema must be an object, found "string"; to generate anyway, pass --lenient (this schema becomes unknown) ' +
        'or mark the operation x-loom-skip: true to leave GET /things out',
    );
  });

  it('a refusal in a named schema offers --lenient alone: every operation that uses it would have to be skipped', async () => {
    const [error] = await refused(files([REFUSALS.find((r) => r.file === 'unsupported-type')!]));
    expect(error!.message).not.toContain('x-loom-skip');
  });

  it('a file that does not parse, or a version Loom does not read, is refused with what to fix: no option overrides it', async () => {
    const broken = { 'api.json': '{ "openapi": "3.0.3", ' };
    for (const lenient of [false, true]) {
      await expect(load(broken, lenient)).rejects.toThrow(/not valid JSON: .*; fix the syntax at this line or just before it$/);
      await expect(load({ 'api.json': '{ "openapi": "2.5.0", "info": {}, "paths": {} }' }, lenient)).rejects.toThrow(
        "openapi version '2.5.0' is not supported; use 3.0.x, 3.1.x or Swagger 2.0",
      );
    }
  });
});

describe('with --lenient: a warning at the place, and the output type-checks', () => {
  it.each(REFUSALS)('$what', async (r) => {
    const [file] = await load(files([r]), true);
    const said = r.lenient ?? r;
    const warnings = file!.warnings.filter((w) => w.source.pointer === said.pointer);
    expect(warnings.map(place)).toEqual([
      { file: `${r.file}.json`, pointer: said.pointer, message: `${said.message}; generated anyway (--lenient): ${said.consequence}` },
    ]);
    expect(warnings[0]!.source.line).toBeGreaterThan(0);
    // The rest of the description is read as ever.
    if (r.file !== 'paths-not-object') expect(operations(file!)).toContain('get /ok');
  });

  it('steps past each as its warning says', async () => {
    const loaded = await load(files(REFUSALS), true);
    const file = (name: string) => loaded.find((f) => f.path === `${name}.json`)!;
    const things = (name: string) =>
      file(name)
        .services.flatMap((s) => s.operations as HttpOperation[])
        .find((o) => o.path === '/things');
    expect(operations(file('path-item-ref'))).toEqual(['get /ok']);
    expect(operations(file('operation-not-object'))).toEqual(['get /ok']);
    expect(operations(file('paths-not-object'))).toEqual([]);
    expect(things('parameter-without-name')!.parameters).toEqual([]);
    expect(things('in-body')!.requestBody).toBeUndefined();
    expect(things('body-and-form')!.requestBody!.contents.map((c) => c.mediaType)).toEqual(['application/json']);
    expect(things('bad-status')!.responses).toEqual([]);
    expect(things('header-ref')!.responses[0]!.headers).toEqual([]);
    expect(things('schema-not-object')!.responses[0]!.contents[0]!.type).toEqual({ kind: 'unknown' });
    const obj = file('proto-property').types.find((t) => t.name === 'Obj');
    expect(obj?.kind === 'message' ? obj.fields.map((f) => f.name) : obj).toEqual(['name']);
    const code = file('bad-pattern').types.find((t) => t.name === 'Code');
    expect(code?.kind === 'alias' ? code.type : code).toEqual({ kind: 'scalar', scalar: 'string' });
  });

  it('the code generated from every one of them type-checks', async () => {
    const out = emit(await load(files(REFUSALS), true), ALL_EMITTERS, { runtimeImport: 'loom', templates: loadTemplates() });
    const dir = mkdtempSync(join(tmpdir(), 'loom-refusals-'));
    try {
      for (const f of out.files) {
        mkdirSync(dirname(join(dir, f.path)), { recursive: true });
        writeFileSync(join(dir, f.path), f.content);
      }
      expect(out.files.map((f) => f.path)).toContain('schema-not-object.server.ts');
      expect(await typeCheck(dir)).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('x-loom-skip: true leaves the operation or path item out', () => {
  it.each(REFUSALS.filter((r) => r.skip))('$what', async (r) => {
    const [file] = await load(files([r], true), false);
    expect(file!.warnings.map(place)).toEqual([]);
    expect(operations(file!)).toEqual(['get /ok']);
  });

  it('on an operation nothing is wrong with, and on a path item through its $ref', async () => {
    const doc = {
      ...openapi({
        '/a': { get: { 'x-loom-skip': true, responses: OK }, post: { operationId: 'postA', responses: OK } },
        '/b': { $ref: '#/x-path-items/b' },
      }),
      'x-path-items': { b: { 'x-loom-skip': true, get: { responses: OK } } },
    };
    const [file] = await load({ 'api.json': JSON.stringify(doc) }, false);
    expect(operations(file!)).toEqual(['get /ok', 'post /a']);
  });

  it('a mark that is not true or false is ignored, with a warning', async () => {
    const [file] = await load(
      { 'api.json': JSON.stringify(openapi({ '/a': { get: { 'x-loom-skip': 'yes', operationId: 'getA', responses: OK } } }), null, 2) },
      false,
    );
    expect(operations(file!)).toEqual(['get /ok', 'get /a']);
    expect(file!.warnings.map(place)).toEqual([
      {
        file: 'api.json',
        pointer: '/paths/~1a/get/x-loom-skip',
        message: 'x-loom-skip is "yes", not true or false; it is ignored (write x-loom-skip: true to leave this out)',
      },
    ]);
  });
});

describe('loom generate --lenient', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'loom-lenient-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const api = `openapi: 3.0.3
info: { title: T, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Odd' }
components:
  schemas:
    Odd: { type: decimal }
`;
  const warning =
    "api.yaml:15 (/components/schemas/Odd/type): warning: unsupported type 'decimal': use one of string, number, integer, " +
    'boolean, array, object or null; generated anyway (--lenient): this schema becomes unknown\n';

  it('without it, the run is refused and names the option', async () => {
    const dir = join(tmp, 'strict');
    mkdirSync(join(dir, 'schemas'), { recursive: true });
    writeFileSync(join(dir, 'schemas/api.yaml'), api);
    let stderr = '';
    const code = await runCli(['generate', 'schemas', '--out', 'gen'], { cwd: dir, stdout: () => {}, stderr: (t) => (stderr += t) });
    expect(code).toBe(2);
    expect(stderr).toBe(
      "api.yaml:15 (/components/schemas/Odd/type): error: unsupported type 'decimal': use one of string, number, integer, " +
        'boolean, array, object or null; to generate anyway, pass --lenient (this schema becomes unknown)\n' +
        'loom: 1 error; nothing was written\n',
    );
    expect(existsSync(join(dir, 'gen'))).toBe(false);
  });

  it('as a process: generates with the warning, and records the option in every header', async () => {
    const dir = join(tmp, 'process');
    mkdirSync(join(dir, 'schemas'), { recursive: true });
    writeFileSync(join(dir, 'schemas/api.yaml'), api);
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = execFile(
        process.execPath,
        [join(REPO, 'bin/loom.js'), 'generate', 'schemas', '--out', 'gen', '--lenient', '--quiet'],
        { cwd: dir },
        (_e, stdout, stderr) => done({ code: child.exitCode, stdout, stderr }),
      );
    });
    expect(result.stderr).toBe(warning);
    expect(result.code).toBe(0);
    const types = readFileSync(join(dir, 'gen/api.types.ts'), 'utf8');
    expect(types).toContain(`// @generated by loom ${GENERATOR_VERSION} with --lenient\n`);
    expect(types).toMatch(/export type Odd = unknown;/);
  });
});
