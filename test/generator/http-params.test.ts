/**
 * How the HTTP emitters print parameters and results, on an inline OpenAPI document: exact lines
 * of the routes class (object query parameters, `content` parameters, constraints through options
 * or through generated validators), the input interface (`| undefined` on optional members),
 * inline result types, the validators' declarations, types with properties named like
 * `Object.prototype` members, and the OpenAPI document's `content` parameter.
 */
import { describe, expect, it } from 'vitest';
import { openapiDocEmitter } from '../../generator/emitters/openapi-doc/document.js';
import { serverEmitter } from '../../generator/emitters/server.js';
import { typesEmitter } from '../../generator/emitters/types/types.js';
import { validatorsEmitter } from '../../generator/emitters/validators/validators.js';
import { emitInline } from '../support/generate-inline.js';

const ZOO =
  `
openapi: 3.0.3
info: { title: Zoo, version: '1' }
paths:
  /animals:
    get:
      operationId: listAnimals
      parameters:
        - { name: filter, in: query, style: deepObject, schema: { type: object, ` +
  `properties: { kind: { type: string }, legs: { type: integer }, tags: { type: array, items: { type: string } } } } }
        - { name: near, in: query, schema: { type: object, required: [lat], properties: { lat: { type: number }, lng: { type: number } } } }
        - { name: box, in: query, explode: false, schema: { $ref: '#/components/schemas/Box' } }
        - { name: where, in: query, content: { application/json: { schema: { type: object, properties: { q: { type: string } } } } } }
        - { name: name, in: query, schema: { type: string, minLength: 1, maxLength: 20 } }
        - { name: code, in: query, schema: { type: string, pattern: '^[a-z]+$' } }
        - { name: email, in: query, schema: { type: string, format: email } }
        - { name: ip, in: query, schema: { type: string, format: ipv4 } }
        - { name: constructor, in: query, schema: { type: string } }
      responses:
        '2XX':
          description: ok
          content: { application/json: { schema: { type: object, properties: { total: { type: integer } } } } }
components:
  schemas:
    Box: { type: object, properties: { w: { type: number }, h: { type: number } } }
    Tally:
      type: object
      properties:
        valueOf: { type: integer }
        toString: { type: string }
        hasOwnProperty: { type: string, enum: [small, medium, large, extra-large, extra-extra-large, enormous, gigantic, colossal] }
        nested: { type: object, properties: { constructor: { type: string } } }
`;

let out: Map<string, string> | undefined;
async function files(): Promise<Map<string, string>> {
  return (out ??= await emitInline({ 'zoo.yaml': ZOO }, [typesEmitter, validatorsEmitter, serverEmitter, openapiDocEmitter], 'loom'));
}

describe('the routes class', () => {
  it("reads object query parameters with the runtime's object option, and checks them with their validators", async () => {
    const server = (await files()).get('zoo.server.ts')!;
    expect(server).toContain(
      `export class ZooRoutes {
  constructor(private readonly api: ZooApi) {}

  @GET
  @Path('/animals')
  @Produces('application/json')
  @Status(200)
  listAnimals(
    @QueryParam('filter', { required: false, object: { style: 'deepObject', fields: { kind: 'string', legs: 'integer', tags: 'json' } }, ` +
        `validate: validateListAnimalsFilterParam }) filter: {
      kind?: string;
      legs?: number;
      tags?: string[];
    } | undefined,
    @QueryParam('near', { required: false, object: { style: 'form', fields: { lat: 'number', lng: 'number' } }, ` +
        `validate: validateListAnimalsNearParam }) near: {
      lat: number;
      lng?: number;
    } | undefined,
    @QueryParam('box', { required: false, object: { style: 'form', explode: false, fields: { w: 'number', h: 'number' } }, ` +
        `validate: validateListAnimalsBoxParam }) box: Box | undefined,
    @QueryParam('where', { type: 'json', required: false, validate: validateListAnimalsWhereParam }) where: {
      q?: string;
    } | undefined,
    @QueryParam('name', { type: 'string', required: false, minLength: 1, maxLength: 20 }) name: string | undefined,
    @QueryParam('code', { type: 'string', required: false, validate: validateListAnimalsCodeParam }) code: string | undefined,
    @QueryParam('email', { type: 'string', required: false, format: 'email' }) email: string | undefined,
    @QueryParam('ip', { type: 'string', required: false, validate: validateListAnimalsIpParam }) ip: string | undefined,
    @QueryParam('constructor', { type: 'string', required: false }) constructor: string | undefined,
    @Context() ctx: Context,
  ): Promise<HandlerResult<{
    total?: number;
  }>> {
    return this.api.listAnimals({ filter, near, box, where, name, code, email, ip, constructor }, ctx);
  }
}
`,
    );
  });

  it('declares optional inputs as `| undefined`, and indents inline result types where they stand', async () => {
    const server = (await files()).get('zoo.server.ts')!;
    expect(server).toContain(`export interface ZooApi {
  /**
   * @generated from operation listAnimals (GET /animals)
   */
  listAnimals(input: ListAnimalsInput, ctx: Context): Promise<HandlerResult<{
    total?: number;
  }>>;
}

/** Input of {@link ZooApi.listAnimals}. */
export interface ListAnimalsInput {
  filter?: {
    kind?: string;
    legs?: number;
    tags?: string[];
  } | undefined;
  near?: {
    lat: number;
    lng?: number;
  } | undefined;
  box?: Box | undefined;
  where?: {
    q?: string;
  } | undefined;
  name?: string | undefined;
  code?: string | undefined;
  email?: string | undefined;
  ip?: string | undefined;
  constructor?: string | Object['constructor'] | undefined;
}
`);
    expect(server).toContain(" * Binds an implementation of ZooApi to HTTP routes through Loom's decorators.\n");
  });
});

describe('parameter validators', () => {
  it('are declared beside the type and body validators, typed by the parameter', async () => {
    const dts = (await files()).get('zoo.validators.ts')!;
    expect(dts).toMatch(/^export const validateBox: Validator<Box> = X\(v\d+\);$/m);
    expect(dts).toContain(`/**
 * Validates the JSON form of {@link Tally}.
 *
 * @generated from #/components/schemas/Tally
 */
export const validateTally: Validator<Tally> = `);
    expect(dts).toContain(`/** Validates the query parameter \`filter\` of \`listAnimals\` (GET /animals), after its text is converted. */
export const validateListAnimalsFilterParam: Validator<{
  kind?: string;
  legs?: number;
  tags?: string[];
}> = `);
    expect(dts).toContain('export const validateListAnimalsBoxParam: Validator<Box> = validateBox;\n');
    expect(dts).toMatch(/^export const validateListAnimalsCodeParam: Validator<string> = X\(v\d+\);$/m);
    expect(dts).not.toContain('validateListAnimalsNameParam');
  });

  it('check what the schema says, the pattern without the u flag', async () => {
    const schemas = (await files()).get('zoo.schemas.ts')!;
    expect(schemas).toContain(`    ListAnimalsCodeParam: {
      type: 'string',
      pattern: '^[a-z]+$',
    },`);
    expect(schemas).toContain('export const ListAnimalsCodeParamSchema = schemas.$defs.ListAnimalsCodeParam;\n');
    // A parameter that is a named type reuses that type's validator.
    expect((await files()).get('zoo.validators.ts')).toMatch(/^export const validateListAnimalsBoxParam: Validator<Box> = validateBox;$/m);
  });
});

describe('types', () => {
  it('widen optional properties named like Object.prototype members so that literals without them assign', async () => {
    expect((await files()).get('zoo.types.ts')).toContain(`export interface Tally {
  valueOf?: number | Object['valueOf'];
  toString?: string | Object['toString'];
  hasOwnProperty?:
    | 'small'
    | 'medium'
    | 'large'
    | 'extra-large'
    | 'extra-extra-large'
    | 'enormous'
    | 'gigantic'
    | 'colossal'
    | Object['hasOwnProperty'];
  nested?: {
    constructor?: string | Object['constructor'];
  };
}
`);
  });
});

describe('the OpenAPI document', () => {
  it("keeps a parameter's content, without style or explode", async () => {
    const doc = JSON.parse((await files()).get('zoo.openapi.json')!) as { paths: Record<string, { get: { parameters: unknown[] } }> };
    expect(doc.paths['/animals']!.get.parameters[3]).toEqual({
      name: 'where',
      in: 'query',
      required: false,
      content: { 'application/json': { schema: { type: 'object', properties: { q: { type: 'string' } } } } },
    });
    expect(doc.paths['/animals']!.get.parameters[0]).toMatchObject({ name: 'filter', style: 'deepObject' });
  });
});
