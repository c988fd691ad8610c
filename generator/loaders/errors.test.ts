/**
 * @module
 * What a person sees when a schema cannot be used: one diagnostic per problem, with the
 * file, the line or JSON pointer, and a sentence saying what to change. Also warnings.
 */
import { describe, expect, it } from 'vitest';
import { SchemaError } from './index.js';
import { forgetSchemas, loadSchemas, memorySchemas } from './testing.js';

interface Seen {
  readonly file: string;
  readonly line?: number;
  readonly pointer?: string;
  readonly message: string;
}

/** Loads `files` (all of them, or `only`) and returns the diagnostics of the SchemaError thrown. */
async function failures(files: Record<string, string>, only?: string): Promise<Seen[]> {
  const root = memorySchemas(files);
  try {
    await loadSchemas([only ? `${root}/${only}` : root], { root });
  } catch (e) {
    if (!(e instanceof SchemaError)) throw e;
    expect(e.message).toContain(e.diagnostics[0]!.message);
    return e.diagnostics.map((d) => ({ file: d.source.file, line: d.source.line, pointer: d.source.pointer, message: d.message }));
  } finally {
    forgetSchemas(root);
  }
  throw new Error('expected a SchemaError');
}

/**
 * The end of a refusal's message: how to override it, with what --lenient then does, and the
 * operation or path item that x-loom-skip: true would leave out instead (problems.ts).
 */
function override(consequence: string, skip?: string): string {
  const what = skip?.startsWith("'") ? 'path item' : 'operation';
  const mark = skip ? ` or mark the ${what} x-loom-skip: true to leave ${skip} out` : '';
  return `; to generate anyway, pass --lenient (${consequence})${mark}`;
}
const FILE_REFS = 'every $ref to it becomes unknown, or leaves out the parameter, response, … it stands for';

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
        file: 'a.yaml',
        line: 11,
        pointer: '/paths/~1x/get/responses/200/content/application~1json/schema',
        message:
          "$ref '#/components/schemas/Missing' cannot be resolved: nothing is declared at '/components/schemas/Missing' in a.yaml" +
          override('this schema becomes unknown', 'GET /x'),
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
        file: 'a.yaml',
        line: 7,
        pointer: '/paths/~1x/get/responses/200',
        message:
          "$ref './shared/responses.yaml#/Ok' cannot be loaded: the file does not exist; fix the path (it is relative to a.yaml)" +
          override(FILE_REFS),
      },
    ]);
  });

  it('reports an unsupported type', async () => {
    expect(
      await failures({
        'a.yaml': api(
          '  {}',
          `components:
  schemas:
    Odd: { type: decimal }`,
        ),
      }),
    ).toEqual([
      {
        file: 'a.yaml',
        line: 7,
        pointer: '/components/schemas/Odd/type',
        message:
          "unsupported type 'decimal': use one of string, number, integer, boolean, array, object or null" +
          override('this schema becomes unknown'),
      },
    ]);
  });

  it('names the second of two operations with one operationId apart, with a warning', async () => {
    const root = memorySchemas({
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
    });
    const [file] = await loadSchemas([root], { root });
    forgetSchemas(root);
    expect(file!.services[0]!.operations.map((o) => [o.name, o.localName])).toEqual([
      ['list', 'list'],
      ['list2', 'list2'],
    ]);
    expect(file!.warnings.map((w) => ({ line: w.source.line, pointer: w.source.pointer, message: w.message }))).toEqual([
      {
        line: 19,
        pointer: '/paths/~1b/get',
        message:
          "operationId 'list' is also used by GET /a; this one is named 'list2' in generated code " +
          '(give it an operationId of its own to choose)',
      },
    ]);
  });

  it('reads path template placeholders without a parameter, and path parameters not in the template, with warnings', async () => {
    const root = memorySchemas({
      'a.yaml': api(`  /repos/{owner}/{repo}:
    get:
      parameters:
        - { name: owner, in: path, required: true, schema: { type: string } }
        - { name: name, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: ok }`),
    });
    const [file] = await loadSchemas([root], { root });
    forgetSchemas(root);
    expect(file!.services[0]!.operations[0]).toMatchObject({
      parameters: [{ name: 'owner' }, { name: 'repo', type: { scalar: 'string' } }],
    });
    expect(file!.warnings.map((w) => ({ line: w.source.line, pointer: w.source.pointer, message: w.message }))).toEqual([
      {
        line: 5,
        pointer: '/paths/~1repos~1{owner}~1{repo}/get',
        message:
          "path parameter '{repo}' of '/repos/{owner}/{repo}' is not declared; it is read as a required string " +
          "(declare it with 'name: repo' and 'in: path' to give it a type)",
      },
      {
        line: 5,
        pointer: '/paths/~1repos~1{owner}~1{repo}/get',
        message:
          "path parameter 'name' does not appear in '/repos/{owner}/{repo}'; it is left out (add '{name}' to the path, or change its 'in')",
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
        file: 'a.yaml',
        line: 7,
        pointer: '/paths/~1x/get/parameters/0/in',
        message:
          "parameter 'q' has unknown location 'in: querystring': use path, query, header or cookie" +
          override('the parameter is left out', 'GET /x'),
      },
      {
        file: 'a.yaml',
        line: 9,
        pointer: '/paths/~1x/get/responses/20x',
        message:
          "response status '20x' is not a status code: use 100–599, a range such as 4XX, or 'default'" +
          override('the response is left out', 'GET /x'),
      },
    ]);
  });

  it('reports unsupported versions and malformed YAML', async () => {
    expect(await failures({ 'a.yaml': "openapi: 2.5.0\ninfo: { title: T, version: '1' }\npaths: {}\n" })).toEqual([
      {
        file: 'a.yaml',
        line: 1,
        pointer: '/openapi',
        message: "openapi version '2.5.0' is not supported; use 3.0.x, 3.1.x or Swagger 2.0",
      },
    ]);
    expect(await failures({ 'a.yaml': 'openapi: 3.0.0\ninfo: { title: T\npaths: {}\n' })).toEqual([
      {
        file: 'a.yaml',
        line: 3,
        pointer: undefined,
        message:
          'not valid YAML: flow map in block collection must be sufficiently indented and end with a } (column 1); ' +
          'fix the syntax at this line or just before it',
      },
    ]);
  });

  it('refuses an explicit input that is not an API document, but skips such files in folders', async () => {
    expect(await failures({ 'config.yaml': 'port: 3000\n' }, 'config.yaml')).toEqual([
      {
        file: 'config.yaml',
        line: undefined,
        pointer: undefined,
        message:
          "not an OpenAPI or Swagger document: it has no top-level 'openapi' or 'swagger' key; " +
          'add one (openapi: 3.1.0), or leave the file out of the inputs',
      },
    ]);
    const root = memorySchemas({
      'config.yaml': 'port: 3000\n',
      'data.json': '[1, 2]',
      'compose.yaml': 'services:\n  swagger:\n    image: swaggerapi/swagger-ui\n',
      'broken-notes.yaml': 'text: [unclosed\n  openapi: maybe\n',
    });
    try {
      expect(await loadSchemas([root], { root })).toEqual([]);
    } finally {
      forgetSchemas(root);
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
      {
        file: 'a.yaml',
        line: 4,
        pointer: '/paths/~1a',
        message: `expected an object here, found an array${override('the path item is left out', "'/a'")}`,
      },
      {
        file: 'a.yaml',
        line: 7,
        pointer: '/paths/~1b/get/parameters',
        message: `'parameters' must be an array${override('these parameters are left out', 'GET /b')}`,
      },
      {
        file: 'a.yaml',
        line: 8,
        pointer: '/paths/~1b/get/responses',
        message: `'responses' must be an object keyed by status code${override('the operation has no responses', 'GET /b')}`,
      },
      {
        file: 'a.yaml',
        line: 14,
        pointer: '/paths/~1c/post/requestBody/content/application~1json/schema',
        message: `a schema must be an object, found "string"${override('this schema becomes unknown', 'POST /c')}`,
      },
    ]);
  });

  it('stops at YAML aliases that contain themselves', async () => {
    const root = memorySchemas({
      'a.yaml':
        "openapi: 3.0.0\ninfo: { title: T, version: '1' }\npaths: {}\ncomponents:\n  schemas:\n    A: &a\n      type: object\n" +
        '      properties:\n        self: *a\n',
    });
    try {
      const [file] = await loadSchemas([root], { root });
      expect(file!.warnings.map((w) => w.message)).toEqual([
        'this schema contains itself through a YAML alias, so it is read as any value; use a $ref to a named schema for recursion',
      ]);
    } finally {
      forgetSchemas(root);
    }
  });
});

describe('OpenAPI warnings', () => {
  it('warns that webhooks and callbacks are not generated', async () => {
    const root = memorySchemas({
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
      forgetSchemas(root);
    }
  });

  it('warns about ignored keywords and recursion through unnamed schemas, and still loads', async () => {
    const root = memorySchemas({
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
        [
          14,
          '/paths/~1x/get/responses/200/content/application~1json/schema/properties/name/not',
          "keyword 'not' is ignored: generated types and validators do not enforce it",
        ],
        [
          15,
          '/paths/~1x/get/responses/200/content/application~1json/schema/properties/self',
          "$ref '#/paths/~1x/get/responses/200/content/application~1json/schema' is recursive but not a named schema, " +
            'so it is read as any value; move it under components/schemas (or definitions) to keep its shape',
        ],
      ]);
    } finally {
      forgetSchemas(root);
    }
  });
});

describe('syntax errors and $ref cycles', () => {
  it('gives the line and column of a JSON syntax error, not its character offset', async () => {
    expect(
      await failures({ 'a.json': '{\n  "openapi": "3.0.3",\n  "info": { "title": "T", "version": "1" }\n  "paths": {}\n}\n' }),
    ).toEqual([
      {
        file: 'a.json',
        line: 4,
        pointer: undefined,
        message: "not valid JSON: expected ',' or '}' after property value (column 3); fix the syntax at this line or just before it",
      },
    ]);
    expect(await failures({ 'a.json': '{\n  "openapi": "3.0.3",\n' })).toEqual([
      {
        file: 'a.json',
        line: 2,
        pointer: undefined,
        message: 'not valid JSON: expected double-quoted property name (column 22); fix the syntax at this line or just before it',
      },
    ]);
  });

  it('finds the line of an unexpected character, which JSON.parse reports with an excerpt instead of a position', async () => {
    const text =
      '{\n  "openapi": "3.0.3",\n  "info": {"title": "T", "version": "1"},\n  "paths": {\n    "/a": { "get": { "operationId": ' +
      "'x' } }\n  }\n}\n";
    expect(await failures({ 'a.json': text }, 'a.json')).toEqual([
      {
        file: 'a.json',
        line: 5,
        pointer: undefined,
        message: "not valid JSON: unexpected character ''' (column 37); fix the syntax at this line or just before it",
      },
    ]);
    // Found in a folder: JSON whose key starts no line is still recognised as an API document.
    expect(await failures({ 'a.json': '{"openapi": "3.0.3",\n "info": {"title": \'T\'}}' })).toEqual([
      {
        file: 'a.json',
        line: 2,
        pointer: undefined,
        message: "not valid JSON: unexpected character ''' (column 20); fix the syntax at this line or just before it",
      },
    ]);
  });

  it('finds a JSON document written on one line in a folder', async () => {
    const root = memorySchemas({
      'min.json': '{"info":{"title":"Min","version":"1"},"openapi":"3.0.3","paths":{}}',
      'other.json': '{"name":"x"}',
    });
    try {
      expect((await loadSchemas([root], { root })).map((f) => [f.path, f.info.title])).toEqual([['min.json', 'Min']]);
    } finally {
      forgetSchemas(root);
    }
  });

  it('names the broken file and its line when a $ref reaches it', async () => {
    expect(
      await failures(
        {
          'a.yaml':
            "openapi: 3.0.3\ninfo: { title: T, version: '1' }\npaths: {}\ncomponents:\n  schemas:\n    A: { $ref: './b.json#/B' }\n",
          'b.json': '{\n  "B": { "type": "object", }\n}\n',
        },
        'a.yaml',
      ),
    ).toEqual([
      {
        file: 'a.yaml',
        line: 6,
        pointer: '/components/schemas/A',
        message:
          "$ref './b.json#/B' cannot be loaded: b.json:2 is not valid JSON: expected double-quoted property name (column 28); " +
          'fix the syntax there',
      },
    ]);
  });

  it('reports a chain of $refs that never reaches a schema once, at its first member', async () => {
    const components = `components:
  schemas:
    Ok: { $ref: '#/components/schemas/Real' }
    Real: { type: string }
    A: { $ref: '#/components/schemas/B' }
    B: { $ref: '#/components/schemas/C' }
    C: { $ref: '#/components/schemas/A' }
    Self: { $ref: '#/components/schemas/Self' }
    IntoCycle: { $ref: '#/components/schemas/A' }`;
    expect(await failures({ 'a.yaml': api('  {}', components) })).toEqual([
      {
        file: 'a.yaml',
        line: 9,
        pointer: '/components/schemas/A',
        message:
          '$ref chain A → B → C → A never reaches a schema: each one only refers to the next; ' +
          'give one of them a real schema (type, properties, …) or point the $ref elsewhere' +
          override('each schema of the chain becomes unknown'),
      },
      {
        file: 'a.yaml',
        line: 12,
        pointer: '/components/schemas/Self',
        message:
          '$ref chain Self → Self never reaches a schema: each one only refers to the next; ' +
          'give one of them a real schema (type, properties, …) or point the $ref elsewhere' +
          override('each schema of the chain becomes unknown'),
      },
    ]);
  });

  it('sees through a oneOf or allOf with a single $ref in such a chain', async () => {
    const components = `components:
  schemas:
    A: { oneOf: [{ $ref: '#/components/schemas/B' }] }
    B: { allOf: [{ $ref: '#/components/schemas/A' }], description: only words }
    Fine: { oneOf: [{ $ref: '#/components/schemas/Real' }] }
    Real: { type: string }`;
    expect(await failures({ 'a.yaml': api('  {}', components) })).toEqual([
      {
        file: 'a.yaml',
        line: 7,
        pointer: '/components/schemas/A',
        message:
          '$ref chain A → B → A never reaches a schema: each one only refers to the next; give one of them a real schema (type, ' +
          'properties, …) or point the $ref elsewhere' +
          override('each schema of the chain becomes unknown'),
      },
    ]);
  });

  it("explains that 'in: body' is Swagger 2.0 in an OpenAPI 3 document", async () => {
    const paths = `  /a/{id}:
    post:
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
        - { name: payload, in: body, schema: { type: object } }
      responses: { '200': { description: ok } }`;
    expect(await failures({ 'a.yaml': api(paths) })).toEqual([
      {
        file: 'a.yaml',
        line: 8,
        pointer: '/paths/~1a~1{id}/post/parameters/1/in',
        message:
          "parameter 'payload' has 'in: body', which is Swagger 2.0: OpenAPI 3 describes the body with the operation's " +
          "'requestBody' (content: { application/json: { schema: … } }); move it there" +
          override('the parameter is left out', 'POST /a/{id}'),
      },
    ]);
  });

  it('warns of a discriminator whose tag is not a property, and of a mapping to a schema that is not an object', async () => {
    const root = memorySchemas({
      'zoo.yaml': `openapi: 3.0.3
info: { title: Zoo, version: '1' }
paths: {}
components:
  schemas:
    Animal:
      type: object
      properties: { name: { type: string } }
      discriminator:
        propertyName: species
        mapping: { cat: Cat, rock: Rock }
    Cat:
      allOf: [{ $ref: '#/components/schemas/Animal' }, { type: object, properties: { lives: { type: integer } } }]
    Rock: { type: string }
`,
    });
    try {
      const [file] = await loadSchemas([root], { root });
      expect(file!.warnings.map((w) => [w.source.line, w.source.pointer, w.message])).toEqual([
        [
          9,
          '/components/schemas/Animal/discriminator',
          "discriminator 'species' is not a property of 'Animal': add it to the properties (and to 'required'), " +
            'or values cannot say which subtype they are',
        ],
        [
          9,
          '/components/schemas/Animal/discriminator',
          "discriminator mapping 'rock' names 'Rock', which is not an object schema; it is left out",
        ],
      ]);
      const animal = file!.types.find((t) => t.name === 'Animal');
      expect(animal?.kind === 'message' ? Object.keys(animal.subtypes?.mapping ?? {}) : undefined).toEqual(['cat']);
    } finally {
      forgetSchemas(root);
    }
  });
});

describe('proto errors protobufjs reports without a line', () => {
  it('points a duplicate field number at the second field, and names the first', async () => {
    expect(
      await failures({
        'd.proto':
          'syntax = "proto3";\npackage d;\nmessage Outer {\n  message A {\n    string a = 1;\n    int32 z = 2;\n' +
          '    string b = 1;\n  }\n}\n',
      }),
    ).toEqual([
      {
        file: 'd.proto',
        line: 7,
        pointer: undefined,
        message:
          "field number 1 is used twice in message 'A' (also on line 5): " +
          'give each field its own number (numbers identify fields on the wire)',
      },
    ]);
  });

  it('points a duplicate enum number at the second value', async () => {
    expect(await failures({ 'e.proto': 'syntax = "proto3";\npackage e;\nenum S {\n  A = 0;\n  B = 1;\n  C = 1;\n}\n' })).toEqual([
      {
        file: 'e.proto',
        line: 6,
        pointer: undefined,
        message:
          "value 1 is used twice in enum 'S' (also on line 5): give each value its own number, " +
          "or add 'option allow_alias = true;' if the names are meant as aliases",
      },
    ]);
  });

  it('points a reserved number or name at the field that reuses it', async () => {
    expect(await failures({ 'r.proto': 'syntax = "proto3";\npackage r;\nmessage M {\n  reserved 3;\n  string a = 3;\n}\n' })).toEqual([
      {
        file: 'r.proto',
        line: 5,
        pointer: undefined,
        message:
          "number 3 is reserved in message 'M' (by its 'reserved' statement): " +
          'reserved numbers belong to removed fields and must not be reused; pick another number',
      },
    ]);
    expect(
      await failures({
        'n.proto': 'syntax = "proto3";\npackage n;\nmessage M {\n  reserved "old";\n  string x = 1;\n  string old = 2;\n}\n',
      }),
    ).toEqual([
      {
        file: 'n.proto',
        line: 6,
        pointer: undefined,
        message:
          "name 'old' is reserved in message 'M' (by its 'reserved' statement): " +
          'reserved names belong to removed fields and must not be reused; pick another name',
      },
    ]);
  });

  it('refuses a field named __proto__ instead of dropping it', async () => {
    expect(
      await failures({ 'p.proto': 'syntax = "proto3";\npackage p;\nmessage A {\n  string id = 1;\n  string __proto__ = 2;\n}\n' }),
    ).toEqual([
      {
        file: 'p.proto',
        line: 5,
        pointer: undefined,
        message:
          "field '__proto__' of 'A' cannot be generated: JavaScript treats that name as an object's prototype, " +
          'so it would silently disappear; rename the field (only its number goes on the wire)',
      },
    ]);
  });

  it('names only the rpc types that are missing', async () => {
    const service = (rpc: string) => `syntax = "proto3";\npackage p;\nmessage Chunk { bytes data = 1; }\nservice Pipe {\n  ${rpc}\n}\n`;
    expect(await failures({ 'a.proto': service('rpc Send(Chunk) returns (Receipt);') })).toEqual([
      {
        file: 'a.proto',
        line: 5,
        pointer: undefined,
        message: "rpc 'Send' of 'Pipe' names an unknown message 'Receipt': import the file that declares it, or fix the name",
      },
    ]);
    expect(await failures({ 'a.proto': service('rpc Send(Nope) returns (Chunk);') })).toEqual([
      {
        file: 'a.proto',
        line: 5,
        pointer: undefined,
        message: "rpc 'Send' of 'Pipe' names an unknown message 'Nope': import the file that declares it, or fix the name",
      },
    ]);
    expect(await failures({ 'a.proto': service('rpc Send(stream Nope) returns (Never);') })).toEqual([
      {
        file: 'a.proto',
        line: 5,
        pointer: undefined,
        message: "rpc 'Send' of 'Pipe' names unknown messages 'Nope' and 'Never': import the file that declares it, or fix the name",
      },
    ]);
  });
});

describe('every problem of a run, together', () => {
  it('a $ref to a missing file hides no other problem of the document, and is reported once', async () => {
    expect(
      await failures({
        'a.yaml': api(
          `  /x:
    get:
      operationId: same
      responses:
        '200': { $ref: './shared.yaml#/Ok' }
  /y:
    get:
      operationId: same
      responses:
        '200': { $ref: './shared.yaml#/Ok' }`,
          `components:
  schemas:
    Code: { type: string, pattern: '[a-' }
    Odd: { type: decimal }
    Again: { $ref: './shared.yaml#/Thing' }`,
        ),
      }),
    ).toEqual([
      {
        file: 'a.yaml',
        line: 8,
        pointer: '/paths/~1x/get/responses/200',
        message:
          "$ref './shared.yaml#/Ok' cannot be loaded: the file does not exist; fix the path (it is relative to a.yaml)" +
          override(FILE_REFS),
      },
      {
        file: 'a.yaml',
        line: 16,
        pointer: '/components/schemas/Code/pattern',
        message:
          'pattern "[a-" is not a valid regular expression (Invalid regular expression: /[a-/: Unterminated character class); ' +
          'fix it: patterns are ECMA-262 regular expressions' +
          override('the pattern is not checked'),
      },
      {
        file: 'a.yaml',
        line: 17,
        pointer: '/components/schemas/Odd/type',
        message:
          "unsupported type 'decimal': use one of string, number, integer, boolean, array, object or null" +
          override('this schema becomes unknown'),
      },
    ]);
  });

  it('an error in one .proto file hides none of the others', async () => {
    expect(
      await failures({
        'x.proto': 'syntax = "proto3";\npackage x;\nmessage A {\n  string a = 1\n}\n',
        'y.proto': 'syntax = "proto3";\npackage y;\nmessage B {\n  Foo f = 1;\n}\n',
        'z.proto': 'syntax = "proto3";\npackage z;\nmessage C {\n  string c = 1;\n  int32 d = 1;\n}\n',
        'ok.proto': 'syntax = "proto3";\npackage ok;\nmessage D { string d = 1; }\n',
      }),
    ).toEqual([
      {
        file: 'x.proto',
        line: 4,
        pointer: undefined,
        message: "cannot parse: a ';' is missing at the end of this line (the next statement starts with '}')",
      },
      {
        file: 'y.proto',
        line: 4,
        pointer: undefined,
        message: "field 'f' of 'B' has unknown type 'Foo': import the file that declares it, or fix the name",
      },
      {
        file: 'z.proto',
        line: 5,
        pointer: undefined,
        message:
          "field number 1 is used twice in message 'C' (also on line 4): " +
          'give each field its own number (numbers identify fields on the wire)',
      },
    ]);
  });
});
