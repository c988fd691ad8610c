/**
 * @module
 * Large bodies, over real HTTP: a stream body parameter (xp-forge's `Stream`) read at the method's
 * pace and counted against its limit, a Node stream through `loom/rest/node`, and multipart uploads
 * written to a configured folder with size limits (rest.vertx's upload folder). Node-only pieces
 * used without `loom/rest/node` are refused at registration, naming the import.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeRuntime } from '../../runtime/entries/rest/node.js';
import type { UploadedFile } from '../../runtime/rest/index.js';
import { BodyParam, createRestRouter, FormParam, Path, POST, RegistrationError } from '../../runtime/rest/index.js';
import { type Listening, listen, rawSend, sendBody } from '../support/rest-answers.js';

const MIB = 1024 * 1024;

@Path('/big')
class Big {
  @POST
  @Path('/web')
  async web(@BodyParam({ type: ReadableStream, maxBytes: 8 * MIB, required: true }) body: ReadableStream<Uint8Array>) {
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      hash.update(chunk);
    }
    return { size, sha256: hash.digest('hex') };
  }
  @POST
  @Path('/node')
  async node(@BodyParam({ type: Readable, maxBytes: 8 * MIB }) body: Readable | undefined) {
    if (!body) return { size: 0 };
    let size = 0;
    for await (const chunk of body) size += (chunk as Buffer).byteLength;
    return { size };
  }
}

@Path('/files')
class Files {
  static seen: { path: string; existed: boolean }[] = [];
  @POST
  async upload(@FormParam('title') title: string, @FormParam('file', { type: 'upload', required: true }) file: UploadedFile) {
    Files.seen.push({ path: file.path, existed: existsSync(file.path) });
    const content = await readFile(file.path, 'utf8');
    return { title, field: file.field, filename: file.filename, type: file.type, size: file.size, content };
  }
  @POST
  @Path('/many')
  many(@FormParam('file', { type: 'upload', array: true }) files: UploadedFile[]) {
    return { names: files.map((f) => f.filename) };
  }
}

/** A multipart body as a browser would send it. */
async function multipart(fields: Record<string, string | File | File[]>): Promise<{ body: Uint8Array; type: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  const res = new Response(form);
  return { body: new Uint8Array(await res.arrayBuffer()), type: res.headers.get('content-type')! };
}

async function settled(folder: string): Promise<string[]> {
  // The files are removed once the answer is produced, which the client may see first.
  for (let i = 0; i < 50; i++) {
    const left = await readdir(folder).catch(() => []);
    if (left.length === 0) return left;
    await new Promise((r) => setTimeout(r, 10));
  }
  return readdir(folder);
}

describe('stream bodies', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listen(
      createRestRouter({ node: nodeRuntime(), onError: () => {} })
        .register(new Big())
        .app(),
    );
  });
  afterAll(() => server.close());

  it('reads a 5 MiB upload as a Web stream past the router’s 1 MiB limit (its own maxBytes), chunked', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const chunks = Array.from({ length: 80 }, () => chunk);
    const expected = createHash('sha256').update(chunks.join('')).digest('hex');
    const r = await sendBody(server.port, 'POST', '/big/web', chunks, {
      declareLength: false,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(r).toEqual({ status: 200, body: JSON.stringify({ size: 80 * 64 * 1024, sha256: expected }) });
  });
  it('a stream past its limit fails where the method reads it: 413; a declared length over it is refused up front', async () => {
    const chunk = 'y'.repeat(MIB);
    const chunked = await sendBody(
      server.port,
      'POST',
      '/big/web',
      Array.from({ length: 9 }, () => chunk),
      {
        declareLength: false,
        headers: { 'content-type': 'application/octet-stream' },
      },
    );
    expect(chunked.status).toBe(413);
    // Declares 9 MiB, sends the first one: the answer comes before the rest is sent.
    const declared = await new Promise<number>((resolve, reject) => {
      const headers = { 'content-type': 'application/octet-stream', 'content-length': String(9 * MIB) };
      const req = request({ host: '127.0.0.1', port: server.port, method: 'POST', path: '/big/web', headers, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? undefined : reject(e)));
      req.write(chunk);
    });
    expect(declared).toBe(413);
  });
  it('a required stream body that is absent is a 400', async () => {
    const r = await rawSend(server.port, 'POST', '/big/web', '', { 'content-length': '0' });
    expect(r.status).toBe(400);
  });
  it("gives a Node stream for Node's Readable, through loom/rest/node", async () => {
    const r = await sendBody(server.port, 'POST', '/big/node', ['a'.repeat(3 * MIB)], {
      declareLength: true,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(r).toEqual({ status: 200, body: `{"size":${3 * MIB}}` });
  });
  it('a Node stream body without loom/rest/node is refused at registration, naming the import', () => {
    expect(() => createRestRouter().register(new Big())).toThrow(RegistrationError);
    expect(() => createRestRouter().register(new Big())).toThrow(
      "Big.node parameter 0: a Node stream body needs Node: import { nodeRuntime } from 'loom/rest/node' " +
        'and pass createRestRouter({ node: nodeRuntime() })',
    );
  });
});

describe('the upload folder', () => {
  let folder: string;
  let server: Listening;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'loom-uploads-test-'));
    const node = nodeRuntime({ uploads: { folder, maxFileBytes: 2 * MIB, maxFiles: 2, maxFieldsBytes: 1024 } });
    server = await listen(createRestRouter({ node }).register(new Files()).app());
  });
  afterAll(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });
  const post = async (path: string, fields: Record<string, string | File | File[]>) => {
    const { body, type } = await multipart(fields);
    return rawSend(server.port, 'POST', path, body, { 'content-type': type });
  };

  it('writes each file to the folder while it streams in, hands it over, and removes it after the answer', async () => {
    Files.seen = [];
    const r = await post('/files', { title: 'notes', file: new File(['hello, disk'], '../../etc/passwd', { type: 'text/plain' }) });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({
      title: 'notes',
      field: 'file',
      filename: '../../etc/passwd',
      type: 'text/plain',
      size: 11,
      content: 'hello, disk',
    });
    // Named by the folder, never by the client.
    expect(Files.seen[0]!.path.startsWith(folder)).toBe(true);
    expect(Files.seen[0]!.existed).toBe(true);
    expect(await settled(folder)).toEqual([]);
  });
  it('a file over maxFileBytes is a 413, and nothing of it stays on disk', async () => {
    const r = await post('/files', { title: 't', file: new File([new Uint8Array(3 * MIB)], 'big.bin') });
    expect([r.status, JSON.parse(r.text).message]).toEqual([413, 'Payload Too Large: file big.bin is larger than 2097152 bytes']);
    expect(await settled(folder)).toEqual([]);
  });
  it('more files than maxFiles, or text fields over maxFieldsBytes, are a 413', async () => {
    const three = [1, 2, 3].map((n) => new File([`f${n}`], `f${n}.txt`));
    expect((await post('/files/many', { file: three })).status).toBe(413);
    expect((await post('/files/many', { file: three.slice(0, 2) })).text).toBe('{"names":["f1.txt","f2.txt"]}');
    expect((await post('/files', { title: 'z'.repeat(2000), file: three[0]! })).status).toBe(413);
    expect(await settled(folder)).toEqual([]);
  });
  it('refuses what is not multipart (415) and a missing file (400)', async () => {
    expect((await rawSend(server.port, 'POST', '/files', 'title=x', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(
      415,
    );
    expect((await post('/files', { title: 'no file' })).status).toBe(400);
  });
  it('keeps the files when the folder says so', async () => {
    const kept = await mkdtemp(join(tmpdir(), 'loom-uploads-kept-'));
    const app = createRestRouter({ node: nodeRuntime({ uploads: { folder: kept, keep: true } }) })
      .register(new Files())
      .app();
    const { body, type } = await multipart({ title: 'k', file: new File(['kept'], 'k.txt') });
    const res = await app.request('/files', { method: 'POST', body: body as BodyInit, headers: { 'content-type': type } });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(await readdir(kept)).toHaveLength(1);
    await rm(kept, { recursive: true, force: true });
  });
  it('an upload field without loom/rest/node is refused at registration, naming the import', () => {
    expect(() => createRestRouter().register(new Files())).toThrow(
      "Files.upload parameter 1: a { type: 'upload' } form field (the upload folder) needs Node: " +
        "import { nodeRuntime } from 'loom/rest/node'",
    );
  });
});
