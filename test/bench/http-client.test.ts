/**
 * @module The benchmark's raw HTTP/1.1 client (`bench/http-client.ts`) against a real `node:http`
 * server: both body framings, several requests on one connection, error statuses, request bodies,
 * and the failures it must report instead of hanging.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../bench/http-client.js';

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Routes of the test server; every answer also says which socket served it. */
async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const socketId = `${req.socket.remotePort}`;
  const body = await readBody(req);
  res.setHeader('X-Socket', socketId);
  switch (req.url) {
    case '/length':
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '11' }).end('{"ok":true}');
      return;
    case '/chunked':
      // Written in pieces without a length: node:http sends them chunked.
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('héllo, ');
      await new Promise((resolve) => setTimeout(resolve, 5));
      res.write('chunked ');
      res.end('world');
      return;
    case '/missing':
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'not found' }));
      return;
    case '/empty':
      res.writeHead(204).end();
      return;
    case '/echo':
      res.writeHead(201, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          method: req.method,
          contentType: req.headers['content-type'],
          authorization: req.headers.authorization,
          body: JSON.parse(body) as unknown,
        }),
      );
      return;
    case '/close':
      res.writeHead(200, { Connection: 'close', 'Content-Length': '3' }).end('bye');
      return;
    default:
      res.writeHead(500).end();
  }
}

describe('HttpClient', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads a body framed by Content-Length', async () => {
    const client = await HttpClient.connect(port);
    const res = await client.request('GET', '/length');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.json()).toEqual({ ok: true });
    client.close();
  });

  it('reads a chunked body sent in several writes', async () => {
    const client = await HttpClient.connect(port);
    const res = await client.request('GET', '/chunked');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.text()).toBe('héllo, chunked world');
    client.close();
  });

  it('sends several requests one after another on one connection', async () => {
    const client = await HttpClient.connect(port);
    const sockets = new Set<string>();
    const texts: string[] = [];
    for (const path of ['/length', '/chunked', '/empty', '/length', '/chunked']) {
      const res = await client.request('GET', path);
      sockets.add(res.headers.get('x-socket')!);
      texts.push(res.text());
    }
    expect(sockets.size).toBe(1);
    expect(texts).toEqual(['{"ok":true}', 'héllo, chunked world', '', '{"ok":true}', 'héllo, chunked world']);
    client.close();
  });

  it('returns a 4xx with its body rather than throwing', async () => {
    const client = await HttpClient.connect(port);
    const res = await client.request('GET', '/missing');
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ message: 'not found' });
    expect((await client.request('GET', '/length')).status).toBe(200);
    client.close();
  });

  it('POSTs a JSON body with its headers', async () => {
    const client = await HttpClient.connect(port);
    const res = await client.request('POST', '/echo', {
      headers: { 'Content-Type': 'application/json', Authorization: 'token abc' },
      body: JSON.stringify({ title: 'ünïcode title', n: 1 }),
    });
    expect(res.status).toBe(201);
    expect(res.json()).toEqual({
      method: 'POST',
      contentType: 'application/json',
      authorization: 'token abc',
      body: { title: 'ünïcode title', n: 1 },
    });
    client.close();
  });

  it('sends a request prepared ahead as often as asked, and reads the headers of its answers', async () => {
    const client = await HttpClient.connect(port);
    const echo = client.prepare('POST', '/echo', { headers: { 'Content-Type': 'application/json' }, body: '{"n":2}' });
    for (let i = 0; i < 2; i++) {
      const res = await client.send(echo);
      expect(res.status).toBe(201);
      expect(res.json()).toEqual({ method: 'POST', contentType: 'application/json', body: { n: 2 } });
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('x-socket')).toMatch(/^\d+$/);
    }
    expect(() => client.prepare('GET', '/a b')).toThrow(/invalid request target/);
    client.close();
  });

  it('refuses a second request while one is outstanding', async () => {
    const client = await HttpClient.connect(port);
    const first = client.request('GET', '/chunked');
    await expect(client.request('GET', '/length')).rejects.toThrow(/one request at a time/);
    expect((await first).status).toBe(200);
    client.close();
  });

  it('rejects later requests once the server announced Connection: close', async () => {
    const client = await HttpClient.connect(port);
    const res = await client.request('GET', '/close');
    expect(res.text()).toBe('bye');
    await expect(client.request('GET', '/length')).rejects.toThrow(/closed/);
  });

  it('rejects header values that would split the request', async () => {
    const client = await HttpClient.connect(port);
    await expect(client.request('GET', '/length', { headers: { 'X-A': 'a\r\nX-B: b' } })).rejects.toThrow(/invalid header/);
    client.close();
  });
});

describe('HttpClient against a broken server', () => {
  /** A TCP server that answers every request with `reply` and then does what `after` says. */
  async function rawServer(reply: string, after: 'keep' | 'close'): Promise<{ port: number; close: () => Promise<void> }> {
    const server = createTcpServer((socket) => {
      socket.once('data', () => {
        socket.write(reply);
        if (after === 'close') socket.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as AddressInfo).port,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  }

  it('rejects a response that is not HTTP', async () => {
    const raw = await rawServer('SSH-2.0-OpenSSH\r\n\r\n', 'keep');
    const client = await HttpClient.connect(raw.port);
    await expect(client.request('GET', '/')).rejects.toThrow(/malformed HTTP response: bad status line/);
    await raw.close();
  });

  it('rejects a body cut short by the server closing', async () => {
    const raw = await rawServer('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly a part', 'close');
    const client = await HttpClient.connect(raw.port);
    await expect(client.request('GET', '/')).rejects.toThrow(/closed before the response was complete/);
    await raw.close();
  });

  it('rejects a malformed chunk size', async () => {
    const raw = await rawServer('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n', 'keep');
    const client = await HttpClient.connect(raw.port);
    await expect(client.request('GET', '/')).rejects.toThrow(/bad chunk size/);
    await raw.close();
  });

  it('reads a body delimited by the close when no length is given', async () => {
    const raw = await rawServer('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end', 'close');
    const client = await HttpClient.connect(raw.port);
    expect((await client.request('GET', '/')).text()).toBe('until the end');
    await raw.close();
  });
});
