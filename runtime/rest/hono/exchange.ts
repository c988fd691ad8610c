/**
 * @module
 * The per-request state of one route call: the Hono context plus lazily read parts of the request.
 */
import type { Context } from 'hono';
import type { RestUser, RouteInfo, UploadedFile } from '../types.js';

/** Key of the context map the eager providers (`router.provide`) fill on every request. */
export const PUSHED_KEY = 'loom.rest.context';

declare module 'hono' {
  interface ContextVariableMap {
    /** `@Context` values the eager providers (`router.provide`) gave this request. */
    'loom.rest.context': Map<unknown, unknown>;
  }
}

/** The part of `@hono/node-server`'s bindings (`HttpBindings`) the exchange reads. */
interface NodeBindings {
  readonly incoming?: { readonly headers?: Readonly<Record<string, string | string[] | undefined>> };
}

/**
 * The prototype of the adapter's own request objects, learnt from the first request found to be
 * one. Asking a request for its headers makes the adapter build its `Headers` stand-in, and with
 * the caches cold from the kernel's work between requests, as over HTTP, that cost about 0.6 µs a
 * request (docs/rest.md, "Performance"); a request with this prototype is known to be the
 * adapter's without asking.
 */
let adapterRequestPrototype: object | undefined;

/**
 * Node's parsed headers of a request still as `@hono/node-server` made it: its headers object is
 * the adapter's own, not a standard `Headers` (which a middleware that replaced the request, or
 * `app.request()`, gives).
 */
function nodeHeaders(c: Context): Readonly<Record<string, string | string[] | undefined>> | null {
  const parsed = (c.env as NodeBindings | undefined)?.incoming?.headers;
  if (typeof parsed !== 'object' || parsed === null) return null;
  const raw = c.req.raw;
  const prototype = Object.getPrototypeOf(raw) as object;
  if (prototype === adapterRequestPrototype) return parsed;
  if (Object.getPrototypeOf(raw.headers) === Headers.prototype) return null;
  // A request made with `new Request()` always has a standard `Headers`: the prototype of one
  // that has not is the adapter's (never the Fetch API's `Request.prototype` itself).
  if (prototype !== Request.prototype) adapterRequestPrototype ??= prototype;
  return parsed;
}

/** The parts of a URL `@Raw` values and matrix parameters are read from, each parsed when first asked. */
interface UrlParts {
  matrix?: Map<string, string[]>;
  segments?: string[];
  rawQuery?: Map<string, string[]>;
}

/** One form field's value. */
export type FormValue = string | File | UploadedFile;

/**
 * One request as the runtime sees it. Fields are filled on demand. They are declared, and set in
 * the constructor, in one place: class field initializers would compile to a function of their own,
 * called on every request.
 */
export class Exchange {
  declare readonly c: Context;
  declare readonly route: RouteInfo;
  declare body: unknown;
  /** The form fields: text, `File`s, or files the upload folder wrote; a repeated field as a list. */
  declare form: Record<string, FormValue | FormValue[]> | undefined;
  declare user: RestUser | undefined;
  declare responseHeaders: Headers | undefined;
  /** The `@Produces` type `Accept` chose, once the route checked it: writing the answer need not negotiate again. */
  declare accepted: string | undefined;
  declare contextCache: Map<unknown, unknown> | undefined;
  /** The method was given Hono's `Context`: the answer keeps the status and headers it sets there. */
  declare contextUsed: boolean;
  /** The status the method set with `c.status()`. */
  declare status: number | undefined;
  /** Files the upload folder wrote for this request, released once the answer is produced. */
  declare uploads: UploadedFile[] | undefined;
  /** Node's parsed headers when they are the request's (see `header`), `null` when not, `undefined` until asked. */
  declare private nodeHeaders: Readonly<Record<string, string | string[] | undefined>> | null | undefined;
  /** The URL's parts `@Raw` and matrix parameters read, parsed once. */
  declare private urlParts: UrlParts | undefined;

  constructor(c: Context, route: RouteInfo) {
    this.c = c;
    this.route = route;
    this.body = undefined;
    this.form = undefined;
    this.user = undefined;
    this.responseHeaders = undefined;
    this.accepted = undefined;
    this.contextCache = undefined;
    this.contextUsed = false;
    this.status = undefined;
    this.uploads = undefined;
    this.nodeHeaders = undefined;
    this.urlParts = undefined;
  }

  /**
   * Hono's `Context` for the method. Hono keeps what `c.status()` and `c.header()` set to itself
   * until it builds a response, so the exchange listens to both calls: a method that sets a status
   * or headers and returns a value gets them on the answer, as rest.vertx keeps what a method set
   * on its response. (Only routes that inject the context pay for this.)
   */
  honoContext(): Context {
    if (!this.contextUsed) {
      this.contextUsed = true;
      const c = this.c;
      const setStatus = c.status;
      const setHeader = c.header;
      c.status = (code: Parameters<Context['status']>[0]) => {
        this.status = code;
        setStatus(code);
      };
      c.header = ((name: string, value?: string, options?: { append?: boolean }) => {
        setHeader(name, value, options);
        const headers = this.headers();
        if (value === undefined) headers.delete(name);
        else if (options?.append) headers.append(name, value);
        else headers.set(name, value);
      }) as Context['header'];
    }
    return this.c;
  }

  /**
   * A request header by its lower-case name. On `@hono/node-server` it is read from the headers
   * Node already parsed (the adapter's documented `c.env.incoming`) rather than through the Fetch
   * API `Headers` the adapter emulates, which checks the name and, for Content-Type and
   * Content-Length, scans the raw header list on every call: a route reads two or three headers
   * per request, and that was a measurable share of its cost. Only while the request is still the
   * adapter's own (its headers are the adapter's, not a `Headers` a middleware built, as one that
   * rewrites the Content-Type does); elsewhere (other runtimes, `app.request()`) it is
   * `c.req.header(name)`.
   */
  header(name: string): string | undefined {
    const parsed = (this.nodeHeaders ??= nodeHeaders(this.c));
    if (parsed === null) return this.c.req.header(name);
    const value = parsed[name];
    // A list (`set-cookie`) is joined the Fetch API's way.
    return typeof value === 'string' || value === undefined ? value : this.c.req.header(name);
  }

  /**
   * The headers every request with a body reads, each named at its own lookup: `header(name)` looks
   * names up by a key that varies, which V8 answers through its slower megamorphic path; here each
   * lookup always sees the same name. Node keeps one value of each (it drops repeated Content-Type
   * and Content-Length headers, and joins repeated Accept headers).
   */
  contentType(): string | undefined {
    const parsed = (this.nodeHeaders ??= nodeHeaders(this.c));
    return parsed === null ? this.c.req.header('content-type') : (parsed['content-type'] as string | undefined);
  }

  /** See {@link contentType}. */
  contentLength(): string | undefined {
    const parsed = (this.nodeHeaders ??= nodeHeaders(this.c));
    return parsed === null ? this.c.req.header('content-length') : (parsed['content-length'] as string | undefined);
  }

  /** See {@link contentType}. */
  accept(): string | undefined {
    const parsed = (this.nodeHeaders ??= nodeHeaders(this.c));
    return parsed === null ? this.c.req.header('accept') : (parsed.accept as string | undefined);
  }

  /** Matrix parameters of every path segment (`/a;x=1/b;y=2,3`). */
  matrix(name: string): string[] | undefined {
    const parts = (this.urlParts ??= {});
    if (!parts.matrix) {
      const map = new Map<string, string[]>();
      for (const segment of this.rawPath().split('/')) {
        const parts = segment.split(';');
        for (const part of parts.slice(1)) {
          if (part === '') continue;
          const eq = part.indexOf('=');
          append(map, safeDecode(eq < 0 ? part : part.slice(0, eq)), eq < 0 ? '' : safeDecode(part.slice(eq + 1)));
        }
      }
      parts.matrix = map;
    }
    return parts.matrix.get(name);
  }

  /** Query values exactly as sent (for `@Raw`). */
  rawQuery(name: string): string[] | undefined {
    const parts = (this.urlParts ??= {});
    if (!parts.rawQuery) {
      const map = new Map<string, string[]>();
      const url = this.c.req.url;
      const q = url.indexOf('?');
      if (q >= 0) {
        const hash = url.indexOf('#', q);
        for (const pair of url.slice(q + 1, hash < 0 ? undefined : hash).split('&')) {
          if (pair === '') continue;
          const eq = pair.indexOf('=');
          append(map, safeDecode(eq < 0 ? pair : pair.slice(0, eq)), eq < 0 ? '' : pair.slice(eq + 1));
        }
      }
      parts.rawQuery = map;
    }
    return parts.rawQuery.get(name);
  }

  /**
   * A path segment exactly as sent (undecoded, matrix parameters included), counted from the end
   * of the path (1 is the last), so that a prefix the router does not know changes nothing.
   */
  rawSegment(fromEnd: number): string | undefined {
    const parts = (this.urlParts ??= {});
    if (!parts.segments) {
      const segments = this.rawPath().split('/');
      // A trailing slash (a non-strict app routes `/a/b/` as `/a/b`) adds no segment.
      if (segments.length > 2 && segments.at(-1) === '') segments.pop();
      parts.segments = segments;
    }
    return parts.segments[parts.segments.length - fromEnd];
  }

  /** The path exactly as sent: from the first `/` after the authority up to the query or fragment. */
  private rawPath(): string {
    const url = this.c.req.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    let end = url.length;
    for (const stop of ['?', '#']) {
      const at = url.indexOf(stop, start);
      if (at >= 0 && at < end) end = at;
    }
    return url.slice(start, end);
  }

  /** Response headers a handler added through `@Context('headers')`. */
  headers(): Headers {
    return (this.responseHeaders ??= new Headers());
  }
}

function append(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Percent-decodes a path segment (`+` is itself there); a malformed escape is kept as sent. */
export function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Percent-decodes (with `+` as a space); a malformed escape is kept as sent rather than failing the request. */
function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Strips matrix parameters from a path so routing sees `/cars/2024` for `/cars;color=red/2024`. */
export function stripMatrix(path: string): string {
  return path.replace(/;[^/]*/g, '');
}
