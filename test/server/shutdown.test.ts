/**
 * SIGTERM in the middle of traffic: every request the server accepted gets its full
 * answer, a request still uploading its body when the signal arrives is finished, new
 * connections are refused, and the process exits 0.
 */
import { Agent, type ClientRequest, request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../support/server-harness.js';

interface Outcome {
  readonly id: string;
  readonly status?: number;
  readonly body?: string;
  readonly connection?: string;
  readonly error?: string;
}

function send(server: ServerProcess, agent: Agent, id: string, method: 'GET' | 'POST', path: string, body?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { 'X-Request-Id': id };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = httpRequest({ host: '127.0.0.1', port: server.httpPort, method, path, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ id, status: res.statusCode, body: text, connection: res.headers['connection'] }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ id, error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ id, error: error.code ?? error.message }));
    req.end(body);
  });
}

/** Opens a POST whose body arrives in two parts; the second part is sent by `finish()`. */
function slowUpload(server: ServerProcess, id: string): { finish(): void; outcome: Promise<Outcome> } {
  const body = JSON.stringify({ name: 'db' });
  let req!: ClientRequest;
  const outcome = new Promise<Outcome>((resolve) => {
    req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.httpPort,
        method: 'POST',
        path: '/v1alpha1.System/GetService',
        headers: { 'X-Request-Id': id, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ id, status: res.statusCode, body: text, connection: res.headers['connection'] }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ id, error: error.code ?? error.message }));
    req.flushHeaders();
    req.write(body.slice(0, 5));
  });
  return { outcome, finish: () => req.end(body.slice(5)) };
}

async function waitUntil(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('graceful shutdown', () => {
  it('loses no accepted request when SIGTERM arrives mid-traffic, and exits 0', async () => {
    const server = await startServerProcess();
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const outcomes: Outcome[] = [];
    let signalled = false;
    let counter = 0;

    // Eight clients in a loop over the Issues API, the Connect routes and health, each request with its own id.
    const targets: [method: 'GET' | 'POST', path: string, body?: string][] = [
      ['GET', '/api/v1/repos/issues/search?limit=5'],
      ['POST', '/v1alpha1.System/GetService', JSON.stringify({ name: 'web' })],
      ['GET', '/healthz'],
    ];
    const loops = Array.from({ length: 8 }, async (_, worker) => {
      for (;;) {
        const [method, path, body] = targets[counter % targets.length]!;
        const outcome = await send(server, agent, `w${worker}-${counter++}`, method, path, body);
        outcomes.push(outcome);
        // After the signal, keep going until the server refuses us: that is the end of its listening.
        if (signalled && outcome.error !== undefined) return;
      }
    });

    await waitUntil(() => outcomes.length >= 200);
    const upload = slowUpload(server, 'slow-upload');
    // One full round trip after the upload's headers went out: the server has seen the upload by now.
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);

    signalled = true;
    server.child.kill('SIGTERM');
    // New connections are refused once the server stopped listening.
    await waitUntil(async () => (await send(server, new Agent(), 'probe', 'GET', '/healthz')).error === 'ECONNREFUSED');
    upload.finish();

    const slow = await upload.outcome;
    await Promise.all(loops);
    const { code } = await server.exited;
    agent.destroy();

    expect(code).toBe(0);
    expect(slow.status).toBe(200);
    expect(JSON.parse(slow.body!)).toEqual({ displayName: 'Database', startType: 'AUTOMATIC', status: 'RUNNING' });
    expect(slow.connection).toBe('close');

    // The server's own access log says which requests it accepted and answered.
    const answered = new Set(server.logs.filter((record) => record.msg === 'request').map((record) => String(record['reqId'])));
    const received = outcomes.filter((outcome) => outcome.status !== undefined);
    const failed = outcomes.filter((outcome) => outcome.error !== undefined);
    expect(received.length).toBeGreaterThanOrEqual(200);
    for (const outcome of received) expect(outcome.status, outcome.id).toBe(200);
    // No request the server answered was lost on the way back…
    const receivedIds = new Set(received.map((outcome) => outcome.id));
    for (const id of answered) if (id.startsWith('w')) expect(receivedIds.has(id), `answered ${id} but the client never got it`).toBe(true);
    // …and every request the client saw fail never reached a handler (refused or closed before it was read).
    for (const outcome of failed) {
      expect(answered.has(outcome.id), `${outcome.id} failed with ${outcome.error} although the server answered it`).toBe(false);
      expect(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'socket hang up']).toContain(outcome.error);
    }
    const stopped = server.logs.find((record) => record.msg === 'stopped cleanly');
    expect(stopped).toMatchObject({ abandoned: 0, failures: [] });
    // At least the upload was still being received when the drain began.
    expect(stopped!['inFlightAtStart']).toBeGreaterThanOrEqual(1);
    await server.stop();
  });

  it('stops cleanly on SIGINT (Ctrl-C) too', async () => {
    const server = await startServerProcess();
    expect((await fetch(`${server.origin}/readyz`)).status).toBe(200);
    const { code } = await server.stop('SIGINT');
    expect(code).toBe(0);
    expect(server.logs.find((record) => record.msg === 'shutting down: no new connections, finishing in-flight requests')).toMatchObject({
      signal: 'SIGINT',
    });
    expect(server.logs.at(-1)).toMatchObject({ msg: 'stopped cleanly', abandoned: 0, failures: [] });
  });
});
