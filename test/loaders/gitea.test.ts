/**
 * @module
 * The Gitea API (Swagger 2.0, 467 operations) and the issues subset load without errors
 * or warnings, with the services, operations and types the emitters build on.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetSchemas, loadSchemas, memorySchemas, plain } from '../../generator/loaders/testing.js';
import type { HttpOperation, MessageType, SchemaFile } from '../../generator/model/model.js';

const REFERENCE = fileURLToPath(new URL('../fixtures/reference/', import.meta.url));

let root: string;
let full: SchemaFile;
let subset: SchemaFile;

beforeAll(async () => {
  root = memorySchemas({
    'gitea.json': await readFile(join(REFERENCE, 'gitea-swagger-v1.25.3.json'), 'utf8'),
    'issues.json': await readFile(join(REFERENCE, 'gitea-issues-swagger-subset.json'), 'utf8'),
  });
  [full, subset] = (await loadSchemas([join(root, 'gitea.json'), join(root, 'issues.json')], { root })) as [SchemaFile, SchemaFile];
});
afterAll(() => forgetSchemas(root));

const operations = (file: SchemaFile) => file.services.flatMap((s) => s.operations) as HttpOperation[];

describe('Gitea swagger', () => {
  it('loads all 467 operations into one service per tag, with no warnings', () => {
    expect(full.format).toBe('swagger-2.0');
    expect(full.info).toMatchObject({ title: 'Gitea API', version: '1.25.3', basePath: '/api/v1' });
    expect(full.warnings).toEqual([]);
    expect(operations(full)).toHaveLength(467);
    expect(full.services.map((s) => `${s.localName}:${s.operations.length}`)).toEqual([
      'Activitypub:2',
      'Admin:32',
      'Miscellaneous:13',
      'Notification:7',
      'Organization:66',
      'Package:8',
      'Issue:69',
      'Repository:191',
      'Settings:4',
      'User:75',
    ]);
  });

  it('declares every definition as a named type', () => {
    expect(full.types).toHaveLength(216);
    expect(full.types.filter((t) => t.kind === 'message').length).toBeGreaterThan(180);
  });

  it('gives every operation unique parameter local names and defined path parameters', () => {
    for (const op of operations(full)) {
      const locals = op.parameters.map((p) => p.localName);
      expect(new Set(locals).size, op.name).toBe(locals.length);
      const template = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(
        op.parameters
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort(),
        op.name,
      ).toEqual([...template].sort());
    }
  });

  it('maps multipart uploads to form bodies', () => {
    const upload = operations(full).find((o) => o.name === 'issueCreateIssueAttachment')!;
    expect(upload.requestBody?.contents.map((c) => c.mediaType)).toEqual(['multipart/form-data']);
    expect(plain(upload.requestBody?.contents[0]?.type)).toMatchObject({
      kind: 'object',
      properties: [{ name: 'attachment', required: true, type: { kind: 'scalar', scalar: 'string', format: 'binary' } }],
    });
  });
});

describe('Gitea issues subset', () => {
  it('loads the six issue operations in one service', () => {
    expect(subset.services.map((s) => [s.name, s.localName, s.operations.map((o) => o.name)])).toEqual([
      [
        'issue',
        'Issue',
        ['issueSearchIssues', 'issueListIssues', 'issueCreateIssue', 'issueGetIssue', 'issueEditIssue', 'issueEditIssueDeadline'],
      ],
    ]);
    expect(subset.warnings).toEqual([]);
  });

  it('reads issueGetIssue as the server contract expects', () => {
    const op = operations(subset).find((o) => o.name === 'issueGetIssue')!;
    expect([op.method, op.path, op.localName]).toEqual(['get', '/repos/{owner}/{repo}/issues/{index}', 'issueGetIssue']);
    expect(op.parameters.map((p) => [p.name, p.localName, p.in, p.required, plain(p.type)])).toEqual([
      ['owner', 'owner', 'path', true, { kind: 'scalar', scalar: 'string' }],
      ['repo', 'repo', 'path', true, { kind: 'scalar', scalar: 'string' }],
      ['index', 'index', 'path', true, { kind: 'scalar', scalar: 'int64', format: 'int64' }],
    ]);
    expect(op.responses.map((r) => [r.status, r.contents.map((c) => c.mediaType)])).toEqual([
      [200, ['application/json']],
      [404, []],
    ]);
    expect(plain(op.responses[0]!.contents[0]!.type)).toEqual({ kind: 'ref', target: { ref: 'issues.json#/definitions/Issue' } });
    expect(op.security?.map((r) => Object.keys(r.schemes))).toEqual([
      ['BasicAuth'],
      ['Token'],
      ['AccessToken'],
      ['AuthorizationHeaderToken'],
      ['SudoParam'],
      ['SudoHeader'],
      ['TOTPHeader'],
    ]);
  });

  it('reads the search filters with camelCase local names and inline enums', () => {
    const op = operations(subset).find((o) => o.name === 'issueSearchIssues')!;
    const byName = new Map(op.parameters.map((p) => [p.name, p]));
    expect(byName.get('priority_repo_id')?.localName).toBe('priorityRepoId');
    expect(byName.get('type')?.localName).toBe('type');
    expect(plain(byName.get('state')?.type)).toEqual({
      kind: 'union',
      mode: 'oneOf',
      variants: [
        { kind: 'literal', value: 'open' },
        { kind: 'literal', value: 'closed' },
        { kind: 'literal', value: 'all' },
      ],
    });
  });

  it('reads the request body of issueCreateIssue from the body parameter and its own consumes', () => {
    const op = operations(subset).find((o) => o.name === 'issueCreateIssue')!;
    expect(plain(op.requestBody)).toEqual({
      required: false,
      contents: [{ mediaType: 'application/json', type: { kind: 'ref', target: { ref: 'issues.json#/definitions/CreateIssueOption' } } }],
    });
    const option = subset.types.find((t) => t.name === 'CreateIssueOption') as MessageType;
    expect(option.fields.map((f) => [f.name, f.presence, plain(f.type)])).toEqual([
      ['assignee', 'optional', { kind: 'scalar', scalar: 'string' }],
      ['assignees', 'optional', { kind: 'array', items: { kind: 'scalar', scalar: 'string' } }],
      ['body', 'optional', { kind: 'scalar', scalar: 'string' }],
      ['closed', 'optional', { kind: 'scalar', scalar: 'bool' }],
      ['due_date', 'optional', { kind: 'scalar', scalar: 'string', format: 'date-time' }],
      ['labels', 'optional', { kind: 'array', items: { kind: 'scalar', scalar: 'int64', format: 'int64' } }],
      ['milestone', 'optional', { kind: 'scalar', scalar: 'int64', format: 'int64' }],
      ['ref', 'optional', { kind: 'scalar', scalar: 'string' }],
      ['title', 'required', { kind: 'scalar', scalar: 'string' }],
    ]);
  });
});
