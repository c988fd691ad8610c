/**
 * @module
 * Schemas the generator cannot handle: each gets `file:line: error: …` (with the JSON
 * pointer for OpenAPI) and a sentence a person can act on, exit code 2, no stack trace,
 * and nothing written — in process through `runCli`, and once as a real process.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../generator/cli/cli.js';
import { REPO } from '../support/tsc-check.js';

const tmp = mkdtempSync(join(tmpdir(), 'loom-bad-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let counter = 0;

/** Writes `files` into a fresh project folder and runs `loom generate <input> --out gen` there. */
async function generate(files: Record<string, string>, input = 'schemas'): Promise<{ code: number; stderr: string; dir: string }> {
  const dir = join(tmp, `p${++counter}`);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, 'schemas', path, '..'), { recursive: true });
    writeFileSync(join(dir, 'schemas', path), text);
  }
  let stderr = '';
  const code = await runCli(['generate', input, '--out', 'gen'], { cwd: dir, stdout: () => {}, stderr: (t) => (stderr += t) });
  return { code, stderr, dir };
}

/** The lines every failed run ends with: the error lines, then one summary line. */
function expectFailure(result: { code: number; stderr: string; dir: string }, errors: string[]): void {
  expect(result.stderr).toBe(`${errors.join('\n')}\nloom: ${errors.length} error${errors.length === 1 ? '' : 's'}; nothing was written\n`);
  expect(result.code).toBe(2);
  expect(existsSync(join(result.dir, 'gen'))).toBe(false);
}

const OPENAPI_HEAD = "openapi: 3.0.3\ninfo: { title: T, version: '1' }\n";

describe('broken proto files', () => {
  it('a missing import names the line and the -I fix', async () => {
    const result = await generate({
      'orders.proto': 'syntax = "proto3";\npackage shop.v1;\nimport "shop/v1/money.proto";\nmessage Order { string id = 1; }\n',
    });
    expectFailure(result, [
      'orders.proto:3: error: cannot find import "shop/v1/money.proto": looked next to the file, in the root; ' +
        'add the folder that holds it as an import path (-I)',
    ]);
  });

  it('an unknown field type names the field and the message', async () => {
    const result = await generate({
      'orders.proto': 'syntax = "proto3";\npackage shop.v1;\nmessage Order {\n  string id = 1;\n  Money total = 2;\n}\n',
    });
    expectFailure(result, [
      "orders.proto:5: error: field 'total' of 'Order' has unknown type 'Money': import the file that declares it, or fix the name",
    ]);
  });

  it('a syntax error and an illegal map key point at their line and say what to fix', async () => {
    // The parser notices a missing ';' at the next statement; the fix goes on the line before.
    expectFailure(await generate({ 'a.proto': 'syntax = "proto3";\npackage a;\nmessage A {\n  string id = 1\n}\n' }), [
      "a.proto:4: error: cannot parse: a ';' is missing at the end of this line (the next statement starts with '}')",
    ]);
    expectFailure(
      await generate({
        'c.proto': 'syntax = "proto3";\npackage c;\nmessage C {\n  int32 b = 2 // the count\n\n  // next\n  int32 c = 3;\n}\n',
      }),
      ["c.proto:4: error: cannot parse: a ';' is missing at the end of this line (the next statement starts with 'int32')"],
    );
    expectFailure(await generate({ 'b.proto': 'syntax = "proto3";\npackage b;\nmessage B {\n  map<float, string> m = 1;\n}\n' }), [
      "b.proto:4: error: cannot parse: illegal type 'float': a map key is an integer type, bool or string",
    ]);
    // protobufjs calls an unreadable map value type "illegal type" too: that is no map key's fault.
    expectFailure(await generate({ 'v.proto': 'syntax = "proto3";\npackage v;\nmessage V {\n  map<string, 9x> m = 1;\n}\n' }), [
      "v.proto:4: error: cannot parse: '9x' is not a type name: use a scalar type (int32, string, …) or a message or enum name",
    ]);
    expectFailure(await generate({ 'd.proto': 'syntax = "proto3";\npackage d;\nmessage D {\n  string d = 1;\n' }), [
      "d.proto:5: error: cannot parse: the file ends inside a declaration: a '}' or ';' is missing",
    ]);
    expectFailure(await generate({ 'e.proto': 'syntax = "proto3";\npackage e;\nmessage E {\n  string = 1;\n}\n' }), [
      "e.proto:4: error: cannot parse: a name is missing before '=': a field is `type name = number;`",
    ]);
  });

  it('an rpc with an unknown message type fails on the rpc line', async () => {
    const result = await generate({
      'pipe.proto':
        'syntax = "proto3";\npackage p;\nmessage Chunk { bytes data = 1; }\nservice Pipe {\n' +
        '  rpc Send(stream Chunk) returns (Receipt);\n}\n',
    });
    expectFailure(result, [
      "pipe.proto:5: error: rpc 'Send' of 'Pipe' names an unknown message 'Receipt': import the file that declares it, or fix the name",
    ]);
  });

  it('a duplicate field number points at the second field and names the first', async () => {
    expectFailure(await generate({ 'dup.proto': 'syntax = "proto3";\npackage d;\nmessage A {\n  string a = 1;\n  string b = 1;\n}\n' }), [
      "dup.proto:5: error: field number 1 is used twice in message 'A' (also on line 4): " +
        'give each field its own number (numbers identify fields on the wire)',
    ]);
  });

  it('a message declared twice says whether it is twice in one file or in two', async () => {
    expectFailure(
      await generate({ 'twice.proto': 'syntax = "proto3";\npackage t;\nmessage A { string a = 1; }\n\nmessage A { string b = 1; }\n' }),
      ["twice.proto:5: error: 'A' is declared twice in 't' in this file (also on line 3): rename or remove one of them"],
    );
    const result = await generate({
      'one.proto': 'syntax = "proto3";\npackage t;\nmessage A { string a = 1; }\n',
      'two.proto': 'syntax = "proto3";\npackage t;\nmessage A { string b = 1; }\n',
    });
    expect(result.stderr).toContain(
      "error: 'A' is declared twice in 't': another loaded file already defines it; rename one of them or load the files separately",
    );
  });
  it('two fields with one JSON name are refused, as protoc refuses them', async () => {
    const proto =
      'syntax = "proto3";\npackage j;\nmessage M {\n  string a = 1 [json_name = "x"];\n  string x = 2;\n  string foo_bar = 3;\n' +
      '  string fooBar = 4;\n}\n';
    expectFailure(await generate({ 'j.proto': proto }), [
      "j.proto:5: error: field 'x' of 'M' has the JSON name 'x', as field 'a' does: " +
        'proto3 JSON and the generated TypeScript property cannot tell them apart; rename one, or give one a different json_name',
      "j.proto:7: error: field 'fooBar' of 'M' has the JSON name 'fooBar', as field 'foo_bar' does: " +
        'proto3 JSON and the generated TypeScript property cannot tell them apart; rename one, or give one a different json_name',
    ]);
  });

  it('a field named __proto__ is refused, not silently dropped', async () => {
    expectFailure(await generate({ 'p.proto': 'syntax = "proto3";\npackage p;\nmessage A {\n  string __proto__ = 1;\n}\n' }), [
      "p.proto:4: error: field '__proto__' of 'A' cannot be generated: JavaScript treats that name as an object's prototype, " +
        'so it would silently disappear; rename the field (only its number goes on the wire)',
    ]);
  });
});

describe('broken OpenAPI documents', () => {
  it('a property named __proto__ is refused, not silently dropped from validators and documents', async () => {
    const doc =
      '{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},' +
      '"components":{"schemas":{"Obj":{"type":"object","properties":{"__proto__":{"type":"string"}}}}}}';
    expectFailure(await generate({ 'api.json': doc }), [
      "api.json:1 (/components/schemas/Obj/properties/__proto__): error: property '__proto__' cannot be generated: " +
        "JavaScript treats that name as an object's prototype, so validators and documents would silently drop it; " +
        'rename the property; to generate anyway, pass --lenient (the property is left out)',
    ]);
  });

  it('an unresolvable $ref gives line, JSON pointer and the missing target', async () => {
    const result = await generate({
      'api.yaml': `${OPENAPI_HEAD}paths:
  /a:
    get:
      operationId: getA
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Missing' }
components:
  schemas:
    A: { type: object }
`,
    });
    expectFailure(result, [
      'api.yaml:12 (/paths/~1a/get/responses/200/content/application~1json/schema): error: ' +
        "$ref '#/components/schemas/Missing' cannot be resolved: nothing is declared at '/components/schemas/Missing' in api.yaml; " +
        'to generate anyway, pass --lenient (this schema becomes unknown) or mark the operation x-loom-skip: true to leave GET /a out',
    ]);
  });

  it('a $ref to a missing file says the path is relative to the document', async () => {
    const result = await generate({
      'api.yaml': `${OPENAPI_HEAD}paths: {}\ncomponents:\n  schemas:\n    A: { $ref: './shared.yaml#/components/schemas/B' }\n`,
    });
    expectFailure(result, [
      "api.yaml:6 (/components/schemas/A): error: $ref './shared.yaml#/components/schemas/B' cannot be loaded: " +
        'the file does not exist; fix the path (it is relative to api.yaml); to generate anyway, pass --lenient ' +
        '(every $ref to it becomes unknown, or leaves out the parameter, response, … it stands for)',
    ]);
  });

  it('a misspelt type lists the valid ones', async () => {
    const result = await generate({
      'api.yaml':
        `${OPENAPI_HEAD}paths: {}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties:\n        n: { type: ` +
        `strin }\n`,
    });
    expectFailure(result, [
      "api.yaml:9 (/components/schemas/A/properties/n/type): error: unsupported type 'strin': use one of string, number, " +
        'integer, boolean, array, object or null; to generate anyway, pass --lenient (this schema becomes unknown)',
    ]);
  });

  it('an undeclared path parameter, a discriminator mapping to a missing schema, a reused operationId: warnings, not errors', async () => {
    const result = await generate({
      'api.yaml': `${OPENAPI_HEAD}paths:
  /a/{id}:
    get: { operationId: same, responses: { '200': { description: ok } } }
  /b:
    get: { operationId: same, responses: { '200': { description: ok } } }
components:
  schemas:
    U:
      oneOf: [{ $ref: '#/components/schemas/A' }]
      discriminator: { propertyName: kind, mapping: { a: '#/components/schemas/Nope' } }
    A: { type: object, properties: { kind: { type: string } } }
`,
    });
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter((l) => l !== '')).toEqual([
      "api.yaml:5 (/paths/~1a~1{id}/get): warning: path parameter '{id}' of '/a/{id}' is not declared; " +
        "it is read as a required string (declare it with 'name: id' and 'in: path' to give it a type)",
      "api.yaml:7 (/paths/~1b/get): warning: operationId 'same' is also used by GET /a/{id}; " +
        "this one is named 'same2' in generated code (give it an operationId of its own to choose)",
      "api.yaml:12 (/components/schemas/U/discriminator): warning: discriminator mapping 'a' names '#/components/schemas/Nope', " +
        "which cannot be resolved (nothing is declared at '/components/schemas/Nope' in api.yaml); the entry is left out",
    ]);
  });

  it('a document that is neither OpenAPI nor Swagger says which key is missing', async () => {
    // Named on the command line: a folder scan skips YAML that is not an API document.
    expectFailure(await generate({ 'api.yaml': "info: { title: T, version: '1' }\npaths: {}\n" }, 'schemas/api.yaml'), [
      "api.yaml: error: not an OpenAPI or Swagger document: it has no top-level 'openapi' or 'swagger' key; " +
        'add one (openapi: 3.1.0), or leave the file out of the inputs',
    ]);
  });

  it('invalid YAML and JSON give the line the parser stopped at', async () => {
    expectFailure(await generate({ 'api.yaml': "openapi: 3.0.3\ninfo: { title: T, version: '1'\npaths: {}\n" }), [
      'api.yaml:3: error: not valid YAML: flow map in block collection must be sufficiently indented and end with a }' +
        ' (column 1); fix the syntax at this line or just before it',
    ]);
    expectFailure(
      await generate({ 'api.json': '{\n  "openapi": "3.0.3",\n  "info": { "title": "T", "version": "1" }\n  "paths": {}\n}\n' }),
      [
        "api.json:4: error: not valid JSON: expected ',' or '}' after property value (column 3); " +
          'fix the syntax at this line or just before it',
      ],
    );
  });

  it('two documents that would write the same files are named, before anything is generated', async () => {
    const result = await generate({
      'api.yaml': `${OPENAPI_HEAD}paths: {}\ncomponents: { schemas: { A: { type: string } } }\n`,
      'api.json':
        '{ "openapi": "3.0.3", "info": { "title": "J", "version": "1" }, "paths": {}, "components": { "schemas": { "J": ' +
        '{ "type": "string" } } } }',
    });
    expectFailure(result, [
      'api.yaml: error: its output files (api.types.ts, api.server.ts, …) would be the same as those of api.json: ' +
        'rename one of the two, or generate them in separate runs',
    ]);
  });

  it('a $ref cycle with no schema in it is reported at its first schema', async () => {
    expectFailure(
      await generate({
        'api.yaml':
          `${OPENAPI_HEAD}paths: {}\ncomponents:\n  schemas:\n    A: { $ref: '#/components/schemas/B' }\n    B: { $ref: ` +
          `'#/components/schemas/A' }\n`,
      }),
      [
        'api.yaml:6 (/components/schemas/A): error: $ref chain A → B → A never reaches a schema: ' +
          'each one only refers to the next; give one of them a real schema (type, properties, …) or point the $ref elsewhere; ' +
          'to generate anyway, pass --lenient (each schema of the chain becomes unknown)',
      ],
    );
  });

  it("an OpenAPI 3 parameter with 'in: body' is sent to requestBody", async () => {
    const result = await generate({
      'api.yaml': `${OPENAPI_HEAD}paths:
  /a:
    post:
      operationId: postA
      parameters:
        - { name: body, in: body, schema: { type: object } }
      responses: { '200': { description: ok } }
`,
    });
    expectFailure(result, [
      "api.yaml:8 (/paths/~1a/post/parameters/0/in): error: parameter 'body' has 'in: body', which is Swagger 2.0: " +
        "OpenAPI 3 describes the body with the operation's 'requestBody' (content: { application/json: { schema: … } }); " +
        'move it there; to generate anyway, pass --lenient (the parameter is left out) ' +
        'or mark the operation x-loom-skip: true to leave POST /a out',
    ]);
  });
});

describe('as a process', () => {
  it('exits 2 with file:line on stderr and no stack trace', async () => {
    const dir = join(tmp, 'process');
    mkdirSync(join(dir, 'schemas'), { recursive: true });
    writeFileSync(join(dir, 'schemas/orders.proto'), 'syntax = "proto3";\npackage shop.v1;\nmessage Order {\n  Money total = 1;\n}\n');
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = execFile(
        process.execPath,
        [join(REPO, 'bin/loom.js'), 'generate', 'schemas', '--out', 'gen'],
        { cwd: dir },
        (_e, stdout, stderr) => done({ code: child.exitCode, stdout, stderr }),
      );
    });
    expect(result.stderr).toBe(
      "orders.proto:4: error: field 'total' of 'Order' has unknown type 'Money': import the file that declares it, " +
        'or fix the name\nloom: 1 error; nothing was written\n',
    );
    expect(result.stdout).toBe('');
    expect(result.code).toBe(2);
  });
});
