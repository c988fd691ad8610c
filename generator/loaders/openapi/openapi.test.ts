/**
 * @module
 * The OpenAPI loader on inline documents (3.0, 3.1, Swagger 2.0): services by tag,
 * merged parameters, bodies, responses, named and inline schemas, `$ref` across files
 * and recursion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpOperation, SchemaFile } from '../../model/model.js';
import { forgetSchemas, loadSchemas, memorySchemas, plain } from '../testing.js';

const PETS = `openapi: 3.0.3
info:
  title: Pet Store
  version: 1.2.0
  description: Pets and their owners.
servers:
  - url: https://{host}/api/{version}/
    variables:
      host: { default: example.com }
      version: { default: v2 }
tags:
  - name: pets
    description: Everything about pets.
paths:
  /pets/{petId}:
    parameters:
      - name: petId
        in: path
        required: true
        schema: { type: integer, format: int64 }
      - name: X-Request-Id
        in: header
        schema: { type: string }
    get:
      tags: [pets]
      operationId: get_pet
      summary: Get a pet
      parameters:
        - name: X-Request-Id
          in: header
          required: true
          schema: { type: string, format: uuid }
        - name: fields
          in: query
          style: form
          explode: false
          schema: { type: array, items: { type: string, enum: [name, tag] } }
        - name: session
          in: cookie
          schema: { type: string }
      responses:
        '200':
          description: The pet.
          headers:
            ETag:
              required: true
              schema: { type: string }
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
        default:
          $ref: '#/components/responses/Error'
        4XX:
          description: Client error.
    put:
      tags: [pets]
      requestBody:
        $ref: '#/components/requestBodies/PetBody'
      responses:
        '204': { description: Updated. }
  /pets:
    post:
      operationId: createPet
      tags: [pets, admin]
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewPet' }
          multipart/form-data:
            schema:
              type: object
              required: [name]
              properties:
                name: { type: string }
                photo: { type: string, format: binary }
          application/x-www-form-urlencoded:
            schema:
              type: object
              properties:
                name: { type: string, minLength: 1, maxLength: 40 }
      responses:
        '201':
          description: Created.
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
  /health:
    get:
      responses:
        '200':
          description: OK
          content:
            text/plain:
              schema: { type: string }
components:
  requestBodies:
    PetBody:
      description: A pet to store.
      content:
        application/json:
          schema: { $ref: '#/components/schemas/Pet' }
  responses:
    Error:
      description: Unexpected error.
      content:
        application/json:
          schema: { $ref: 'common.yaml#/components/schemas/Problem' }
  schemas:
    Pet:
      description: A pet.
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - type: object
          required: [id]
          properties:
            id: { type: integer, format: int64, readOnly: true }
    NewPet:
      type: object
      required: [name]
      properties:
        name: { type: string, maxLength: 64 }
        tag: { type: string, nullable: true, default: dog }
        kind: { $ref: '#/components/schemas/Kind' }
        owner: { $ref: 'common.yaml#/components/schemas/Person' }
        labels:
          type: object
          additionalProperties: { type: string }
        legacy: { type: boolean, deprecated: true }
    Kind:
      type: string
      enum: [cat, dog, hamster-like]
    Level:
      type: integer
      enum: [1, 2, 3]
    Tree:
      type: object
      properties:
        value: { type: number, format: double, minimum: 0, exclusiveMinimum: true }
        children:
          type: array
          items: { $ref: '#/components/schemas/Tree' }
    Shape:
      oneOf:
        - $ref: '#/components/schemas/Circle'
        - $ref: '#/components/schemas/Square'
      discriminator:
        propertyName: shape
        mapping:
          circle: '#/components/schemas/Circle'
          square: Square
    Circle:
      type: object
      properties:
        shape: { type: string }
        radius: { type: number }
    Square:
      type: object
      properties:
        shape: { type: string }
        side: { type: number }
    Names:
      type: array
      items: { type: string }
    Dictionary:
      type: object
      additionalProperties: true
    Mixed:
      allOf:
        - $ref: '#/components/schemas/Names'
        - type: object
    Either:
      anyOf:
        - type: string
        - type: integer
`;

const COMMON = `openapi: 3.0.3
info: { title: Common, version: '1' }
paths: {}
components:
  schemas:
    Problem:
      type: object
      required: [message]
      properties:
        message: { type: string }
    Person:
      type: object
      properties:
        name: { type: string }
        friend: { $ref: '#/components/schemas/Person' }
`;

const NODES = `openapi: 3.1.0
info: { title: Nodes, version: '3' }
servers: [{ url: /v3 }]
paths:
  /nodes/{id}:
    get:
      operationId: getNode
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
        - { name: class, in: query, schema: { type: [string, 'null'] } }
        - { name: Class, in: header, schema: { const: fixed } }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Node' }
components:
  schemas:
    Node:
      type: object
      required: [id]
      properties:
        id: { type: string, examples: [n1] }
        parent:
          oneOf:
            - $ref: '#/components/schemas/Node'
            - type: 'null'
        kind: { const: node }
        meta: { $ref: '#/$defs/Meta' }
        weight: { type: [number, 'null'], exclusiveMaximum: 10 }
        tags: { type: [string, integer] }
$defs:
  Meta:
    type: object
    properties:
      created: { type: string, format: date-time }
`;

const LEGACY = `swagger: '2.0'
info: { title: Legacy API, version: '0.9' }
basePath: /api/v1/
consumes: [application/json]
produces: [application/json]
paths:
  /items/{id}/upload:
    post:
      tags: [files]
      operationId: uploadFile
      consumes: [multipart/form-data]
      parameters:
        - { name: id, in: path, required: true, type: integer, format: int64 }
        - { name: file, in: formData, type: file, required: true }
        - { name: note, in: formData, type: string }
      responses:
        '201':
          description: Stored.
          headers:
            Location: { type: string, description: Where it is. }
  /items:
    get:
      tags: [items]
      operationId: listItems
      produces: [application/json, text/csv]
      parameters:
        - { name: ids, in: query, type: array, items: { type: integer }, collectionFormat: multi }
        - { name: sort, in: query, type: array, items: { type: string }, collectionFormat: pipes }
        - { name: limit, in: query, type: integer, minimum: 1, maximum: 50, default: 10 }
        - $ref: '#/parameters/pageParam'
      responses:
        '200':
          description: Items.
          schema: { type: array, items: { $ref: '#/definitions/Item' } }
        '404':
          $ref: '#/responses/NotFound'
    post:
      tags: [items]
      operationId: createItem
      parameters:
        - { name: body, in: body, required: true, schema: { $ref: '#/definitions/Item' } }
      responses:
        '201': { description: Created., schema: { $ref: '#/definitions/Item' } }
parameters:
  pageParam: { name: page, in: query, type: integer }
responses:
  NotFound: { description: Not found. }
definitions:
  Item:
    type: object
    required: [name]
    properties:
      name: { type: string }
      price: { type: number, format: float, x-nullable: true }
      state: { type: string, enum: [open, closed] }
`;

let root: string;
let pets: SchemaFile;
let nodes: SchemaFile;
let legacy: SchemaFile;

beforeAll(async () => {
  root = memorySchemas({
    'pets/pets.yaml': PETS,
    'pets/common.yaml': COMMON,
    'nodes.yaml': NODES,
    'legacy.yaml': LEGACY,
    'notes/readme.json': '{ "not": "an api" }',
    'notes/config.yaml': 'port: 3000\n',
  });
  const files = await loadSchemas([root], { root });
  expect(files.map((f) => f.path)).toEqual(['legacy.yaml', 'nodes.yaml', 'pets/common.yaml', 'pets/pets.yaml']);
  [legacy, nodes, , pets] = files as [SchemaFile, SchemaFile, SchemaFile, SchemaFile];
});
afterAll(() => forgetSchemas(root));

const operation = (file: SchemaFile, name: string) =>
  file.services.flatMap((s) => s.operations).find((o) => o.name === name) as HttpOperation;
const type = (file: SchemaFile, name: string) => plain(file.types.find((t) => t.name === name));

describe('OpenAPI 3.0', () => {
  it('reads info and the base path from servers[0] with its variables', () => {
    expect(pets.format).toBe('openapi-3.0');
    expect(pets.packageName).toBe('pet-store');
    expect(pets.info).toEqual({ title: 'Pet Store', version: '1.2.0', description: 'Pets and their owners.', basePath: '/api/v2' });
    expect(pets.warnings).toEqual([]);
  });

  it('groups operations by first tag, untagged ones under the title', () => {
    expect(pets.services.map((s) => [s.name, s.localName, s.doc, s.operations.map((o) => o.name)])).toEqual([
      ['pets', 'Pets', 'Everything about pets.', ['get_pet', 'putPetsPetId', 'createPet']],
      ['Pet Store', 'PetStore', undefined, ['getHealth']],
    ]);
    expect(operation(pets, 'get_pet').localName).toBe('getPet');
    expect(operation(pets, 'get_pet').parent).toBe(pets.services[0]);
  });

  it('merges path-level and operation-level parameters, the operation winning', () => {
    expect(plain(operation(pets, 'get_pet').parameters)).toEqual([
      {
        kind: 'parameter',
        name: 'petId',
        localName: 'petId',
        in: 'path',
        required: true,
        type: { kind: 'scalar', scalar: 'int64', format: 'int64' },
        style: 'simple',
        explode: false,
        deprecated: false,
        source: { file: 'pets/pets.yaml', line: 17, pointer: '/paths/~1pets~1{petId}/parameters/0' },
      },
      {
        kind: 'parameter',
        name: 'X-Request-Id',
        localName: 'xRequestId',
        in: 'header',
        required: true,
        type: { kind: 'scalar', scalar: 'string', format: 'uuid' },
        style: 'simple',
        explode: false,
        deprecated: false,
        source: { file: 'pets/pets.yaml', line: 29, pointer: '/paths/~1pets~1{petId}/get/parameters/0' },
      },
      {
        kind: 'parameter',
        name: 'fields',
        localName: 'fields',
        in: 'query',
        required: false,
        type: {
          kind: 'array',
          items: {
            kind: 'union',
            mode: 'oneOf',
            variants: [
              { kind: 'literal', value: 'name' },
              { kind: 'literal', value: 'tag' },
            ],
          },
        },
        style: 'form',
        explode: false,
        deprecated: false,
        source: { file: 'pets/pets.yaml', line: 33, pointer: '/paths/~1pets~1{petId}/get/parameters/1' },
      },
      {
        kind: 'parameter',
        name: 'session',
        localName: 'session',
        in: 'cookie',
        required: false,
        type: { kind: 'scalar', scalar: 'string' },
        style: 'form',
        explode: true,
        deprecated: false,
        source: { file: 'pets/pets.yaml', line: 38, pointer: '/paths/~1pets~1{petId}/get/parameters/2' },
      },
    ]);
    expect(operation(pets, 'putPetsPetId').parameters.map((p) => [p.name, p.required])).toEqual([
      ['petId', true],
      ['X-Request-Id', false],
    ]);
  });

  it('keeps responses in order with default last, headers, ranges and $ref responses', () => {
    expect(plain(operation(pets, 'get_pet').responses)).toEqual([
      {
        status: 200,
        doc: 'The pet.',
        headers: [{ name: 'ETag', required: true, type: { kind: 'scalar', scalar: 'string' } }],
        contents: [{ mediaType: 'application/json', type: { kind: 'ref', target: { ref: 'pets/pets.yaml#/components/schemas/Pet' } } }],
      },
      { status: '4XX', doc: 'Client error.', headers: [], contents: [] },
      {
        status: 'default',
        doc: 'Unexpected error.',
        headers: [],
        contents: [
          { mediaType: 'application/json', type: { kind: 'ref', target: { ref: 'pets/common.yaml#/components/schemas/Problem' } } },
        ],
      },
    ]);
  });

  it('reads request bodies per media type, including $ref bodies, forms and multipart', () => {
    expect(plain(operation(pets, 'putPetsPetId').requestBody)).toEqual({
      required: false,
      doc: 'A pet to store.',
      contents: [{ mediaType: 'application/json', type: { kind: 'ref', target: { ref: 'pets/pets.yaml#/components/schemas/Pet' } } }],
    });
    expect(plain(operation(pets, 'createPet').requestBody)).toEqual({
      required: true,
      contents: [
        { mediaType: 'application/json', type: { kind: 'ref', target: { ref: 'pets/pets.yaml#/components/schemas/NewPet' } } },
        {
          mediaType: 'multipart/form-data',
          type: {
            kind: 'object',
            additionalProperties: true,
            properties: [
              { name: 'name', required: true, type: { kind: 'scalar', scalar: 'string' }, readOnly: false, writeOnly: false },
              {
                name: 'photo',
                required: false,
                type: { kind: 'scalar', scalar: 'string', format: 'binary' },
                readOnly: false,
                writeOnly: false,
              },
            ],
          },
        },
        {
          mediaType: 'application/x-www-form-urlencoded',
          type: {
            kind: 'object',
            additionalProperties: true,
            properties: [
              {
                name: 'name',
                required: false,
                type: { kind: 'scalar', scalar: 'string', constraints: { minLength: 1, maxLength: 40 } },
                readOnly: false,
                writeOnly: false,
              },
            ],
          },
        },
      ],
    });
  });

  it('declares named schemas in order: messages, enums and aliases', () => {
    expect(pets.types.map((t) => `${t.kind} ${t.localName}`)).toEqual([
      'message Pet',
      'message NewPet',
      'enum Kind',
      'enum Level',
      'message Tree',
      'alias Shape',
      'message Circle',
      'message Square',
      'alias Names',
      'alias Dictionary',
      'alias Mixed',
      'alias Either',
    ]);
  });

  it('merges allOf of objects into one message that extends the named part', () => {
    const pet = pets.types.find((t) => t.name === 'Pet');
    expect(pet?.kind === 'message' && pet.fields.map((f) => [f.name, f.presence, f.readOnly, f.parent === pet])).toEqual([
      ['name', 'required', false, true],
      ['tag', 'optional', false, true],
      ['kind', 'optional', false, true],
      ['owner', 'optional', false, true],
      ['labels', 'optional', false, true],
      ['legacy', 'optional', false, true],
      ['id', 'required', true, true],
    ]);
    expect(plain(pet)).toMatchObject({
      doc: 'A pet.',
      extends: [{ kind: 'ref', target: { ref: 'pets/pets.yaml#/components/schemas/NewPet' } }],
    });
  });

  it('maps nullable, defaults, deprecated, maps and cross-file references on fields', () => {
    const newPet = type(pets, 'NewPet') as { fields: unknown[] };
    expect(newPet.fields).toEqual([
      {
        kind: 'field',
        name: 'name',
        jsonName: 'name',
        localName: 'name',
        type: { kind: 'scalar', scalar: 'string', constraints: { maxLength: 64 } },
        presence: 'required',
        readOnly: false,
        writeOnly: false,
        deprecated: false,
        source: { file: 'pets/pets.yaml', line: 122, pointer: '/components/schemas/NewPet/properties/name' },
      },
      {
        kind: 'field',
        name: 'tag',
        jsonName: 'tag',
        localName: 'tag',
        type: { kind: 'scalar', scalar: 'string', nullable: true },
        presence: 'optional',
        readOnly: false,
        writeOnly: false,
        deprecated: false,
        default: 'dog',
        source: { file: 'pets/pets.yaml', line: 123, pointer: '/components/schemas/NewPet/properties/tag' },
      },
      {
        kind: 'field',
        name: 'kind',
        jsonName: 'kind',
        localName: 'kind',
        type: { kind: 'ref', target: { ref: 'pets/pets.yaml#/components/schemas/Kind' } },
        presence: 'optional',
        readOnly: false,
        writeOnly: false,
        deprecated: false,
        source: { file: 'pets/pets.yaml', line: 124, pointer: '/components/schemas/NewPet/properties/kind' },
      },
      {
        kind: 'field',
        name: 'owner',
        jsonName: 'owner',
        localName: 'owner',
        type: { kind: 'ref', target: { ref: 'pets/common.yaml#/components/schemas/Person' } },
        presence: 'optional',
        readOnly: false,
        writeOnly: false,
        deprecated: false,
        source: { file: 'pets/pets.yaml', line: 125, pointer: '/components/schemas/NewPet/properties/owner' },
      },
      {
        kind: 'field',
        name: 'labels',
        jsonName: 'labels',
        localName: 'labels',
        type: { kind: 'map', key: { kind: 'scalar', scalar: 'string' }, value: { kind: 'scalar', scalar: 'string' } },
        presence: 'optional',
        readOnly: false,
        writeOnly: false,
        deprecated: false,
        source: { file: 'pets/pets.yaml', line: 126, pointer: '/components/schemas/NewPet/properties/labels' },
      },
      {
        kind: 'field',
        name: 'legacy',
        jsonName: 'legacy',
        localName: 'legacy',
        type: { kind: 'scalar', scalar: 'bool' },
        presence: 'optional',
        readOnly: false,
        writeOnly: false,
        deprecated: true,
        source: { file: 'pets/pets.yaml', line: 129, pointer: '/components/schemas/NewPet/properties/legacy' },
      },
    ]);
  });

  it('turns named enums into enum types with safe member names', () => {
    expect(type(pets, 'Kind')).toMatchObject({
      kind: 'enum',
      valueType: 'string',
      values: [
        { name: 'cat', localName: 'Cat', value: 'cat', alias: false },
        { name: 'dog', localName: 'Dog', value: 'dog', alias: false },
        { name: 'hamster-like', localName: 'HamsterLike', value: 'hamster-like', alias: false },
      ],
    });
    expect(type(pets, 'Level')).toMatchObject({
      kind: 'enum',
      valueType: 'integer',
      values: [
        { name: '1', localName: 'Value_1', value: 1, alias: false },
        { name: '2', localName: 'Value_2', value: 2, alias: false },
        { name: '3', localName: 'Value_3', value: 3, alias: false },
      ],
    });
  });

  it('turns a recursive schema into a reference to itself', () => {
    const tree = pets.types.find((t) => t.name === 'Tree');
    const children = tree?.kind === 'message' ? tree.fields.find((f) => f.name === 'children') : undefined;
    expect(children?.type.kind === 'array' && children.type.items.kind === 'ref' && children.type.items.target).toBe(tree);
    expect(plain(tree)).toMatchObject({
      fields: [
        { name: 'value', type: { kind: 'scalar', scalar: 'double', format: 'double', constraints: { exclusiveMinimum: 0 } } },
        { name: 'children' },
      ],
    });
  });

  it('maps oneOf with a discriminator mapping, anyOf, arrays, dictionaries and non-object allOf', () => {
    expect(type(pets, 'Shape')).toMatchObject({
      kind: 'alias',
      type: {
        kind: 'union',
        mode: 'oneOf',
        variants: [
          { kind: 'ref', target: { ref: 'pets/pets.yaml#/components/schemas/Circle' } },
          { kind: 'ref', target: { ref: 'pets/pets.yaml#/components/schemas/Square' } },
        ],
        discriminator: {
          propertyName: 'shape',
          mapping: {
            circle: { kind: 'ref', target: { ref: 'pets/pets.yaml#/components/schemas/Circle' } },
            square: { kind: 'ref', target: { ref: 'pets/pets.yaml#/components/schemas/Square' } },
          },
        },
      },
    });
    expect(type(pets, 'Either')).toMatchObject({
      type: {
        kind: 'union',
        mode: 'anyOf',
        variants: [
          { kind: 'scalar', scalar: 'string' },
          { kind: 'scalar', scalar: 'integer' },
        ],
      },
    });
    expect(type(pets, 'Names')).toMatchObject({ type: { kind: 'array', items: { kind: 'scalar', scalar: 'string' } } });
    expect(type(pets, 'Dictionary')).toMatchObject({
      type: { kind: 'map', key: { kind: 'scalar', scalar: 'string' }, value: { kind: 'unknown' } },
    });
    expect(type(pets, 'Mixed')).toMatchObject({
      type: {
        kind: 'intersection',
        parts: [
          { kind: 'ref', target: { ref: 'pets/pets.yaml#/components/schemas/Names' } },
          { kind: 'map', key: { kind: 'scalar', scalar: 'string' }, value: { kind: 'unknown' } },
        ],
      },
    });
  });

  it('loads $ref targets in other files as dependencies, recursion included', () => {
    expect(pets.dependencies.map((d) => d.path)).toEqual(['pets/common.yaml']);
    const common = pets.dependencies[0]!;
    const person = common.types.find((t) => t.name === 'Person');
    const friend = person?.kind === 'message' ? person.fields.find((f) => f.name === 'friend') : undefined;
    expect(friend?.type.kind === 'ref' && friend.type.target).toBe(person);
    expect(person?.parent).toBe(common);
  });
});

describe('OpenAPI 3.1', () => {
  it('maps type arrays with null, const, $defs and oneOf-with-null', () => {
    expect(nodes.format).toBe('openapi-3.1');
    expect(nodes.info.basePath).toBe('/v3');
    expect(nodes.types.map((t) => `${t.kind} ${t.fullName}`)).toEqual(['message #/components/schemas/Node', 'message #/$defs/Meta']);
    expect((type(nodes, 'Node') as { fields: { name: string; type: unknown }[] }).fields.map((f) => [f.name, f.type])).toEqual([
      ['id', { kind: 'scalar', scalar: 'string' }],
      ['parent', { kind: 'ref', target: { ref: 'nodes.yaml#/components/schemas/Node' }, nullable: true }],
      ['kind', { kind: 'literal', value: 'node' }],
      ['meta', { kind: 'ref', target: { ref: 'nodes.yaml#/$defs/Meta' } }],
      ['weight', { kind: 'scalar', scalar: 'number', constraints: { exclusiveMaximum: 10 }, nullable: true }],
      [
        'tags',
        {
          kind: 'union',
          mode: 'anyOf',
          variants: [
            { kind: 'scalar', scalar: 'string' },
            { kind: 'scalar', scalar: 'integer' },
          ],
        },
      ],
    ]);
  });

  it('gives parameters unique, non-reserved local names', () => {
    expect(operation(nodes, 'getNode').parameters.map((p) => [p.name, p.localName, plain(p.type)])).toEqual([
      ['id', 'id', { kind: 'scalar', scalar: 'string' }],
      ['class', 'class$', { kind: 'scalar', scalar: 'string', nullable: true }],
      ['Class', 'class$2', { kind: 'literal', value: 'fixed' }],
    ]);
  });
});

describe('Swagger 2.0', () => {
  it('reads basePath and maps formData parameters to a multipart body', () => {
    expect(legacy.format).toBe('swagger-2.0');
    expect(legacy.info.basePath).toBe('/api/v1');
    const upload = operation(legacy, 'uploadFile');
    expect(upload.parameters.map((p) => p.name)).toEqual(['id']);
    expect(plain(upload.requestBody)).toEqual({
      required: true,
      contents: [
        {
          mediaType: 'multipart/form-data',
          type: {
            kind: 'object',
            additionalProperties: true,
            properties: [
              {
                name: 'file',
                required: true,
                type: { kind: 'scalar', scalar: 'string', format: 'binary' },
                readOnly: false,
                writeOnly: false,
              },
              { name: 'note', required: false, type: { kind: 'scalar', scalar: 'string' }, readOnly: false, writeOnly: false },
            ],
          },
        },
      ],
    });
    expect(plain(upload.responses)).toEqual([
      {
        status: 201,
        doc: 'Stored.',
        headers: [{ name: 'Location', required: false, type: { kind: 'scalar', scalar: 'string' }, doc: 'Where it is.' }],
        contents: [],
      },
    ]);
  });

  it('maps collectionFormat onto style/explode and resolves shared parameters', () => {
    expect(operation(legacy, 'listItems').parameters.map((p) => [p.name, p.style, p.explode, plain(p.type)])).toEqual([
      ['ids', 'form', true, { kind: 'array', items: { kind: 'scalar', scalar: 'integer' } }],
      ['sort', 'pipeDelimited', false, { kind: 'array', items: { kind: 'scalar', scalar: 'string' } }],
      ['limit', 'form', false, { kind: 'scalar', scalar: 'integer', constraints: { minimum: 1, maximum: 50 } }],
      ['page', 'form', false, { kind: 'scalar', scalar: 'integer' }],
    ]);
  });

  it('uses produces for response media types and the body parameter as request body', () => {
    const list = operation(legacy, 'listItems');
    expect(plain(list.responses)).toEqual([
      {
        status: 200,
        doc: 'Items.',
        headers: [],
        contents: [
          {
            mediaType: 'application/json',
            type: { kind: 'array', items: { kind: 'ref', target: { ref: 'legacy.yaml#/definitions/Item' } } },
          },
          { mediaType: 'text/csv', type: { kind: 'array', items: { kind: 'ref', target: { ref: 'legacy.yaml#/definitions/Item' } } } },
        ],
      },
      { status: 404, doc: 'Not found.', headers: [], contents: [] },
    ]);
    expect(plain(operation(legacy, 'createItem').requestBody)).toEqual({
      required: true,
      contents: [{ mediaType: 'application/json', type: { kind: 'ref', target: { ref: 'legacy.yaml#/definitions/Item' } } }],
    });
  });

  it('maps definitions with x-nullable and inline enums', () => {
    expect(
      (type(legacy, 'Item') as { fields: { name: string; presence: string; type: unknown }[] }).fields.map((f) => [
        f.name,
        f.presence,
        f.type,
      ]),
    ).toEqual([
      ['name', 'required', { kind: 'scalar', scalar: 'string' }],
      ['price', 'optional', { kind: 'scalar', scalar: 'float', format: 'float', nullable: true }],
      [
        'state',
        'optional',
        {
          kind: 'union',
          mode: 'oneOf',
          variants: [
            { kind: 'literal', value: 'open' },
            { kind: 'literal', value: 'closed' },
          ],
        },
      ],
    ]);
  });
});

describe('schema fragments in other files', () => {
  it("finds a JSON document's $ref to another file however its key is written", async () => {
    // The text is checked before the walk for such references is skipped.
    const api = (ref: string) =>
      '{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {}, ' +
      `"components": {"schemas": {"A": {"type": "object", "properties": {"b": {${ref}}}}}}}`;
    const dir = memorySchemas({
      'plain.json': api('"$ref"  :  "./b.json"'),
      'escaped.json': api('"\\u0024ref": "./b.json"'),
      'local.json': api('"$ref": "#/components/schemas/A"'),
      'b.json': '{"type": "string"}',
    });
    try {
      for (const name of ['plain.json', 'escaped.json']) {
        const [file] = await loadSchemas([`${dir}/${name}`], { root: dir });
        expect(file!.dependencies.map((d) => d.path)).toEqual(['b.json']);
      }
      const [local] = await loadSchemas([`${dir}/local.json`], { root: dir });
      expect(local!.dependencies).toEqual([]);
    } finally {
      forgetSchemas(dir);
    }
  });

  it('names whole-file and top-level fragment schemas after the file or key, recursion included', async () => {
    const dir = memorySchemas({
      'api.yaml': `openapi: 3.0.3
info: { title: Fragments, version: '1' }
paths:
  /users:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: array
                items: { $ref: './models/user.yaml' }
components:
  schemas:
    Role:
      type: string
      enum: [admin, member]
      x-enum-varnames: [ADMIN, MEMBER]
      x-enum-descriptions: [Can do anything., Can read.]
`,
      'models/user.yaml': `type: object
description: A user.
required: [name]
properties:
  name: { type: string }
  manager: { $ref: '#' }
  address: { $ref: './defs.yaml#/Address' }
  role: { $ref: '../api.yaml#/components/schemas/Role' }
`,
      'models/defs.yaml': 'Address:\n  type: object\n  properties:\n    city: { type: string }\n',
    });
    try {
      const [api] = await loadSchemas([`${dir}/api.yaml`], { root: dir });
      expect(plain(api!.services[0]!.operations[0])).toMatchObject({
        name: 'getUsers',
        responses: [
          {
            status: 200,
            contents: [
              { mediaType: 'application/json', type: { kind: 'array', items: { kind: 'ref', target: { ref: 'models/user.yaml#' } } } },
            ],
          },
        ],
      });
      const user = api!.dependencies[0]!;
      expect([user.path, user.types.map((t) => `${t.kind} ${t.localName}`), user.dependencies.map((d) => d.path)]).toEqual([
        'models/user.yaml',
        ['message User'],
        ['models/defs.yaml', 'api.yaml'],
      ]);
      expect((plain(user.types[0]) as { fields: { name: string; type: unknown }[] }).fields.map((f) => [f.name, f.type])).toEqual([
        ['name', { kind: 'scalar', scalar: 'string' }],
        ['manager', { kind: 'ref', target: { ref: 'models/user.yaml#' } }],
        ['address', { kind: 'ref', target: { ref: 'models/defs.yaml#/Address' } }],
        ['role', { kind: 'ref', target: { ref: 'api.yaml#/components/schemas/Role' } }],
      ]);
      // The cycle api.yaml → user.yaml → api.yaml goes back to the same file object.
      expect(user.dependencies[1]).toBe(api);
      expect(plain(api!.types[0])).toMatchObject({
        kind: 'enum',
        values: [
          { name: 'admin', localName: 'ADMIN', value: 'admin', alias: false, doc: 'Can do anything.' },
          { name: 'member', localName: 'MEMBER', value: 'member', alias: false, doc: 'Can read.' },
        ],
      });
    } finally {
      forgetSchemas(dir);
    }
  });
});

describe('inline schema shapes', () => {
  it('simplifies single allOf references, merges inline allOf of objects and keeps null in enums', async () => {
    const dir = memorySchemas({
      'a.yaml': `openapi: 3.0.3
info: { title: Shapes, version: '1' }
paths: {}
components:
  schemas:
    X:
      type: object
      required: [id]
      properties:
        id: { type: integer }
    Holder:
      type: object
      properties:
        a: { allOf: [{ $ref: '#/components/schemas/X' }], type: object, description: An X. }
        b:
          allOf:
            - $ref: '#/components/schemas/X'
            - properties: { extra: { type: boolean } }
              required: [extra]
        c: { type: string, enum: [on, null] }
        d: { allOf: [{ $ref: '#/components/schemas/X' }], nullable: true }
        e: { type: string, format: date-time, nullable: true }
    Closed:
      type: object
      additionalProperties: false
      properties:
        id: { type: integer }
    Typed:
      allOf:
        - $ref: '#/components/schemas/Closed'
        - type: object
          additionalProperties: { type: string }
`,
    });
    try {
      const [file] = await loadSchemas([dir], { root: dir });
      const holder = plain(file!.types[1]) as { fields: { name: string; doc?: string; type: unknown }[] };
      expect(holder.fields.map((f) => [f.name, f.type])).toEqual([
        ['a', { kind: 'ref', target: { ref: 'a.yaml#/components/schemas/X' } }],
        [
          'b',
          {
            kind: 'object',
            additionalProperties: true,
            properties: [
              { name: 'id', required: true, type: { kind: 'scalar', scalar: 'integer' }, readOnly: false, writeOnly: false },
              { name: 'extra', required: true, type: { kind: 'scalar', scalar: 'bool' }, readOnly: false, writeOnly: false },
            ],
          },
        ],
        [
          'c',
          {
            kind: 'union',
            mode: 'oneOf',
            variants: [
              { kind: 'literal', value: 'on' },
              { kind: 'literal', value: null },
            ],
          },
        ],
        ['d', { kind: 'ref', target: { ref: 'a.yaml#/components/schemas/X' }, nullable: true }],
        ['e', { kind: 'scalar', scalar: 'string', format: 'date-time', nullable: true }],
      ]);
      expect(holder.fields[0]!.doc).toBe('An X.');
      // Absent additionalProperties is JSON Schema's open default; only an explicit false closes.
      expect(file!.types.map((t) => [t.name, t.kind === 'message' ? plain(t.additionalProperties) : undefined])).toEqual([
        ['X', true],
        ['Holder', true],
        ['Closed', false],
        ['Typed', { kind: 'scalar', scalar: 'string' }],
      ]);
    } finally {
      forgetSchemas(dir);
    }
  });
});

describe('parameters and headers described by content', () => {
  it('reads the schema of the first media type, and parameters named like the input object get another local name', async () => {
    const dir = memorySchemas({
      'a.yaml': `openapi: 3.0.3
info: { title: Content, version: '1' }
paths:
  /search:
    post:
      operationId: search
      parameters:
        - name: filter
          in: query
          deprecated: true
          content:
            application/json:
              schema: { type: object, properties: { q: { type: string } } }
        - { name: body, in: query, schema: { type: string } }
        - { name: ctx, in: header, schema: { type: string } }
      requestBody:
        content:
          text/plain: {}
      responses:
        '200':
          description: ok
          headers:
            X-Rate:
              content:
                text/plain:
                  schema: { type: integer }
`,
    });
    try {
      const [file] = await loadSchemas([dir], { root: dir });
      const op = operation(file!, 'search');
      expect(op.parameters.map((p) => [p.name, p.localName, p.deprecated, plain(p.type)])).toEqual([
        [
          'filter',
          'filter',
          true,
          {
            kind: 'object',
            additionalProperties: true,
            properties: [{ name: 'q', required: false, type: { kind: 'scalar', scalar: 'string' }, readOnly: false, writeOnly: false }],
          },
        ],
        ['body', 'body2', false, { kind: 'scalar', scalar: 'string' }],
        ['ctx', 'ctx2', false, { kind: 'scalar', scalar: 'string' }],
      ]);
      expect(plain(op.requestBody)).toEqual({ required: false, contents: [{ mediaType: 'text/plain' }] });
      expect(plain(op.responses[0]!.headers)).toEqual([{ name: 'X-Rate', required: false, type: { kind: 'scalar', scalar: 'integer' } }]);
    } finally {
      forgetSchemas(dir);
    }
  });
});

describe('form encodings', () => {
  /** The `delimited` fields of each content of the one operation of an OpenAPI `version` document. */
  async function delimitedOf(version: string, content: string): Promise<[string, [string, string][] | undefined][]> {
    const dir = memorySchemas({
      'f.yaml':
        `openapi: ${version}\ninfo: { title: F, version: '1' }\npaths:\n  /f:\n    post:\n      requestBody:\n        content:\n` +
        `${content}      responses: { '204': { description: ok } }\n`,
    });
    try {
      const [file] = await loadSchemas([`${dir}/f.yaml`], { root: dir });
      const op = file!.services[0]!.operations[0] as HttpOperation;
      return op.requestBody!.contents.map((c) => [c.mediaType, c.delimited && [...c.delimited]]);
    } finally {
      forgetSchemas(dir);
    }
  }
  const FIELDS =
    `            schema: { type: object, properties: { a: { type: array, items: { type: string } }, ` +
    `b: { type: array, items: { type: string } }, c: { type: array, items: { type: string } } } }
            encoding:
              a: { explode: false }
              b: { style: pipeDelimited, explode: false }
              c: { contentType: text/plain }
`;

  it('url-encoded: explode false and delimited styles join an array in one field; the default repeats it', async () => {
    expect(await delimitedOf('3.0.3', `          application/x-www-form-urlencoded:\n${FIELDS}`)).toEqual([
      [
        'application/x-www-form-urlencoded',
        [
          ['a', ','],
          ['b', '|'],
        ],
      ],
    ]);
  });

  it('multipart: style and explode count from OpenAPI 3.1 on, as the specification says', async () => {
    expect(await delimitedOf('3.0.3', `          multipart/form-data:\n${FIELDS}`)).toEqual([['multipart/form-data', undefined]]);
    expect(await delimitedOf('3.1.0', `          multipart/form-data:\n${FIELDS}`)).toEqual([
      [
        'multipart/form-data',
        [
          ['a', ','],
          ['b', '|'],
        ],
      ],
    ]);
  });
});

describe('contentMediaType (OpenAPI 3.1)', () => {
  it('reads a string of non-text content without contentEncoding as binary, like format: binary', async () => {
    const dir = memorySchemas({
      'c.yaml': `openapi: 3.1.0
info: { title: C, version: '1' }
paths: {}
components:
  schemas:
    Upload:
      type: object
      properties:
        file: { type: string, contentMediaType: application/octet-stream }
        photo: { type: string, contentMediaType: 'image/png; q=1' }
        meta: { type: string, contentMediaType: application/json }
        vcard: { type: string, contentMediaType: application/vcard+json }
        page: { type: string, contentMediaType: text/html }
        encoded: { type: string, contentMediaType: image/png, contentEncoding: base64 }
        dated: { type: string, format: date, contentMediaType: image/png }
`,
    });
    try {
      const [file] = await loadSchemas([`${dir}/c.yaml`], { root: dir });
      const upload = plain(file!.types[0]) as { fields: { name: string; type: { format?: string } }[] };
      expect(upload.fields.map((f) => [f.name, f.type.format])).toEqual([
        ['file', 'binary'],
        ['photo', 'binary'],
        ['meta', undefined],
        ['vcard', undefined],
        ['page', undefined],
        ['encoded', undefined],
        ['dated', 'date'],
      ]);
    } finally {
      forgetSchemas(dir);
    }
  });
});

describe('operation names', () => {
  it("are unique in the file across tags, keep off the generated classes' members, and leave their …WithResponse twin free", async () => {
    const dir = memorySchemas({
      'n.yaml': `openapi: 3.0.3
info: { title: N, version: '1' }
paths:
  /a: { get: { operationId: get-item, tags: [a b], responses: { '204': { description: ok } } } }
  /b: { get: { operationId: getItem, tags: [a-b], responses: { '204': { description: ok } } } }
  /c: { get: { operationId: getItemWithResponse, tags: [a-b], responses: { '204': { description: ok } } } }
  /d: { get: { operationId: api, responses: { '204': { description: ok } } } }
  /e: { get: { operationId: constructor, responses: { '204': { description: ok } } } }
  /f: { get: { operationId: then, responses: { '204': { description: ok } } } }
`,
    });
    try {
      const [file] = await loadSchemas([dir], { root: dir });
      expect(file!.services.map((s) => [s.localName, s.operations.map((o) => o.localName)])).toEqual([
        ['AB', ['getItem']],
        ['AB2', ['getItem2', 'getItemWithResponse2']],
        ['N', ['api$', 'constructor$', 'then$']],
      ]);
    } finally {
      forgetSchemas(dir);
    }
  });
});

describe('parameters described by content', () => {
  it('carry their media type and no style, which does not apply to them', async () => {
    const dir = memorySchemas({
      'p.yaml': `openapi: 3.0.3
info: { title: P, version: '1' }
paths:
  /s:
    get:
      operationId: s
      parameters:
        - { name: where, in: query, content: { application/json: { schema: { type: object } } } }
        - { name: near, in: query, schema: { type: object, properties: { x: { type: number } } } }
      responses: { '204': { description: ok } }
`,
    });
    try {
      const [file] = await loadSchemas([dir], { root: dir });
      expect(operation(file!, 's').parameters.map((p) => [p.name, p.mediaType, p.style, p.explode])).toEqual([
        ['where', 'application/json', undefined, undefined],
        ['near', undefined, 'form', true],
      ]);
    } finally {
      forgetSchemas(dir);
    }
  });
});

describe('$ref to a file outside the root', () => {
  it('widens the root to the folder holding both, so that every path stays relative', async () => {
    const dir = memorySchemas({
      'api/v1/api.yaml': `openapi: 3.0.3
info: { title: X, version: '1' }
paths:
  /u:
    get:
      operationId: getU
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '../../shared/user.yaml#/User' } } } }
`,
      'shared/user.yaml': 'User:\n  type: object\n  properties:\n    address: { $ref: "address.json" }\n',
      'shared/address.json': '{ "type": "object", "properties": { "zip": { "type": "string" } } }',
    });
    try {
      const [api] = await loadSchemas([`${dir}/api/v1/api.yaml`], { root: `${dir}/api/v1` });
      const user = api!.dependencies[0]!;
      expect([api!.path, user.path, user.dependencies.map((d) => d.path)]).toEqual([
        'api/v1/api.yaml',
        'shared/user.yaml',
        ['shared/address.json'],
      ]);
      expect(user.types[0]!.source.file).toBe('shared/user.yaml');
    } finally {
      forgetSchemas(dir);
    }
  });
});

describe('warnings on named schemas', () => {
  it('name the keywords Loom ignores, as for inline schemas (a discriminator on a base object is modelled)', async () => {
    const dir = memorySchemas({
      'w.yaml': `openapi: 3.1.0
info: { title: W, version: '1' }
paths: {}
components:
  schemas:
    A:
      type: object
      properties: { x: { type: string } }
      not: { required: [x] }
      propertyNames: { pattern: '^[a-z]+$' }
      patternProperties: { '^y': { type: integer } }
      dependentRequired: { x: [y] }
      unevaluatedProperties: false
    E:
      type: string
      enum: [a, b]
      not: { const: a }
    Pet:
      type: object
      required: [petType]
      properties: { petType: { type: string } }
      discriminator:
        propertyName: petType
        mapping: { cat: '#/components/schemas/Cat', dog: Dog }
    Cat:
      allOf: [{ $ref: '#/components/schemas/Pet' }, { type: object, properties: { meows: { type: boolean } } }]
    Dog:
      allOf: [{ $ref: '#/components/schemas/Pet' }, { type: object, properties: { barks: { type: boolean } } }]
`,
    });
    try {
      const [file] = await loadSchemas([dir], { root: dir });
      expect(file!.warnings.map((w) => `${w.source.line} ${w.source.pointer}: ${w.message}`)).toEqual([
        "9 /components/schemas/A/not: keyword 'not' is ignored: generated types and validators do not enforce it",
        "11 /components/schemas/A/patternProperties: keyword 'patternProperties' is ignored: " +
          'generated types and validators do not enforce it',
        "12 /components/schemas/A/dependentRequired: keyword 'dependentRequired' is ignored: " +
          'generated types and validators do not enforce it',
        "13 /components/schemas/A/unevaluatedProperties: keyword 'unevaluatedProperties' is ignored: " +
          'generated types and validators do not enforce it',
        "10 /components/schemas/A/propertyNames: keyword 'propertyNames' is ignored: generated types and validators do not enforce it",
        "17 /components/schemas/E/not: keyword 'not' is ignored: generated types and validators do not enforce it",
      ]);
    } finally {
      forgetSchemas(dir);
    }
  });
});
