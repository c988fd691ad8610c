/**
 * The HTTP server under hostile clients, in process, with both services (the Issues API over an
 * in-memory SQLite store, the System service's Connect routes over the simulated host), driven
 * with raw sockets and keep-alive agents:
 *
 * - an answer given before a request body's end (413, Connect's 429, 401 to an anonymous upload)
 *   never costs the connection's next request, chunked or sized, REST or Connect;
 * - an anonymous write is refused before its body is sent;
 * - headers, idle bodies and trickled bodies are cut by their timeouts;
 * - the body budget answers 503 before reading, and admits again once bodies are done;
 * - a client that disconnects mid-body is logged as such, at info, never as a 500;
 * - during a drain, a request arriving on an idle keep-alive connection is answered, not reset.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig, type ServerConfig } from '../../runtime/server/config.js';
import { createLogger } from '../../runtime/server/logger.js';
import { type RunningServer, startServer } from '../../runtime/server/server.js';
import { SERVICE_FACTORIES } from '../../runtime/server/services/index.js';
import { ROOT_DIR } from '../support/server-harness.js';

const ADMIN = { name: 'root', password: 'root-password' };
const BASIC = `Basic ${Buffer.from(`${ADMIN.name}:${ADMIN.password}`).toString('base64')}`;
const CONNECT_PATH = '/v1alpha1.System/GetService';

function config(env: Record<string, string> = {}): ServerConfig {
  const request = parseConfig([], {
    PORT: '0',
    GRPC_PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: ':memory:',
    HOST_ADAPTER: 'simulated',
    LOG_FORMAT: 'json',
    LOOM_DEMO: '0',
    LOOM_ADMIN_USER: ADMIN.name,
    LOOM_ADMIN_PASSWORD: ADMIN.password,
    ...env,
  });
  if (request.kind !== 'run') throw new Error('expected run');
  return request.config;
}

type LogLine = Record<string, unknown>;
let running: RunningServer | undefined;
let lines: LogLine[] = [];

async function start(env: Record<string, string> = {}): Promise<RunningServer> {
  lines = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  running = await startServer({
    config: config(env),
    logger: createLogger({ level: 'info', format: 'json', destination }),
    factories: SERVICE_FACTORIES,
    rootDir: ROOT_DIR,
  });
  return running;
}

afterEach(async () => {
  await running?.shutdown();
  running = undefined;
});

interface Reply {
  readonly status?: number;
  readonly headers?: IncomingHttpHeaders;
  readonly body?: string;
  readonly error?: string;
}

interface SendOptions {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  /** Body parts, written one after the other; a number is a pause in milliseconds. */
  readonly parts?: readonly (string | Buffer | number)[];
  readonly agent?: Agent | false;
}

/** One request through Node's client (a keep-alive agent reuses connections, as Connect-ES and load balancers do). */
function send(port: number, path: string, { method = 'GET', headers = {}, parts = [], agent = false }: SendOptions = {}): Promise<Reply> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    void (async () => {
      for (const part of parts) {
        if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
        else if (!req.destroyed) req.write(part);
      }
      req.end();
    })();
  });
}

/** A raw socket and the bytes it has received. */
interface Raw {
  readonly socket: Socket;
  received(): string;
  /** Resolves once the server closed the connection. */
  readonly closed: Promise<void>;
}

async function open(port: number): Promise<Raw> {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, received: () => text, closed };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The complete responses in a raw stream of bytes (Content-Length framed, as the server answers). */
function responses(text: string): { status: number; head: string; body: string }[] {
  const out: { status: number; head: string; body: string }[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return out;
    const head = rest.slice(0, end);
    const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (rest.length < end + 4 + length) return out;
    out.push({ status: Number(head.split(' ')[1]), head, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
}

const connectJson = { 'content-type': 'application/json', 'connect-protocol-version': '1' };
const getService = JSON.stringify({ name: 'db' });

describe('answers before a request body ends', () => {
  it('a chunked Connect body over the limit: 429 with Connection: close, and the next request on the agent succeeds', async () => {
    const server = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      // No Content-Length: streamed as Connect-ES streams it, 5 MiB against the 4 MiB limit.
      const over = await send(server.port, CONNECT_PATH, { method: 'POST', headers: connectJson, parts: Array(20).fill(chunk), agent });
      expect(over.status).toBe(429);
      expect(over.headers!['connection']).toBe('close');
      expect(JSON.parse(over.body!)).toMatchObject({ code: 'resource_exhausted' });
      // Past the half second after which the connection used to be dropped under the next request.
      await new Promise((r) => setTimeout(r, 700));
      const next = await send(server.port, CONNECT_PATH, { method: 'POST', headers: connectJson, parts: [getService], agent });
      expect(next.status).toBe(200);
      const again = await send(server.port, CONNECT_PATH, { method: 'POST', headers: connectJson, parts: [getService], agent });
      expect(again.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('a chunked REST body over the limit: 413 with Connection: close, and the next request succeeds', async () => {
    const server = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const headers = { authorization: BASIC, 'content-type': 'application/json' };
      const chunk = `{"name":"big${' '.repeat(256 * 1024)}`;
      const over = await send(server.port, '/api/v1/user/repos', {
        method: 'POST',
        headers,
        parts: [chunk, ...Array(6).fill(' '.repeat(256 * 1024)), '"}'],
        agent,
      });
      expect(over.status).toBe(413);
      expect(over.headers!['connection']).toBe('close');
      await new Promise((r) => setTimeout(r, 700));
      const next = await send(server.port, '/api/v1/user', { headers: { authorization: BASIC }, agent });
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('a sized body over the limit is refused from its headers, REST and Connect, and the connection is closed cleanly', async () => {
    const server = await start();
    for (const [path, headers, limit] of [
      ['/api/v1/user/repos', { authorization: BASIC, 'content-type': 'application/json' }, 1024 * 1024],
      [CONNECT_PATH, connectJson, 4 * 1024 * 1024],
    ] as const) {
      const raw = await open(server.port);
      const head = Object.entries({ ...headers, host: 'x', 'content-length': String(limit + 1) })
        .map(([k, v]) => `${k}: ${v}`)
        .join('\r\n');
      raw.socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n`);
      raw.socket.write(' '.repeat(1000));
      await until(() => responses(raw.received()).length === 1);
      const [answer] = responses(raw.received());
      expect([413, 429]).toContain(answer!.status);
      expect(answer!.head).toMatch(/\r\nconnection: close/i);
      // The client may go on sending what it declared: the server reads it away, then closes.
      raw.socket.write(' '.repeat(100_000));
      await raw.closed;
      expect(responses(raw.received())).toHaveLength(1);
    }
  });

  it('an anonymous write is answered 401 before its body is sent, with Connection: close', async () => {
    const server = await start();
    const raw = await open(server.port);
    raw.socket.write('POST /api/v1/user/repos HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000000\r\n\r\n');
    await until(() => responses(raw.received()).length === 1);
    const [answer] = responses(raw.received());
    expect(answer!.status).toBe(401);
    expect(answer!.head).toMatch(/\r\nconnection: close/i);
    expect(JSON.parse(answer!.body)).toMatchObject({ message: 'token is required' });
    raw.socket.end();
    await raw.closed;
  });
});

describe('timeouts', () => {
  it('answers 408 to a body that stops arriving, and closes its connection', async () => {
    const server = await start({ LOOM_BODY_IDLE_TIMEOUT_MS: '300' });
    const raw = await open(server.port);
    raw.socket.write(`POST ${CONNECT_PATH} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"na`);
    await raw.closed;
    const [answer] = responses(raw.received());
    expect(answer!.status).toBe(408);
    expect(JSON.parse(answer!.body)).toMatchObject({ error: 'request_timeout' });
    expect(lines.find((line) => line['reason'] === 'request_timeout')).toMatchObject({ level: 40, status: 408, path: CONNECT_PATH });
  });

  it('cuts a body trickled byte by byte at the whole-request timeout', async () => {
    const server = await start({ LOOM_HEADERS_TIMEOUT_MS: '500', LOOM_REQUEST_TIMEOUT_MS: '1000' });
    const raw = await open(server.port);
    raw.socket.write(`POST ${CONNECT_PATH} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n`);
    const trickle = setInterval(() => raw.socket.write(' '), 100);
    const started = Date.now();
    try {
      await raw.closed;
    } finally {
      clearInterval(trickle);
    }
    // The bound plus Node's check interval (1 s), with room for a busy machine; the body would take 100 s.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('answers 408 to headers that never end (slow-loris)', async () => {
    const server = await start({ LOOM_HEADERS_TIMEOUT_MS: '500', LOOM_REQUEST_TIMEOUT_MS: '1000' });
    const raw = await open(server.port);
    raw.socket.write('GET /healthz HTTP/1.1\r\nhost: x\r\nx-slow: ');
    const trickle = setInterval(() => raw.socket.write('a'), 100);
    try {
      await raw.closed;
    } finally {
      clearInterval(trickle);
    }
    expect(raw.received()).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe('the body budget', () => {
  it('answers 503 before reading a body that would pass it, and admits again once bodies are done', async () => {
    const server = await start({ LOOM_BODY_BUDGET_BYTES: '65536' });
    const padded = (size: number) => getService + ' '.repeat(size - getService.length);
    const head = (size: number) =>
      `POST ${CONNECT_PATH} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${size}\r\n\r\n`;
    const first = await open(server.port);
    first.socket.write(head(40_000) + padded(40_000).slice(0, 10));
    await until(() => server.inFlight() === 1);
    const second = await open(server.port);
    second.socket.write(head(40_000));
    await until(() => responses(second.received()).length === 1);
    const [refused] = responses(second.received());
    expect(refused!.status).toBe(503);
    expect(refused!.head).toMatch(/\r\nretry-after: 1/i);
    expect(refused!.head).toMatch(/\r\nconnection: close/i);
    expect(JSON.parse(refused!.body)).toMatchObject({ error: 'unavailable', code: 'unavailable' });
    second.socket.end();
    // Small bodies still fit beside the held one.
    expect((await send(server.port, CONNECT_PATH, { method: 'POST', headers: connectJson, parts: [getService] })).status).toBe(200);
    first.socket.write(padded(40_000).slice(10));
    await until(() => responses(first.received()).length === 1);
    expect(responses(first.received())[0]!.status).toBe(200);
    await until(() => server.inFlight() === 0);
    const third = await send(server.port, CONNECT_PATH, { method: 'POST', headers: connectJson, parts: [padded(40_000)] });
    expect(third.status).toBe(200);
    expect(lines.find((line) => line['reason'] === 'unavailable')).toMatchObject({ level: 40, status: 503 });
    first.socket.end();
  });
});

describe('client aborts', () => {
  it('are logged at info as aborted requests, never as 500 errors, on REST and Connect', async () => {
    const server = await start();
    for (const [path, headers] of [
      ['/api/v1/user/repos', `authorization: ${BASIC}\r\ncontent-type: application/json`],
      [CONNECT_PATH, 'content-type: application/json'],
    ] as const) {
      const raw = await open(server.port);
      raw.socket.write(`POST ${path} HTTP/1.1\r\nhost: x\r\n${headers}\r\ncontent-length: 1000\r\n\r\n{"name":`);
      await until(() => server.inFlight() === 1);
      raw.socket.destroy();
      await until(() => lines.some((line) => line['path'] === path && line['msg'] !== undefined && line['aborted'] === true));
    }
    await until(() => server.inFlight() === 0);
    expect(lines.filter((line) => (line['level'] as number) >= 50)).toEqual([]);
    const aborted = lines.filter((line) => line['aborted'] === true);
    expect(aborted.map((line) => [line['level'], line['status'], line['path']])).toEqual([
      [30, 499, '/api/v1/user/repos'],
      [30, 499, CONNECT_PATH],
    ]);
  });
});

describe('draining', () => {
  it('answers, with Connection: close, a request that arrives on an idle keep-alive connection right after shutdown began', async () => {
    const server = await start();
    const connections = await Promise.all(Array.from({ length: 16 }, () => open(server.port)));
    for (const raw of connections) raw.socket.write('GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n');
    await until(() => connections.every((raw) => responses(raw.received()).length === 1));
    const stopping = server.shutdown();
    for (const raw of connections) raw.socket.write('GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n');
    await Promise.all(connections.map((raw) => raw.closed));
    for (const raw of connections) {
      const [first, second] = responses(raw.received());
      expect(first!.head).toMatch(/\r\nconnection: keep-alive/i);
      expect(second?.status).toBe(200);
      expect(second!.head).toMatch(/\r\nconnection: close/i);
    }
    expect(await stopping).toMatchObject({ abandoned: 0, failures: [] });
    running = undefined;
  });
});
