/**
 * The HTTP halves of the server and client emitters on a small inline OpenAPI
 * document: exact generated lines.
 */
import { describe, expect, it } from 'vitest';
import { clientEmitter } from '../../generator/emitters/client.js';
import { serverEmitter } from '../../generator/emitters/server.js';
import { emitInline } from '../support/generate-inline.js';

const OPENAPI = `
openapi: 3.0.3
info: { title: Tracker, version: '1.0' }
servers: [{ url: /api/v1 }]
paths:
  /repos/{owner}/issues/{index}:
    get:
      operationId: issueGetIssue
      tags: [issue]
      summary: Get an issue
      parameters:
        - { name: owner, in: path, required: true, schema: { type: string } }
        - { name: index, in: path, required: true, schema: { type: integer, format: int64 } }
        - { name: fields, in: query, style: pipeDelimited, schema: { type: array, items: { type: string } } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 50 } }
        - { name: since, in: query, schema: { type: string, format: date-time } }
        - { name: sort, in: query, schema: { type: string, enum: [asc, desc] } }
        - { name: X-Request-Id, in: header, schema: { type: string, format: uuid } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Issue' } } } }
        '404': { description: missing }
  /login:
    post:
      operationId: login
      requestBody:
        content: { application/x-www-form-urlencoded: { schema: { type: object, properties: { user: { type: string } } } } }
      responses:
        '204': { description: logged in }
components:
  schemas:
    Issue:
      type: object
      required: [number]
      properties: { number: { type: integer, format: int64 } }
`;

async function generate() {
  return emitInline({ 'tracker.yaml': OPENAPI }, [serverEmitter, clientEmitter]);
}

describe('server emitter (HTTP)', () => {
  it('prints the handler interface and input interface', async () => {
    const server = (await generate()).get('tracker.server.ts')!;
    expect(server).toContain(`export interface IssueApi {
  /**
   * Get an issue
   *
   * @generated from operation issueGetIssue (GET /repos/{owner}/issues/{index})
   */
  issueGetIssue(input: IssueGetIssueInput, ctx: Context): Promise<HandlerResult<Issue>>;
}`);
    expect(server).toContain(`export interface IssueGetIssueInput {
  owner: string;
  index: number;
  fields?: string[] | undefined;
  limit?: number | undefined;
  since?: string | undefined;
  sort?: 'asc' | 'desc' | undefined;
  xRequestId?: string | undefined;
}`);
  });

  it('prints a decorated route with explicit parameter types and constraints', async () => {
    const server = (await generate()).get('tracker.server.ts')!;
    expect(server).toContain(`@Path('/api/v1')
export class IssueRoutes {
  constructor(private readonly api: IssueApi) {}

  @GET
  @Path('/repos/{owner}/issues/{index}')
  @Produces('application/json')
  @Status(200)
  issueGetIssue(
    @PathParam('owner', { type: 'string', required: true }) owner: string,
    @PathParam('index', { type: 'int64', required: true }) index: number,
    @QueryParam('fields', { type: 'string', required: false, array: { separator: '|' } }) fields: string[] | undefined,
    @QueryParam('limit', { type: 'integer', required: false, minimum: 1, maximum: 50 }) limit: number | undefined,
    @QueryParam('since', { type: 'date-time', required: false }) since: string | undefined,
    @QueryParam('sort', { type: 'string', required: false, enum: ['asc', 'desc'] }) sort: 'asc' | 'desc' | undefined,
    @HeaderParam('X-Request-Id', { type: 'string', required: false, format: 'uuid' }) xRequestId: string | undefined,
    @Context() ctx: Context,
  ): Promise<HandlerResult<Issue>> {
    return this.api.issueGetIssue({ owner, index, fields, limit, since, sort, xRequestId }, ctx);
  }
}`);
    // Longer than 100 columns, so the printer puts one name per line.
    expect(server).toContain(
      [
        'import {',
        ...[
          'BodyParam',
          'Consumes',
          'Context',
          'GET',
          'HeaderParam',
          'POST',
          'Path',
          'PathParam',
          'Produces',
          'QueryParam',
          'Status',
          'formBody',
        ].map((n) => `  ${n},`),
        "} from '../runtime/entries/rest.js';",
      ].join('\n'),
    );
  });

  it('binds form bodies through formBody (fields coerced from text, then the schema validator), and bodiless 204 responses', async () => {
    const server = (await generate()).get('tracker.server.ts')!;
    expect(server).toContain(`  @POST
  @Path('/login')
  @Consumes('application/x-www-form-urlencoded')
  @Status(204)
  login(
    @BodyParam(formBody({ user: 'string' }, { validate: validateLoginBody, required: false })) body: {
      user?: string;
    } | undefined,
    @Context() ctx: Context,
  ): Promise<HandlerResult<void>> {
    return this.api.login({ body }, ctx);
  }`);
  });
});

describe('client emitter (HTTP)', () => {
  it('prints one operation spec per operation, with non-default styles only', async () => {
    const client = (await generate()).get('tracker.client.ts')!;
    expect(client).toContain(`const issueGetIssueOperation: OperationSpec = {
  name: 'issueGetIssue',
  method: 'GET',
  path: '/api/v1/repos/{owner}/issues/{index}',
  params: [
    { name: 'owner', key: 'owner', in: 'path' },
    { name: 'index', key: 'index', in: 'path' },
    { name: 'fields', key: 'fields', in: 'query', style: 'pipeDelimited' },
    { name: 'limit', key: 'limit', in: 'query' },
    { name: 'since', key: 'since', in: 'query' },
    { name: 'sort', key: 'sort', in: 'query' },
    { name: 'X-Request-Id', key: 'xRequestId', in: 'header' },
  ],
  accept: 'application/json',
};`);
    expect(client).toContain(`const loginOperation: OperationSpec = {
  name: 'login',
  method: 'POST',
  path: '/api/v1/login',
  params: [],
  body: 'application/x-www-form-urlencoded',
};`);
  });

  it('prints a client class with a data method and a WithResponse twin per operation', async () => {
    const client = (await generate()).get('tracker.client.ts')!;
    expect(client).toContain(`  async issueGetIssue(input: IssueGetIssueInput, options?: RequestOptions): Promise<Issue> {
    return (await this.#http.send<Issue>(issueGetIssueOperation, input, options)).data;
  }

  /** Like {@link IssueClient.issueGetIssue}, resolving to \`{ data, response }\` for the status and headers. */
  issueGetIssueWithResponse(input: IssueGetIssueInput, options?: RequestOptions): Promise<ApiResponse<Issue>> {
    return this.#http.send<Issue>(issueGetIssueOperation, input, options);
  }`);
    // No required parameter or body: the input may be omitted.
    expect(client.split('\n')).toContain('  async login(input: LoginInput = {}, options?: RequestOptions): Promise<void> {');
    expect(client.split('\n')).toContain("import type { IssueGetIssueInput, LoginInput } from './tracker.server.js';");
  });
});
