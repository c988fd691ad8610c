/**
 * @module
 * What a person sees when a schema cannot be used: one diagnostic per problem, with the
 * file, the line or JSON pointer, and a sentence saying what to change. Also warnings.
 */
import { describe, expect, it } from 'vitest';
import { loadSchemas, SchemaError } from './index.js';
import { removeSchemas, writeSchemas } from './testing.js';

interface Seen {
  readonly file: string;
  readonly line?: number;
  readonly pointer?: string;
  readonly message: string;
}

/** Loads `files` (all of them, or `only`) and returns the diagnostics of the SchemaError thrown. */
async function failures(files: Record<string, string>, only?: string): Promise<Seen[]> {
  const root = await writeSchemas(files);
  try {
    await loadSchemas([only ? `${root}/${only}` : root], { root });
  } catch (e) {
    if (!(e instanceof SchemaError)) throw e;
    expect(e.message).toContain(e.diagnostics[0]!.message);
    return e.diagnostics.map((d) => ({ file: d.source.file, line: d.source.line, pointer: d.source.pointer, message: d.message }));
  } finally {
    await removeSchemas(root);
  }
  throw new Error('expected a SchemaError');
}

const api = (paths: string, components = '') => `openapi: 3.0.3
info: { title: T, version: '1' }
paths:
${paths}
${components}`;

describe('OpenAPI errors', () => {
  it('reports a $ref to a schema that does not exist', async () => {
    expect(
      await failures({
        'a.yaml': api(`  /x:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Missing' }`),
      }),
    ).toEqual([
      {
        file: 'a.yaml', line: 11, pointer: '/paths/~1x/get/responses/200/content/application~1json/schema',
        message: "$ref '#/components/schemas/Missing' cannot be resolved: nothing is declared at '/components/schemas/Missing' in a.yaml",
      },
    ]);
  });

  it('reports a $ref to a file that does not exist', async () => {
    expect(
      await failures({
        'a.yaml': api(`  /x:
    get:
      responses:
        '200': { $ref: './shared/responses.yaml#/Ok' }`),
      }),
    ).toEqual([
      {
        file: 'a.yaml', line: 7, pointer: '/paths/~1x/get/responses/200',
        message: "$ref './shared/responses.yaml#/Ok' cannot be loaded: the file does not exist; fix the path (it is relative to a.yaml)",
      },
    ]);
  });

  it('reports an unsupported type', async () => {
    expect(
      await failures({
        'a.yaml': api('  {}', `components:
  schemas:
    Odd: { type: decimal }`),
      }),
    ).toEqual([
      {
        file: 'a.yaml', line: 7, pointer: '/components/schemas/Odd/type',
        message: "unsupported type 'decimal': use one of string, number, integer, boolean, array, object or null",
      },
    ]);
  });

  it('reports duplicate operationIds', async () => {
    expect(
      await failures({
        'a.json': JSON.stringify(
          {
            swagger: '2.0',
            info: { title: 'T', version: '1' },
            paths: {
              '/a': { get: { operationId: 'list', responses: { 200: { description: 'ok' } } } },
              '/b': { get: { operationId: 'list', responses: { 200: { description: 'ok' } } } },
            },
          },
          null,
          2,
        ),
      }),
    ).toEqual([
      {
        file: 'a.json', line: 19, pointer: '/paths/~1b/get',
        message: "operationId 'list' is also used by GET /a: operation ids must be unique; rename one of them",
      },
    ]);
  });

  it('reports path template placeholders without a parameter, and path parameters not in the template', async () => {
    expect(
      await failures({
        'a.yaml': api(`  /repos/{owner}/{repo}:
    get:
      parameters:
        - { name: owner, in: path, required: true, schema: { type: string } }
        - { name: name, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: ok }`),
      }),
    ).toEqual([
      {
        file: 'a.yaml', line: 5, pointer: '/paths/~1repos~1{owner}~1{repo}/get',
        message: "path parameter '{repo}' of '/repos/{owner}/{repo}' is not defined: add a parameter with 'name: repo' and 'in: path'",
      },
      {
        file: 'a.yaml', line: 5, pointer: '/paths/~1repos~1{owner}~1{repo}/get',
        message: "path parameter 'name' does not appear in '/repos/{owner}/{repo}': add '{name}' to the path or change 'in'",
      },
    ]);
  });

  it('reports an unknown parameter location and a bad status code', async () => {
    expect(
      await failures({
        'a.yaml': api(`  /x:
    get:
      parameters:
        - { name: q, in: querystring, schema: { type: string } }
      responses:
        '20x': { description: ok }`),
      }),
    ).toEqual([
      {
        file: 'a.yaml', line: 7, pointer: '/paths/~1x/get/parameters/0/in',
        message: "parameter 'q' has unknown location 'in: querystring': use path, query, header or cookie",
      },
      {
        file: 'a.yaml', line: 9, pointer: '/paths/~1x/get/responses/20x',
        message: "response status '20x' is not a status code: use 100–599, a range such as 4XX, or 'default'",
      },
    ]);
  });

  it('reports unsupported versions and malformed YAML', async () => {
    expect(await failures({ 'a.yaml': "openapi: 2.5.0\ninfo: { title: T, version: '1' }\npaths: {}\n" })).toEqual([
      { file: 'a.yaml', line: 1, pointer: '/openapi', message: "openapi version '2.5.0' is not supported; use 3.0.x, 3.1.x or Swagger 2.0" },
    ]);
    const [bad] = await failures({ 'a.yaml': 'openapi: 3.0.0\ninfo: { title: T\npaths: {}\n' });
    expect(bad!.file).toBe('a.yaml');
    expect(bad!.message).toMatch(/^a\.yaml:\d+ is not valid YAML: /);
  });

  it('refuses an explicit input that is not an API document, but skips such files in folders', async () => {
    expect(await failures({ 'config.yaml': 'port: 3000\n' }, 'config.yaml')).toEqual([
      { file: 'config.yaml', line: undefined, pointer: undefined, message: "not an OpenAPI or Swagger document: it has no top-level 'openapi' or 'swagger' key" },
    ]);
    const root = await writeSchemas({
      'config.yaml': 'port: 3000\n',
      'data.json': '[1, 2]',
      'compose.yaml': 'services:\n  swagger:\n    image: swaggerapi/swagger-ui\n',
      'broken-notes.yaml': 'text: [unclosed\n  openapi: maybe\n',
    });
    try {
      expect(await loadSchemas([root], { root })).toEqual([]);
    } finally {
      await removeSchemas(root);
    }
  });

  it('reports inputs that do not exist', async () => {
    await expect(loadSchemas(['/nonexistent/loom/schemas'], { root: '/nonexistent/loom' })).rejects.toThrow(
      /^\/nonexistent\/loom\/schemas: error: no such file or folder/,
    );
  });
});

describe('malformed documents', () => {
  it('reports wrong shapes instead of crashing', async () => {
    expect(
      await failures({
        'a.yaml': `openapi: 3.0.3
info: { title: T, version: '1' }
paths:
  /a: [1, 2]
  /b:
    get:
      parameters: { name: q }
      responses: []
  /c:
    post:
      requestBody:
        content:
          application/json:
            schema: string
      responses:
        '200': { description: ok }
`,
      }),
    ).toEqual([
      { file: 'a.yaml', line: 4, pointer: '/paths/~1a', message: 'expected an object here, found an array' },
      { file: 'a.yaml', line: 7, pointer: '/paths/~1b/get/parameters', message: "'parameters' must be an array" },
      { file: 'a.yaml', line: 8, pointer: '/paths/~1b/get/responses', message: "'responses' must be an object keyed by status code" },
      { file: 'a.yaml', line: 14, pointer: '/paths/~1c/post/requestBody/content/application~1json/schema', message: 'a schema must be an object, found "string"' },
    ]);
  });

  it('stops at YAML aliases that contain themselves', async () => {
    const root = await writeSchemas({
      'a.yaml': "openapi: 3.0.0\ninfo: { title: T, version: '1' }\npaths: {}\ncomponents:\n  schemas:\n    A: &a\n      type: object\n      properties:\n        self: *a\n",
    });
    try {
      const [file] = await loadSchemas([root], { root });
      expect(file!.warnings.map((w) => w.message)).toEqual([
        'this schema contains itself through a YAML alias, so it is read as any value; use a $ref to a named schema for recursion',
      ]);
    } finally {
      await removeSchemas(root);
    }
  });
});

describe('OpenAPI warnings', () => {
  it('warns that webhooks and callbacks are not generated', async () => {
    const root = await writeSchemas({
      'a.yaml': `openapi: 3.1.0
info: { title: T, version: '1' }
paths:
  /subscribe:
    post:
      callbacks:
        onEvent: {}
      responses:
        '204': { description: ok }
webhooks:
  newPet: {}
`,
    });
    try {
      const [file] = await loadSchemas([root], { root });
      expect(file!.warnings.map((w) => [w.source.line, w.source.pointer, w.message])).toEqual([
        [10, '/webhooks', "'webhooks' are ignored: Loom generates the API's own operations only"],
        [6, '/paths/~1subscribe/post/callbacks', "'callbacks' are ignored: Loom generates the API's own operations only"],
      ]);
    } finally {
      await removeSchemas(root);
    }
  });

  it('warns about ignored keywords and recursion through unnamed schemas, and still loads', async () => {
    const root = await writeSchemas({
      'a.yaml': api(`  /x:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  name: { type: string, not: { const: admin } }
                  self: { $ref: '#/paths/~1x/get/responses/200/content/application~1json/schema' }`),
    });
    try {
      const [file] = await loadSchemas([root], { root });
      expect(file!.warnings.map((w) => [w.source.line, w.source.pointer, w.message])).toEqual([
        [14, '/paths/~1x/get/responses/200/content/application~1json/schema/properties/name/not', "keyword 'not' is ignored: generated types and validators do not enforce it"],
        [
          15, '/paths/~1x/get/responses/200/content/application~1json/schema/properties/self',
          "$ref '#/paths/~1x/get/responses/200/content/application~1json/schema' is recursive but not a named schema, so it is read as any value; move it under components/schemas (or definitions) to keep its shape",
        ],
      ]);
    } finally {
      await removeSchemas(root);
    }
  });
});
