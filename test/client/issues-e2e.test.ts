/**
 * End to end for HTTP services: a small OpenAPI document generated into
 * `.tmp/`, its routes class served by the decorator runtime on a real port,
 * and called through the generated fetch client.
 */

import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../runtime/client/api-error.js';
import type { ApiResponse, HttpClientOptions } from '../../runtime/client/http-client.js';
import { createRestRouter, RestResponse } from '../../runtime/rest/index.js';
import { generateInline } from '../support/generate-inline.js';
import { typeCheck } from '../support/generate-system.js';

const OPENAPI = `
openapi: 3.0.3
info: { title: Tracker, version: '1.0' }
servers: [{ url: /api/v1 }]
tags: [{ name: issue }]
paths:
  /repos/{owner}/{repo}/issues:
    parameters:
      - { name: owner, in: path, required: true, schema: { type: string } }
      - { name: repo, in: path, required: true, schema: { type: string } }
    get:
      operationId: issueListIssues
      tags: [issue]
      parameters:
        - { name: state, in: query, schema: { type: string, enum: [open, closed, all] } }
        - { name: labels, in: query, style: form, explode: false, schema: { type: array, items: { type: string } } }
        - { name: page, in: query, schema: { type: integer, minimum: 1 } }
        - { name: X-Trace, in: header, schema: { type: string } }
      responses:
        '200':
          description: issues
          headers: { X-Total-Count: { schema: { type: integer } } }
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Issue' } } } }
    post:
      operationId: issueCreateIssue
      tags: [issue]
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/CreateIssueOption' } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Issue' } } } }
  /repos/{owner}/{repo}/issues/{index}:
    parameters:
      - { name: owner, in: path, required: true, schema: { type: string } }
      - { name: repo, in: path, required: true, schema: { type: string } }
      - { name: index, in: path, required: true, schema: { type: integer, format: int64 } }
    get:
      operationId: issueGetIssue
      tags: [issue]
      responses:
        '200': { description: found, content: { application/json: { schema: { $ref: '#/components/schemas/Issue' } } } }
        '404': { description: not found }
    delete:
      operationId: issueDeleteIssue
      tags: [issue]
      responses:
        '204': { description: deleted }
components:
  schemas:
    Issue:
      type: object
      required: [number, title, state]
      properties:
        number: { type: integer, format: int64 }
        title: { type: string }
        state: { type: string, enum: [open, closed] }
        labels: { type: array, items: { type: string } }
    CreateIssueOption:
      type: object
      required: [title]
      properties:
        title: { type: string, minLength: 1 }
        labels: { type: array, items: { type: string } }
`;

interface Issue {
  number: number;
  title: string;
  state: 'open' | 'closed';
  labels?: string[];
}
type Input = Record<string, unknown>;
interface IssueClient {
  issueListIssues(input: Input): Promise<Issue[]>;
  issueListIssuesWithResponse(input: Input): Promise<ApiResponse<Issue[]>>;
  issueCreateIssue(input: Input): Promise<Issue>;
  issueGetIssue(input: Input): Promise<Issue>;
  issueDeleteIssue(input: Input): Promise<void>;
  issueDeleteIssueWithResponse(input: Input): Promise<ApiResponse<void>>;
}

let cleanup: () => void;
let genDir: string;
let server: ServerType;
let client: IssueClient;
const calls: Input[] = [];

beforeAll(async () => {
  const generated = await generateInline('http-e2e', { 'tracker.yaml': OPENAPI });
  cleanup = generated.cleanup;
  genDir = generated.dir;
  const serverModule = await import(/* @vite-ignore */ join(generated.dir, 'tracker.server.ts'));
  const clientModule = await import(/* @vite-ignore */ join(generated.dir, 'tracker.client.ts'));
  const issues: Issue[] = [
    { number: 1, title: 'First', state: 'open', labels: ['bug'] },
    { number: 2, title: 'Second', state: 'closed' },
  ];
  const api = {
    async issueListIssues(input: Input) {
      calls.push(input);
      return RestResponse.ok(issues).header('X-Total-Count', String(issues.length));
    },
    async issueCreateIssue(input: Input & { body: { title: string; labels?: string[] } }) {
      calls.push(input);
      const issue: Issue = { number: issues.length + 1, title: input.body.title, state: 'open', labels: input.body.labels };
      issues.push(issue);
      return issue;
    },
    async issueGetIssue(input: Input & { index: number }) {
      calls.push(input);
      const found = issues.find((i) => i.number === input.index);
      return found ?? RestResponse.notFound(`issue ${input.index} not found`);
    },
    async issueDeleteIssue(input: Input) {
      calls.push(input);
    },
  };
  const router = createRestRouter().register(new serverModule.IssueRoutes(api));
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: router.app().fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const options: HttpClientOptions = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  client = new clientModule.IssueClient(options) as IssueClient;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  cleanup?.();
});

describe('generated fetch client against generated routes', () => {
  it('generates code that type-checks under the repository settings', async () => {
    expect(await typeCheck(genDir)).toBe('');
  });

  it('sends path, query (arrays per style) and header parameters, and reads response headers', async () => {
    const { data, response } = await client.issueListIssuesWithResponse({
      owner: 'loom team',
      repo: 'core',
      state: 'open',
      labels: ['bug', 'ui'],
      page: 2,
      xTrace: 't-1',
    });
    expect(data.map((i) => i.title)).toEqual(['First', 'Second']);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('2');
    // Path parameters are percent-encoded on the way out and decoded by the routes class.
    expect(calls.at(-1)).toMatchObject({ owner: 'loom team', repo: 'core', state: 'open', labels: ['bug', 'ui'], page: 2, xTrace: 't-1' });
  });

  it('posts JSON bodies and returns the typed 201 body', async () => {
    const created = await client.issueCreateIssue({ owner: 'o', repo: 'r', body: { title: 'Third', labels: ['x'] } });
    expect(created).toEqual({ number: 3, title: 'Third', state: 'open', labels: ['x'] });
  });

  it('converts int64 path parameters and rejects with ApiError on 404', async () => {
    expect(await client.issueGetIssue({ owner: 'o', repo: 'r', index: 1 })).toMatchObject({ number: 1, title: 'First' });
    expect(calls.at(-1)).toMatchObject({ index: 1 });
    const error = await client.issueGetIssue({ owner: 'o', repo: 'r', index: 99 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
  });

  it('rejects a body that fails the generated validator with 400', async () => {
    const error = await client.issueCreateIssue({ owner: 'o', repo: 'r', body: { title: '' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
  });

  it('rejects query values outside the declared enum with 400', async () => {
    const error = await client.issueListIssues({ owner: 'o', repo: 'r', state: 'sideways' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
  });

  it('resolves 204 responses to undefined', async () => {
    const { data, response } = await client.issueDeleteIssueWithResponse({ owner: 'o', repo: 'r', index: 1 });
    expect(response.status).toBe(204);
    expect(data).toBeUndefined();
  });
});
