import { describe, expect, it } from 'vitest';
import {
  enumType,
  httpOperation,
  httpService,
  message,
  param,
  ref,
  rpcService,
  run,
  schemaFile,
  str,
} from '../../../test/support/model-fixtures.js';
import { openapiDocEmitter } from './document.js';

describe('openapi-doc emitter', () => {
  it('describes an RPC service as its Connect routes', () => {
    const f = schemaFile('system/v1alpha1/system.proto', 'proto3');
    const status = enumType(f, 'ServiceStatus', ['UNKNOWN', 'RUNNING']);
    const req = message(f, 'GetServiceRequest', [{ name: 'name', type: str, doc: 'Service name' }]);
    const res = message(f, 'GetServiceResponse', [
      { name: 'display_name', type: str },
      { name: 'status', type: ref(status) },
    ]);
    rpcService(f, 'System', [['GetService', req, res, 'GetService queries a Windows service state']]);
    const text = run([f], [openapiDocEmitter]).get('system/v1alpha1/system.openapi.json')!;
    const doc = JSON.parse(text);
    expect(Object.keys(doc)).toEqual(['openapi', 'info', 'tags', 'paths', 'components', 'x-generated-by']);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc['x-generated-by']).toBe('loom 0.1.0 from system/v1alpha1/system.proto');
    const op = doc.paths['/v1alpha1.System/GetService'].post;
    expect(op.operationId).toBe('v1alpha1.System.GetService');
    expect(op.description).toBe('GetService queries a Windows service state');
    expect(op.requestBody.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/v1alpha1.GetServiceRequest' } },
      'application/proto': { schema: { type: 'string', format: 'binary' } },
    });
    expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/v1alpha1.GetServiceResponse' });
    expect(op.responses.default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/connect.error' });
    expect(Object.keys(doc.components.schemas)).toEqual([
      'v1alpha1.ServiceStatus',
      'v1alpha1.GetServiceRequest',
      'v1alpha1.GetServiceResponse',
      'connect.error',
    ]);
    expect(doc.components.schemas['v1alpha1.GetServiceResponse'].properties).toEqual({
      displayName: { type: 'string' },
      status: { $ref: '#/components/schemas/v1alpha1.ServiceStatus' },
    });
    expect(doc.components.schemas['connect.error'].required).toEqual(['code']);
    // 2-space indented, newline-terminated: stable bytes for `--check`.
    expect(text.startsWith('{\n  "openapi": "3.1.0",\n  "info": {\n    "title": "v1alpha1",')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('describes HTTP operations with parameters, bodies, responses and headers', () => {
    const f = schemaFile('issues/openapi.yaml', 'openapi-3.0', 'issues');
    const issue = message(f, 'Issue', [{ name: 'id', type: { kind: 'scalar', scalar: 'int64' }, presence: 'required' }]);
    const svc = httpService(f, 'issue');
    httpOperation(svc, {
      name: 'issueListIssues',
      method: 'get',
      path: '/repos/{owner}/{repo}/issues',
      summary: "List a repository's issues",
      parameters: [param('owner', 'path', str), param('page', 'query', { kind: 'scalar', scalar: 'integer' })],
      responses: [
        {
          status: 200,
          doc: 'IssueList',
          headers: [{ name: 'X-Total-Count', required: false, type: { kind: 'scalar', scalar: 'integer' } }],
          contents: [{ mediaType: 'application/json', type: { kind: 'array', items: ref(issue) } }],
        },
        { status: 404, headers: [], contents: [] },
      ],
    });
    const doc = JSON.parse(run([f], [openapiDocEmitter]).get('issues/openapi.openapi.json')!);
    expect(doc.servers).toEqual([{ url: '/api/v1' }]);
    expect(doc.paths['/repos/{owner}/{repo}/issues'].get).toEqual({
      tags: ['issue'],
      summary: "List a repository's issues",
      operationId: 'issueListIssues',
      parameters: [
        { name: 'owner', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'page', in: 'query', required: false, schema: { type: 'integer' } },
      ],
      responses: {
        '200': {
          description: 'IssueList',
          headers: { 'X-Total-Count': { schema: { type: 'integer' } } },
          content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Issue' } } } },
        },
        '404': { description: 'Status 404.' },
      },
    });
    expect(doc.components.schemas.Issue).toEqual({
      type: 'object',
      properties: { id: { type: 'integer', format: 'int64' } },
      required: ['id'],
    });
  });

  it('pulls types of other files into components so the document stands alone', () => {
    const common = schemaFile('common.yaml', 'openapi-3.1', 'common');
    const user = message(common, 'User', [{ name: 'login', type: str }]);
    const f = schemaFile('api.yaml', 'openapi-3.1', 'api');
    message(f, 'User', [{ name: 'owner', type: ref(user) }]);
    httpService(f, 'users');
    const doc = JSON.parse(run([common, f], [openapiDocEmitter]).get('api.openapi.json')!);
    expect(Object.keys(doc.components.schemas)).toEqual(['User', 'User_2']);
    expect(doc.components.schemas.User.properties.owner).toEqual({ $ref: '#/components/schemas/User_2' });
  });
});
