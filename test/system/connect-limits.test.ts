/**
 * What the System service's Connect routes do with requests at the edges of the protocol, over a
 * real socket: the token is checked before the body is read; bodies are capped at 4 MiB (declared
 * or streamed), answered with `resource_exhausted`; a `Connect-Timeout-Ms` beyond Node's longest
 * timer means no deadline rather than an instant one; unknown JSON fields are skipped; verbs other
 * than POST on a method that exists are 405.
 */
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceStatus } from '../../generated/system/v1alpha1/system.types.js';
import { FailingHost } from './support/failing-host.js';
import { type RunningSystem, startSystem } from './support/system-server.js';

const MiB = 1024 * 1024;

let system: RunningSystem | undefined;
afterEach(async () => {
  await system?.close();
  system = undefined;
});

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * POSTs with node:http, writing `chunks` one by one (chunked transfer unless `content-length` is
 * given) and stopping as soon as the answer arrives; the request is never ended when `end` is false.
 */
function rawPost(
  baseUrl: string,
  method: string,
  headers: Record<string, string>,
  chunks: Iterable<string | Uint8Array>,
  end = true,
): Promise<Answer> {
  const url = new URL(`/v1alpha1.System/${method}`, baseUrl);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      answered = true;
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (chunk: string) => (body += chunk))
        .on('end', () => {
          resolve({ status: res.statusCode!, headers: res.headers, body });
          req.destroy();
        });
    });
    // Once answered, the server may close the connection on the rest of the upload: not an error here.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const iterator = chunks[Symbol.iterator]();
    const writeMore = (): void => {
      for (;;) {
        if (answered || req.destroyed) return;
        const next = iterator.next();
        if (next.done) {
          if (end) req.end();
          return;
        }
        if (!req.write(next.value)) {
          req.once('drain', writeMore);
          return;
        }
      }
    };
    writeMore();
  });
}

function* spaces(total: number, chunk = 64 * 1024): Iterable<string> {
  for (let sent = 0; sent < total; sent += chunk) yield ' '.repeat(Math.min(chunk, total - sent));
}

describe('the token is checked before the body is read', () => {
  it.each([
    ['garbage protobuf', 'application/proto', new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f])],
    ['garbage JSON', 'application/json', '{"name": nope'],
  ])('a call without the token and with %s is UNAUTHENTICATED', async (_label, contentType, body) => {
    system = await startSystem(new FailingHost(), { token: 's3cret' });
    const answer = await rawPost(system.baseUrl, 'StopService', { 'content-type': contentType }, [body]);
    expect([answer.status, JSON.parse(answer.body)]).toEqual([
      401,
      { code: 'unauthenticated', message: 'this service requires "authorization: Bearer <token>"' },
    ]);
    const wrong = await rawPost(system.baseUrl, 'StopService', { 'content-type': contentType, authorization: 'Bearer nope' }, [body]);
    expect([wrong.status, JSON.parse(wrong.body).code]).toEqual([401, 'unauthenticated']);
  });

  it('a call without the token that declares a huge body is UNAUTHENTICATED, and nothing of the body is awaited', async () => {
    system = await startSystem(new FailingHost(), { token: 's3cret' });
    const answer = await rawPost(
      system.baseUrl,
      'GetService',
      { 'content-type': 'application/json', 'content-length': String(64 * MiB) },
      ['{"name":'],
      false,
    );
    expect([answer.status, JSON.parse(answer.body).code]).toEqual([401, 'unauthenticated']);
  });
});

describe('request bodies are capped at 4 MiB', () => {
  it('refuses a declared Content-Length over the limit at once with RESOURCE_EXHAUSTED (429), without waiting for the body', async () => {
    system = await startSystem(new FailingHost());
    // Only the first bytes are ever sent: an answer proves the server did not wait for the rest.
    const answer = await rawPost(
      system.baseUrl,
      'GetService',
      { 'content-type': 'application/json', 'content-length': String(5 * MiB) },
      ['{"name":"db"}'],
      false,
    );
    expect(answer.status).toBe(429);
    expect(JSON.parse(answer.body)).toEqual({
      code: 'resource_exhausted',
      message: 'request body of 5242880 bytes is larger than the limit of 4194304 bytes',
    });
  });

  it('refuses a chunked body once it passes the limit, without reading it to the end', async () => {
    system = await startSystem(new FailingHost());
    // Valid JSON all along (a message and 5 MiB of spaces): only its size is wrong.
    const answer = await rawPost(system.baseUrl, 'StopService', { 'content-type': 'application/json' }, [
      '{"name":"db","force":true}',
      ...spaces(5 * MiB),
    ]);
    expect(answer.status).toBe(429);
    expect(JSON.parse(answer.body)).toEqual({
      code: 'resource_exhausted',
      message: 'request body is larger than the limit of 4194304 bytes',
    });
    expect((system.handler.host as FailingHost).snapshot().services.find((s) => s.name === 'db')!.status).toBe(ServiceStatus.RUNNING);
  });

  it('takes a body just under the limit', async () => {
    system = await startSystem(new FailingHost());
    const message = '{"name":"db"}';
    const padding = 4 * MiB - message.length - 16;
    const answer = await rawPost(
      system.baseUrl,
      'GetService',
      { 'content-type': 'application/json', 'content-length': String(message.length + padding) },
      [message, ...spaces(padding)],
    );
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { displayName: 'Database', startType: 'AUTOMATIC', status: 'RUNNING' }]);
  });
});

describe('Connect-Timeout-Ms', () => {
  it.each([['3000000000'], ['9999999999']])(
    "%s ms (beyond Node's longest timer) is no deadline: the call runs and answers",
    async (timeout) => {
      // The start takes 50 ms: long enough that a timer Node fired after 1 ms would answer 504 first.
      system = await startSystem(new FailingHost({ startDelayMs: 50, stopDelayMs: 50 }));
      const answer = await rawPost(system.baseUrl, 'StartService', { 'content-type': 'application/json', 'connect-timeout-ms': timeout }, [
        '{"name":"cache"}',
      ]);
      expect([answer.status, answer.body]).toEqual([200, '{}']);
      expect((system.handler.host as FailingHost).snapshot().services.find((s) => s.name === 'cache')!.status).toBe(ServiceStatus.RUNNING);
    },
  );

  it('still ends a call at a deadline a timer can hold, and refuses more than ten digits', async () => {
    system = await startSystem(new FailingHost());
    const expired = await rawPost(system.baseUrl, 'StartService', { 'content-type': 'application/json', 'connect-timeout-ms': '20' }, [
      '{"name":"hang"}',
    ]);
    expect([expired.status, JSON.parse(expired.body).code]).toEqual([504, 'deadline_exceeded']);
    const tooLong = await rawPost(
      system.baseUrl,
      'GetService',
      { 'content-type': 'application/json', 'connect-timeout-ms': '10000000000' },
      ['{"name":"db"}'],
    );
    expect([tooLong.status, JSON.parse(tooLong.body).code]).toEqual([400, 'invalid_argument']);
  });
});

describe('JSON requests', () => {
  it('skip fields the message does not have, as binary requests skip unknown field numbers', async () => {
    system = await startSystem(new FailingHost());
    const answer = await rawPost(system.baseUrl, 'GetService', { 'content-type': 'application/json' }, [
      '{"name":"db","colour":"red","nested":{"x":[1,2]}}',
    ]);
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { displayName: 'Database', startType: 'AUTOMATIC', status: 'RUNNING' }]);
  });
});

describe('verbs other than POST', () => {
  it.each([['OPTIONS'], ['GET'], ['PUT'], ['DELETE']])('%s on a method that exists is 405 with Allow: POST', async (verb) => {
    system = await startSystem(new FailingHost());
    const response = await fetch(`${system.baseUrl}/v1alpha1.System/GetService`, { method: verb });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('OPTIONS on a method that does not exist is still 404 unimplemented', async () => {
    system = await startSystem(new FailingHost());
    const response = await fetch(`${system.baseUrl}/v1alpha1.System/Reboot`, { method: 'OPTIONS' });
    expect([response.status, await response.json()]).toEqual([
      404,
      { code: 'unimplemented', message: 'v1alpha1.System/Reboot is not implemented' },
    ]);
  });
});

describe('request compression', () => {
  const gzip = (text: string | Uint8Array) => gzipSync(typeof text === 'string' ? Buffer.from(text) : text);

  it('reads a gzip body, JSON or binary, as connect-es and connect-go clients send it', async () => {
    system = await startSystem(new FailingHost());
    const json = await rawPost(system.baseUrl, 'GetService', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, [
      gzip('{"name":"db"}'),
    ]);
    expect([json.status, JSON.parse(json.body)]).toEqual([200, { displayName: 'Database', startType: 'AUTOMATIC', status: 'RUNNING' }]);
    // GetServiceRequest { name: "db" }
    const binary = await rawPost(system.baseUrl, 'GetService', { 'content-type': 'application/proto', 'content-encoding': 'GZIP' }, [
      gzip(Uint8Array.from([0x0a, 2, 0x64, 0x62])),
    ]);
    expect(binary.status).toBe(200);
  });

  it('refuses an encoding it cannot read with unimplemented, naming the ones it can', async () => {
    system = await startSystem(new FailingHost());
    const answer = await rawPost(system.baseUrl, 'GetService', { 'content-type': 'application/json', 'content-encoding': 'br' }, [
      '{"name":"db"}',
    ]);
    expect([answer.status, JSON.parse(answer.body)]).toEqual([
      501,
      { code: 'unimplemented', message: 'content-encoding br is not supported; supported: gzip, identity' },
    ]);
  });

  it('answers a body that is not gzip with invalid_argument, and one that inflates past the limit with resource_exhausted', async () => {
    system = await startSystem(new FailingHost());
    const broken = await rawPost(system.baseUrl, 'GetService', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, [
      '{"name":"db"}',
    ]);
    expect([broken.status, JSON.parse(broken.body).code]).toEqual([400, 'invalid_argument']);
    // 5 MiB of spaces compress to a few KiB; inflated they pass the 4 MiB limit.
    const bomb = gzip(`{"name":"db"${' '.repeat(5 * MiB)}}`);
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const answer = await rawPost(system.baseUrl, 'GetService', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, [bomb]);
    expect([answer.status, JSON.parse(answer.body)]).toEqual([
      429,
      { code: 'resource_exhausted', message: `request body inflates past the limit of ${4 * MiB} bytes` },
    ]);
  });
});
