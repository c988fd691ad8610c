/** Request building (paths, query styles, headers, cookies, bodies) and response reading of generated fetch clients. */
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import type { OperationSpec } from './http-client.js';
import { HttpClient } from './http-client.js';

const listIssues: OperationSpec = {
  name: 'issueListIssues',
  method: 'GET',
  path: '/api/v1/repos/{owner}/{repo}/issues',
  params: [
    { name: 'owner', key: 'owner', in: 'path' },
    { name: 'repo', key: 'repo', in: 'path' },
    { name: 'labels', key: 'labels', in: 'query' },
    { name: 'milestones', key: 'milestones', in: 'query', explode: false },
    { name: 'ids', key: 'ids', in: 'query', style: 'pipeDelimited' },
    { name: 'filter', key: 'filter', in: 'query', style: 'deepObject' },
    { name: 'since', key: 'since', in: 'query' },
    { name: 'X-Request-Id', key: 'xRequestId', in: 'header' },
    { name: 'session', key: 'session', in: 'cookie' },
  ],
  accept: 'application/json',
};

function recorder(response: Response = Response.json([])) {
  const requests: Request[] = [];
  const fetchStub: typeof fetch = async (input) => {
    requests.push(input as Request);
    return response.clone();
  };
  return { requests, fetch: fetchStub };
}

describe('HttpClient.build', () => {
  it('encodes path parameters and serializes query arrays per style', async () => {
    const client = new HttpClient({ baseUrl: 'http://h/', headers: { authorization: 'token abc' } });
    const request = await client.build(listIssues, {
      owner: 'a b/c',
      repo: 'r',
      labels: ['bug', 'ui'],
      milestones: ['v1', 'v2'],
      ids: [1, 2],
      filter: { state: 'open', kind: 'pr' },
      since: new Date('2024-01-02T03:04:05Z'),
      xRequestId: 'req-1',
      session: 's=1',
      unused: 'ignored',
    });
    expect(request.method).toBe('GET');
    expect(request.url).toBe(
      'http://h/api/v1/repos/a%20b%2Fc/r/issues?labels=bug&labels=ui&milestones=v1%2Cv2&ids=1%7C2' +
        '&filter%5Bstate%5D=open&filter%5Bkind%5D=pr&since=2024-01-02T03%3A04%3A05.000Z',
    );
    expect(request.headers.get('authorization')).toBe('token abc');
    expect(request.headers.get('x-request-id')).toBe('req-1');
    expect(request.headers.get('cookie')).toBe('session=s%3D1');
    expect(request.headers.get('accept')).toBe('application/json');
  });

  it('leaves out absent optional parameters and refuses a missing path parameter', async () => {
    const client = new HttpClient({ baseUrl: 'http://h' });
    expect((await client.build(listIssues, { owner: 'o', repo: 'r' })).url).toBe('http://h/api/v1/repos/o/r/issues');
    await expect(client.build(listIssues, { owner: 'o' })).rejects.toThrow('issueListIssues: path parameter repo is required');
  });

  it('encodes JSON, form and multipart bodies', async () => {
    const client = new HttpClient({ baseUrl: 'http://h' });
    const json = await client.build(
      { name: 'c', method: 'POST', path: '/x', params: [], body: 'application/json' },
      { body: { title: 'T' } },
    );
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.text()).toBe('{"title":"T"}');

    const form = await client.build(
      { name: 'c', method: 'POST', path: '/x', params: [], body: 'application/x-www-form-urlencoded' },
      { body: { user: 'ann', roles: ['a', 'b'] } },
    );
    expect(form.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(await form.text()).toBe('user=ann&roles=a&roles=b');

    const multipart = await client.build(
      { name: 'c', method: 'POST', path: '/x', params: [], body: 'multipart/form-data' },
      { body: { name: 'a.txt', file: new Uint8Array([104, 105]) } },
    );
    expect(multipart.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const parts = await multipart.formData();
    expect(parts.get('name')).toBe('a.txt');
    expect(await (parts.get('file') as Blob).text()).toBe('hi');
  });

  it('sends form fields as OpenAPI serializes them: repeated arrays, JSON object parts, no null fields', async () => {
    const client = new HttpClient({ baseUrl: 'http://h' });
    const spec = (body: string) => ({ name: 'c', method: 'POST', path: '/x', params: [], body });
    const body = { n: 3, ok: false, tags: ['a', 'b'], owner: { name: 'Ann' }, none: null };
    const form = await client.build(spec('application/x-www-form-urlencoded'), { body });
    expect(await form.text()).toBe('n=3&ok=false&tags=a&tags=b&owner=%7B%22name%22%3A%22Ann%22%7D');

    const parts = await (await client.build(spec('multipart/form-data'), { body })).formData();
    expect([...parts.keys()]).toEqual(['n', 'ok', 'tags', 'tags', 'owner']);
    const owner = parts.get('owner') as Blob;
    expect(owner.type).toBe('application/json');
    expect(JSON.parse(await owner.text())).toEqual({ name: 'Ann' });

    await expect(client.build(spec('application/x-www-form-urlencoded'), { body: { file: new Blob(['x']) } })).rejects.toThrow(
      'file: a file cannot be sent as application/x-www-form-urlencoded',
    );
  });
});

describe('HttpClient.send', () => {
  it('resolves to the parsed body with the response', async () => {
    const stub = recorder(new Response('[{"number":1}]', { headers: { 'content-type': 'application/json', 'x-total-count': '1' } }));
    const client = new HttpClient({ baseUrl: 'http://h', fetch: stub.fetch });
    const { data, response } = await client.send<{ number: number }[]>(listIssues, { owner: 'o', repo: 'r' });
    expect(data).toEqual([{ number: 1 }]);
    expect(response.headers.get('x-total-count')).toBe('1');
  });

  it('rejects with ApiError carrying status and parsed body', async () => {
    const stub = recorder(new Response('{"message":"not found"}', { status: 404, headers: { 'content-type': 'application/json' } }));
    const client = new HttpClient({ baseUrl: 'http://h', fetch: stub.fetch });
    const error = await client.send(listIssues, { owner: 'o', repo: 'r' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, body: { message: 'not found' }, message: 'issueListIssues: HTTP 404: not found' });
  });

  it('reads text and binary bodies', async () => {
    const text = new HttpClient({
      baseUrl: 'http://h',
      fetch: recorder(new Response('plain', { headers: { 'content-type': 'text/plain' } })).fetch,
    });
    expect((await text.send(listIssues, { owner: 'o', repo: 'r' })).data).toBe('plain');
    const bytes = new HttpClient({
      baseUrl: 'http://h',
      fetch: recorder(new Response(new Uint8Array([1, 2]), { headers: { 'content-type': 'application/octet-stream' } })).fetch,
    });
    expect((await bytes.send(listIssues, { owner: 'o', repo: 'r' })).data).toEqual(new Uint8Array([1, 2]));
  });

  it('reads a binary operation as bytes whatever the Content-Type; its errors are parsed as usual', async () => {
    const rawFile: OperationSpec = {
      name: 'repoGetRawFile',
      method: 'GET',
      path: '/raw/{path}',
      params: [{ name: 'path', key: 'path', in: 'path' }],
      binary: true,
    };
    const text = new HttpClient({
      baseUrl: 'http://h',
      fetch: recorder(new Response('a,b\n', { headers: { 'content-type': 'text/plain' } })).fetch,
    });
    expect((await text.send(rawFile, { path: 'x.csv' })).data).toEqual(new TextEncoder().encode('a,b\n'));
    const missing = new HttpClient({
      baseUrl: 'http://h',
      fetch: recorder(Response.json({ message: 'not found' }, { status: 404 })).fetch,
    });
    await expect(missing.send(rawFile, { path: 'y' })).rejects.toMatchObject({ status: 404, body: { message: 'not found' } });
  });
});
