/**
 * @module A minimal keep-alive HTTP/1.1 client over one TCP socket, for benchmarks: requests go one
 * at a time, written as raw bytes, and responses are parsed by hand (status line, headers, a body
 * framed by `Content-Length` or chunked transfer-encoding). Load generators such as wrk and
 * autocannon work this way so that a latency figure measures the server, not a general-purpose
 * client (`fetch` costs several times what a small JSON answer costs to serve).
 *
 * Like them it keeps its own work per request small, since that work is timed too: a request can
 * be encoded ahead of the measurement ({@link HttpClient.prepare}, then {@link HttpClient.send}),
 * and a response's head is scanned only for what frames the body (the status, `Content-Length`,
 * `Transfer-Encoding`, `Connection`); its header map is built when first read.
 *
 * Deliberately small: no TLS, redirects, compression, pipelining or reconnection. A socket error,
 * the server closing the connection mid-response, or a response that is not valid HTTP/1.1 rejects
 * the pending request and closes the client for good.
 */

import { connect, type Socket } from 'node:net';

/** A complete response. Header names are lower-case; repeated headers are joined with `, `. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Buffer;
  /** The body decoded as UTF-8. */
  text(): string;
  /** The body parsed as JSON. */
  json(): unknown;
}

/** Options of {@link HttpClient.request}. */
export interface RequestOptions {
  /** Extra request headers; `Host` and `Content-Length` are written by the client. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The request body; sent with its byte length as `Content-Length`. */
  readonly body?: string | Uint8Array;
}

/** A request encoded once, to be sent by {@link HttpClient.send} (as often as wanted). */
export interface PreparedRequest {
  readonly method: string;
  readonly bytes: Buffer;
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
/** A head larger than this is refused rather than buffered without end. */
const MAX_HEAD_BYTES = 64 * 1024;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

class MalformedResponse extends Error {
  constructor(message: string) {
    super(`malformed HTTP response: ${message}`);
  }
}

/** A response; its header map is parsed from the head on first use. */
class Answer implements HttpResponse {
  private parsedHeaders: Map<string, string> | undefined;

  constructor(
    readonly status: number,
    private readonly head: string,
    readonly body: Buffer,
  ) {}

  get headers(): ReadonlyMap<string, string> {
    return (this.parsedHeaders ??= parseHeaderLines(this.head));
  }

  text(): string {
    return this.body.toString('utf8');
  }

  json(): unknown {
    return JSON.parse(this.text()) as unknown;
  }
}

/** The header lines after the status line, as a map; a malformed line throws. */
function parseHeaderLines(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  const lines = head.split('\r\n');
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    if (!TOKEN.test(name)) throw new MalformedResponse(`bad header line ${JSON.stringify(line)}`);
    const key = name.toLowerCase();
    const value = line.slice(colon + 1).trim();
    const before = headers.get(key);
    headers.set(key, before === undefined ? value : `${before}, ${value}`);
  }
  return headers;
}

/**
 * The value of header `name` (lower-case) in a head already lower-cased, repeated fields joined
 * with `, `; `undefined` when absent. Header names cannot contain CR or LF, so a line start
 * followed by `name:` is that header.
 */
function headerIn(lowerHead: string, name: string): string | undefined {
  const needle = `\r\n${name}:`;
  let value: string | undefined;
  for (let at = lowerHead.indexOf(needle); at >= 0; at = lowerHead.indexOf(needle, at + needle.length)) {
    const start = at + needle.length;
    const end = lowerHead.indexOf('\r\n', start);
    const field = lowerHead.slice(start, end < 0 ? undefined : end).trim();
    value = value === undefined ? field : `${value}, ${field}`;
  }
  return value;
}

type BodyFraming = { readonly kind: 'length'; remaining: number } | { readonly kind: 'chunked' } | { readonly kind: 'close' };

interface Pending {
  readonly method: string;
  readonly resolve: (response: HttpResponse) => void;
  readonly reject: (error: Error) => void;
}

/**
 * One keep-alive connection; {@link HttpClient.request} sends a request and resolves with the whole
 * response once its last byte arrived.
 *
 * @example
 * const client = await HttpClient.connect(port);
 * const res = await client.request('POST', '/api/v1/items', { headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' });
 * res.status; // 201
 * client.close();
 */
export class HttpClient {
  private buffered: Buffer = Buffer.alloc(0);
  private pending: Pending | undefined;
  private failure: Error | undefined;
  // The response being parsed.
  private status = 0;
  private head = '';
  private closes = false;
  private framing: BodyFraming | undefined;
  private bodyParts: Buffer[] = [];

  private constructor(
    private readonly socket: Socket,
    private readonly host: string,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('end', () => this.onEnd());
    socket.on('close', () => this.fail(new Error('connection closed')));
  }

  /** Opens the connection to `host:port` (default `127.0.0.1`). */
  static connect(port: number, host = '127.0.0.1'): Promise<HttpClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host);
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new HttpClient(socket, host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`));
      });
    });
  }

  /** Sends one request; only one may be outstanding at a time. */
  request(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse> {
    let prepared: PreparedRequest;
    try {
      prepared = this.prepare(method, path, options);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.send(prepared);
  }

  /**
   * Checks and encodes a request without sending it, so that a benchmark can keep the encoding out
   * of the time it measures. Throws for an invalid method, target or header.
   *
   * @example
   * const get = client.prepare('GET', '/api/v1/items/7');
   * const res = await client.send(get);
   */
  prepare(method: string, path: string, options: RequestOptions = {}): PreparedRequest {
    if (!TOKEN.test(method)) throw new Error(`invalid method: ${method}`);
    if (!/^[\x21-\x7e]+$/.test(path)) throw new Error(`invalid request target: ${path}`);
    let head = `${method} ${path} HTTP/1.1\r\nHost: ${this.host}\r\n`;
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (!TOKEN.test(name) || /[\r\n\0]/.test(value)) throw new Error(`invalid header: ${name}`);
      head += `${name}: ${value}\r\n`;
    }
    const body = options.body === undefined ? undefined : typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
    if (body !== undefined) head += `Content-Length: ${body.byteLength}\r\n`;
    head += '\r\n';
    const bytes = body === undefined ? Buffer.from(head, 'latin1') : Buffer.concat([Buffer.from(head, 'latin1'), body]);
    return { method, bytes };
  }

  /** Sends a prepared request; only one may be outstanding at a time. */
  send(request: PreparedRequest): Promise<HttpResponse> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending) return Promise.reject(new Error('HttpClient sends one request at a time'));
    return new Promise((resolve, reject) => {
      this.pending = { method: request.method, resolve, reject };
      this.socket.write(request.bytes);
    });
  }

  /** Closes the connection; later requests reject. */
  close(): void {
    this.fail(new Error('client closed'));
  }

  private onData(chunk: Buffer): void {
    if (this.failure) return;
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    try {
      this.parse();
    } catch (error) {
      this.fail(error as Error);
    }
  }

  /** Consumes as much of `buffered` as forms the current response. */
  private parse(): void {
    while (this.buffered.length > 0) {
      if (!this.pending) throw new MalformedResponse('data arrived with no request outstanding');
      if (this.framing === undefined) {
        if (!this.parseHead()) return;
        continue;
      }
      const framing = this.framing;
      if (framing.kind === 'close') {
        this.bodyParts.push(this.buffered);
        this.buffered = Buffer.alloc(0);
        return;
      }
      if (framing.kind === 'length') {
        const take = Math.min(framing.remaining, this.buffered.length);
        this.bodyParts.push(this.buffered.subarray(0, take));
        this.buffered = this.buffered.subarray(take);
        framing.remaining -= take;
        if (framing.remaining === 0) this.finish();
        else return;
        continue;
      }
      if (!this.parseChunk()) return;
    }
  }

  /**
   * Reads the status line and the headers that frame the body once the head is complete; false
   * while it is not. The other header lines are parsed only if the caller reads `headers`.
   */
  private parseHead(): boolean {
    const end = this.buffered.indexOf(HEAD_END);
    if (end < 0) {
      if (this.buffered.length > MAX_HEAD_BYTES) throw new MalformedResponse('header section too large');
      return false;
    }
    const head = this.buffered.toString('latin1', 0, end);
    this.buffered = this.buffered.subarray(end + HEAD_END.length);
    const lineEnd = head.indexOf('\r\n');
    const firstLine = lineEnd < 0 ? head : head.slice(0, lineEnd);
    const statusLine = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(firstLine);
    if (!statusLine) throw new MalformedResponse(`bad status line ${JSON.stringify(firstLine)}`);
    const status = Number(statusLine[1]);
    // Interim answers (100 Continue, 103 Early Hints) precede the real one.
    if (status >= 100 && status < 200 && status !== 101) return true;
    const lower = head.toLowerCase();
    this.status = status;
    this.head = head;
    this.closes = /(?:^|,)\s*close\s*(?:,|$)/.test(headerIn(lower, 'connection') ?? '');
    this.framing = this.framingOf(status, headerIn(lower, 'transfer-encoding'), headerIn(lower, 'content-length'));
    if (this.framing.kind === 'length' && this.framing.remaining === 0) this.finish();
    return true;
  }

  /** How the body is delimited (RFC 9112 §6.3). */
  private framingOf(status: number, encoding: string | undefined, length: string | undefined): BodyFraming {
    if (this.pending!.method === 'HEAD' || status === 204 || status === 304) return { kind: 'length', remaining: 0 };
    if (encoding !== undefined) {
      const codings = encoding.split(',').map((c) => c.trim());
      if (codings.at(-1) !== 'chunked') throw new MalformedResponse(`unsupported transfer-encoding ${encoding}`);
      if (length !== undefined) throw new MalformedResponse('both transfer-encoding and content-length');
      if (codings.length > 1) throw new MalformedResponse(`unsupported transfer-encoding ${encoding}`);
      return { kind: 'chunked' };
    }
    if (length === undefined) return { kind: 'close' };
    if (!/^\d{1,15}$/.test(length)) throw new MalformedResponse(`bad content-length ${JSON.stringify(length)}`);
    return { kind: 'length', remaining: Number(length) };
  }

  /**
   * Consumes one chunk (size line, data, CRLF) or, after the last chunk, the trailer section; false
   * while what is buffered is not yet a whole piece.
   */
  private parseChunk(): boolean {
    const lineEnd = this.buffered.indexOf(CRLF);
    if (lineEnd < 0) {
      if (this.buffered.length > MAX_HEAD_BYTES) throw new MalformedResponse('chunk size line too long');
      return false;
    }
    const sizeField = this.buffered.subarray(0, lineEnd).toString('latin1').split(';')[0]!.trim();
    if (!/^[0-9a-fA-F]{1,12}$/.test(sizeField)) throw new MalformedResponse(`bad chunk size ${JSON.stringify(sizeField)}`);
    const size = parseInt(sizeField, 16);
    const dataStart = lineEnd + CRLF.length;
    if (size === 0) {
      // The last chunk: trailers (ignored) end with an empty line.
      const rest = this.buffered.subarray(lineEnd);
      const trailersEnd = rest.indexOf(HEAD_END);
      if (trailersEnd < 0) return false;
      this.buffered = rest.subarray(trailersEnd + HEAD_END.length);
      this.finish();
      return true;
    }
    if (this.buffered.length < dataStart + size + CRLF.length) return false;
    if (!this.buffered.subarray(dataStart + size, dataStart + size + CRLF.length).equals(CRLF)) {
      throw new MalformedResponse('chunk data not followed by CRLF');
    }
    this.bodyParts.push(this.buffered.subarray(dataStart, dataStart + size));
    this.buffered = this.buffered.subarray(dataStart + size + CRLF.length);
    return true;
  }

  /** The server half-closed: the end of a body delimited by the close, otherwise an error. */
  private onEnd(): void {
    if (this.pending && this.framing?.kind === 'close') this.finish();
    this.fail(new Error(this.pending ? 'connection closed before the response was complete' : 'connection closed'));
  }

  private finish(): void {
    const pending = this.pending!;
    const body = this.bodyParts.length === 1 ? this.bodyParts[0]! : Buffer.concat(this.bodyParts);
    const response = new Answer(this.status, this.head, body);
    this.pending = undefined;
    this.framing = undefined;
    this.bodyParts = [];
    // A server that announces the close answers no further request on this socket.
    if (this.closes) this.fail(new Error('server closed the connection'));
    pending.resolve(response);
  }

  private fail(error: Error): void {
    if (!this.failure) {
      this.failure = error;
      this.socket.destroy();
    }
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(error);
  }
}
