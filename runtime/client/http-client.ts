/**
 * @module
 * The engine behind generated fetch clients: builds the request of an
 * operation from its spec and the caller's input object (path template,
 * query, headers, cookies, JSON/form/multipart/raw body), sends it, and reads
 * the response (JSON, text or bytes) or throws `ApiError`.
 */
import { ApiError } from './api-error.js';
import type { ParamSpec } from './params.js';
import { appendQuery, headerValue, pathValue, scalarText } from './params.js';

/** Options of a generated client's constructor. */
export interface HttpClientOptions {
  /**
   * Where the server is: its origin, plus any prefix it is mounted under, but not the API's own
   * base path (OpenAPI `servers[0].url`, Swagger `basePath`), which generated operation paths
   * already start with: `https://gitea.example.com` for Gitea, whose paths are `/api/v1/repos/…`.
   */
  readonly baseUrl: string;
  /** Headers sent with every request (e.g. `authorization`); a function is called per request. */
  readonly headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>);
  /** A `fetch` to use instead of the global one (tests, retries, proxies). */
  readonly fetch?: typeof fetch;
  /**
   * Credentials by security scheme name (`{ BasicAuth: { username, password }, Token: '…' }`), set
   * once: each request carries those its operation asks for (the first of its requirements the
   * credentials satisfy), where its scheme says (a header, the query, a cookie), and no other.
   */
  readonly credentials?: Readonly<Record<string, Credential | undefined>>;
  /** The security schemes of the description, by name; generated clients pass their own. */
  readonly securitySchemes?: Readonly<Record<string, SecuritySchemeSpec>>;
}

/**
 * How a security scheme authenticates a request: an HTTP `Authorization` scheme (`basic`,
 * `bearer`, …), or an API key in a header, the query or a cookie.
 */
export type SecuritySchemeSpec =
  | { readonly type: 'http'; readonly scheme: string }
  | { readonly type: 'apiKey'; readonly in: 'header' | 'query' | 'cookie'; readonly name: string };

/**
 * A credential: a token or key (or a function giving one per request, for tokens that expire),
 * or a user name and password for `basic`.
 */
export type Credential = string | BasicCredential | (() => string | Promise<string>);

/** A user name and password, for an HTTP `basic` scheme. */
export interface BasicCredential {
  readonly username: string;
  readonly password: string;
}

/** Per-call options. */
export interface RequestOptions {
  readonly signal?: AbortSignal;
  /** Extra headers for this call. */
  readonly headers?: HeadersInit;
}

/**
 * An operation's input as a client sends it: `T` with the members `K` optional, because the
 * server fills in their schema defaults when they are left out (the handler sees them set).
 *
 * @example
 * const input: Defaulted<ListPetsInput, 'limit'> = {}; // the server uses the schema's `limit` default
 */
export type Defaulted<T, K extends keyof T> = Omit<T, K> & { [P in K]?: T[P] | undefined };

/** What `…WithResponse` methods resolve to: the typed body and the raw response (headers such as `X-Total-Count`, `Link`). */
export interface ApiResponse<T> {
  readonly data: T;
  readonly response: Response;
}

/** How an operation goes on the wire. Generated clients declare one constant per operation. */
export interface OperationSpec {
  /** `issueGetIssue`, for error messages. */
  readonly name: string;
  readonly method: string;
  /** Path template relative to `baseUrl`, the API's base path included: `/api/v1/repos/{owner}/{repo}/issues/{index}`. */
  readonly path: string;
  readonly params: readonly ParamSpec[];
  /** Media type of the request body, when the operation has one. */
  readonly body?: string;
  /**
   * Form bodies: the array fields sent as one field, their elements joined by the separator
   * (`{ tags: ',' }` sends `tags=a,b`); other arrays repeat the field once per element.
   */
  readonly delimited?: Readonly<Record<string, string>>;
  /** `Accept` header: the success response's media types. */
  readonly accept?: string;
  /**
   * The operation's security requirements: alternatives, each the names of the schemes it needs
   * together (`[['BasicAuth'], ['Token']]`); an empty one allows anonymous calls. Absent: none.
   */
  readonly security?: readonly (readonly string[])[];
  /**
   * The success response is binary (`format: binary`, an image, a file): its body is read as a
   * `Uint8Array` whatever Content-Type the server labels it with (a raw file may come as `text/plain`).
   */
  readonly binary?: boolean;
}

/** Sends operations; one per generated client instance. */
export class HttpClient {
  readonly #baseUrl: string;
  readonly #headers: HttpClientOptions['headers'];
  readonly #fetch: typeof fetch;
  readonly #credentials: HttpClientOptions['credentials'];
  readonly #schemes: Readonly<Record<string, SecuritySchemeSpec>>;

  constructor(options: HttpClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#headers = options.headers;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#credentials = options.credentials;
    this.#schemes = options.securitySchemes ?? {};
  }

  /** Sends `op` with `input`; resolves to the parsed body and the response, rejects with `ApiError` on non-2xx. */
  async send<T>(op: OperationSpec, input: object, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const request = await this.build(op, input, options);
    const response = await this.#fetch(request);
    // A binary operation's error answers are parsed as usual (JSON messages).
    const data = await readBody(response, op.method, op.binary === true && response.ok);
    if (!response.ok) throw new ApiError(response, data, op.name);
    return { data: data as T, response };
  }

  /**
   * Adds the credentials of the first requirement they satisfy (none when an anonymous one comes
   * first, or none is satisfied), each where its scheme says.
   */
  async #authenticate(
    requirements: readonly (readonly string[])[],
    headers: Headers,
    query: URLSearchParams,
    cookies: string[],
  ): Promise<void> {
    const given = this.#credentials ?? {};
    const chosen = requirements.find((names) => names.every((n) => given[n] !== undefined && this.#schemes[n] !== undefined));
    for (const name of chosen ?? []) {
      const scheme = this.#schemes[name]!;
      const credential = given[name]!;
      const value = typeof credential === 'function' ? await credential() : credential;
      if (scheme.type === 'http') {
        const kind = scheme.scheme.toLowerCase();
        const text = typeof value === 'string' ? value : kind === 'basic' ? base64(`${value.username}:${value.password}`) : value.password;
        headers.set('authorization', kind === 'basic' ? `Basic ${text}` : `${kind === 'bearer' ? 'Bearer' : scheme.scheme} ${text}`);
      } else {
        const text = typeof value === 'string' ? value : `${value.username}:${value.password}`;
        if (scheme.in === 'header') headers.set(scheme.name, text);
        else if (scheme.in === 'query') query.set(scheme.name, text);
        else cookies.push(`${scheme.name}=${encodeURIComponent(text)}`);
      }
    }
  }

  /** The `Request` for `op` and `input`, without sending it. */
  async build(op: OperationSpec, input: object, options: RequestOptions = {}): Promise<Request> {
    const values = input as Readonly<Record<string, unknown>>;
    let path = op.path;
    const query = new URLSearchParams();
    const headers = new Headers(typeof this.#headers === 'function' ? await this.#headers() : this.#headers);
    const cookies: string[] = [];
    for (const spec of op.params) {
      const given = values[spec.key];
      if (given === undefined || given === null) {
        if (spec.in === 'path') throw new TypeError(`${op.name}: path parameter ${spec.key} is required`);
        continue;
      }
      const value = spec.json ? JSON.stringify(given) : given;
      switch (spec.in) {
        case 'path':
          path = path.replace(`{${spec.name}}`, pathValue(spec, value));
          break;
        case 'query':
          appendQuery(query, spec, value);
          break;
        case 'header':
          headers.set(spec.name, headerValue(value));
          break;
        case 'cookie':
          cookies.push(`${spec.name}=${encodeURIComponent(headerValue(value))}`);
          break;
        default:
          throw new TypeError(`unknown parameter location ${String((spec as ParamSpec).in)}`);
      }
    }
    if (op.security) await this.#authenticate(op.security, headers, query, cookies);
    if (cookies.length > 0) headers.append('cookie', cookies.join('; '));
    if (op.accept && !headers.has('accept')) headers.set('accept', op.accept);
    if (options.headers) for (const [key, value] of new Headers(options.headers)) headers.set(key, value);
    const search = query.toString();
    const url = `${this.#baseUrl}${path}${search ? `?${search}` : ''}`;
    let body: BodyInit | undefined;
    if (op.body !== undefined && values.body !== undefined) {
      body = encodeBody(op.body, values.body, op.delimited);
      // FormData sets its own multipart boundary.
      if (!(body instanceof FormData)) headers.set('content-type', op.body);
    }
    return new Request(url, { method: op.method, headers, body, signal: options.signal });
  }
}

/** Base64 of UTF-8 text (`btoa` takes Latin-1 only). */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function encodeBody(mediaType: string, value: unknown, delimited: OperationSpec['delimited']): BodyInit {
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return JSON.stringify(value);
  if (mediaType === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams();
    for (const [key, item] of formEntries(value, delimited)) {
      if (item instanceof Blob || item instanceof Uint8Array)
        throw new TypeError(`${key}: a file cannot be sent as application/x-www-form-urlencoded`);
      form.append(key, scalarText(item));
    }
    return form;
  }
  if (mediaType.startsWith('multipart/')) {
    const form = new FormData();
    for (const [key, item] of formEntries(value, delimited)) {
      if (item instanceof Blob) form.append(key, item);
      else if (item instanceof Uint8Array) form.append(key, new Blob([item as Uint8Array<ArrayBuffer>]), key);
      // OpenAPI's default content type for an object property of a multipart body.
      else if (typeof item === 'object' && item !== null && !(item instanceof Date))
        form.append(key, new Blob([JSON.stringify(item)], { type: 'application/json' }), key);
      else form.append(key, scalarText(item));
    }
    return form;
  }
  if (
    typeof value === 'string' ||
    value instanceof Blob ||
    value instanceof ArrayBuffer ||
    value instanceof URLSearchParams ||
    value instanceof FormData
  )
    return value;
  if (value instanceof Uint8Array) return value as Uint8Array<ArrayBuffer>;
  return JSON.stringify(value);
}

/**
 * The fields of a form body as OpenAPI serializes them by default (`form`, `explode`): an array is
 * one field per element, a missing or `null` value no field at all (a form has no way to say null).
 */
function formEntries(value: unknown, delimited: OperationSpec['delimited']): [string, unknown][] {
  const entries: [string, unknown][] = [];
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const separator = delimited && Object.hasOwn(delimited, key) ? delimited[key] : undefined;
    // A delimited array is one field, even when empty (the server reads `tags=` as no elements).
    if (separator !== undefined && Array.isArray(v))
      entries.push([
        key,
        v
          .filter((item) => item !== undefined && item !== null)
          .map(scalarText)
          .join(separator),
      ]);
    else for (const item of Array.isArray(v) ? v : [v]) if (item !== undefined && item !== null) entries.push([key, item]);
  }
  return entries;
}

/**
 * The body as bytes when `binary` (whatever its Content-Type); otherwise JSON when the server says
 * so, text for `text/*`, bytes for the rest. `undefined` for responses without a body.
 */
async function readBody(response: Response, method: string, binary: boolean): Promise<unknown> {
  if (method === 'HEAD' || response.status === 204 || response.status === 205 || response.status === 304) return undefined;
  if (binary) return new Uint8Array(await response.arrayBuffer());
  const type = (response.headers.get('content-type') ?? '').toLowerCase();
  if (type.includes('json')) {
    const text = await response.text();
    if (text === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (type.startsWith('text/') || type === '') {
    const text = await response.text();
    return text === '' ? undefined : text;
  }
  return new Uint8Array(await response.arrayBuffer());
}
