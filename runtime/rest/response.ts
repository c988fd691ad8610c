/**
 * @module
 * The fluent `Response` builder (after xp-forge/rest-api): a handler returns one to control status,
 * headers and body. A plain return value is sent with the method's `@Status` instead.
 */
import { type CookieOptions, serialize } from 'hono/utils/cookie';

export type { CookieOptions };

/** What a handler returns: a plain value (sent with `@Status`) or a built response. */
export type HandlerResult<T> = T | RestResponse;

/** The body a `RestResponse` carries. */
export type ResponseBody =
  | { readonly kind: 'none' }
  /** `error`: the `{status, message}` of `error()` and its kin, always written as JSON. */
  | { readonly kind: 'entity'; readonly value: unknown; readonly error?: true }
  | { readonly kind: 'bytes'; readonly value: Uint8Array | string }
  | { readonly kind: 'stream'; readonly value: ReadableStream<Uint8Array>; readonly size?: number }
  | { readonly kind: 'next' };

const NONE: ResponseBody = { kind: 'none' };

/**
 * A response under construction. Immutable: every call returns a new builder.
 *
 * @example
 * ```ts
 * return Response.created('/users/{id}', { id: user.id }).entity(user);
 * return Response.notFound(`No user ${id}`);
 * return Response.ok().type('text/csv').body('a,b\n1,2\n');
 * ```
 */
export class RestResponse {
  private constructor(
    readonly statusCode: number,
    readonly headers: ReadonlyArray<readonly [string, string]>,
    readonly content: ResponseBody,
    readonly contentType?: string,
  ) {}

  /** 200, optionally with an entity. */
  static ok(entity?: unknown): RestResponse {
    const r = new RestResponse(200, [], NONE);
    return entity === undefined ? r : r.entity(entity);
  }

  /**
   * 201 with a `Location` when given. `{name}` in the location takes `args[0][name]` when the first
   * argument is an object, otherwise the next positional argument; values are URL-encoded.
   */
  static created(location?: string, ...args: unknown[]): RestResponse {
    const r = new RestResponse(201, [], NONE);
    return location === undefined ? r : r.header('Location', expandLocation(location, args));
  }

  /** 202. */
  static accepted(): RestResponse {
    return new RestResponse(202, [], NONE);
  }

  /** 204. */
  static noContent(): RestResponse {
    return new RestResponse(204, [], NONE);
  }

  /** 302 with a `Location` (placeholders as in {@link RestResponse.created}). */
  static see(location: string, ...args: unknown[]): RestResponse {
    return new RestResponse(302, [], NONE).header('Location', expandLocation(location, args));
  }

  /** 304. */
  static notModified(): RestResponse {
    return new RestResponse(304, [], NONE);
  }

  /** 404; with a message the body is `{"status":404,"message":…}`. */
  static notFound(message?: string | Error): RestResponse {
    return RestResponse.error(404, message);
  }

  /** 406; with a message the body is `{"status":406,"message":…}`. */
  static notAcceptable(message?: string | Error): RestResponse {
    return RestResponse.error(406, message);
  }

  /** An error status (default 500); with a message the body is `{"status":code,"message":…}`. */
  static error(code = 500, message?: string | Error): RestResponse {
    const r = new RestResponse(code, [], NONE);
    if (message === undefined) return r;
    const text = message instanceof Error ? message.message : message;
    return new RestResponse(code, [], { kind: 'entity', value: { status: code, message: text }, error: true });
  }

  /** Any status. */
  static status(code: number): RestResponse {
    return new RestResponse(code, [], NONE);
  }

  /**
   * Lets the next route registered for the same path run (see `@RouteOrder`): the response is not
   * ended by this handler.
   */
  static next(): RestResponse {
    return new RestResponse(0, [], { kind: 'next' });
  }

  /** Sets Content-Type, overriding the negotiated type. */
  type(mime: string): RestResponse {
    return new RestResponse(this.statusCode, this.headers, this.content, mime);
  }

  /**
   * Sets a header; a later call with the same name replaces the earlier one, except for
   * `Set-Cookie`, which HTTP cannot fold into one line: each call adds one (see {@link cookie}).
   */
  header(name: string, value: string): RestResponse {
    const lower = name.toLowerCase();
    const headers = lower === 'set-cookie' ? this.headers : this.headers.filter(([n]) => n.toLowerCase() !== lower);
    return new RestResponse(this.statusCode, [...headers, [name, value]], this.content, this.contentType);
  }

  /**
   * Adds a `Set-Cookie`: the value URL-encoded, the attributes written and checked as Hono's
   * `setCookie` does (a `__Host-` cookie without `secure` or a `Max-Age` over 400 days throws).
   *
   * @example
   * ```ts
   * return Response.ok(user).cookie('session', id, { httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
   * ```
   */
  cookie(name: string, value: string, options?: CookieOptions): RestResponse {
    return this.header('Set-Cookie', serialize(name, value, options));
  }

  /** A value written by the negotiated writer (JSON by default). */
  entity(value: unknown): RestResponse {
    return new RestResponse(this.statusCode, this.headers, { kind: 'entity', value }, this.contentType);
  }

  /** Raw bytes (or text), sent as is with a Content-Length. */
  body(bytes: Uint8Array | string): RestResponse {
    return new RestResponse(this.statusCode, this.headers, { kind: 'bytes', value: bytes }, this.contentType);
  }

  /**
   * A streamed body: a web `ReadableStream` or any async iterable of chunks (a Node `Readable` is
   * one). Without `size` it is sent chunked; Content-Type is `application/octet-stream` unless
   * `type()` says otherwise.
   */
  stream(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>, size?: number): RestResponse {
    const value = toWebStream(source);
    const content: ResponseBody = size === undefined ? { kind: 'stream', value } : { kind: 'stream', value, size };
    return new RestResponse(this.statusCode, this.headers, content, this.contentType);
  }
}

/**
 * The builder under xp-forge's name, for modules that import it from here. Not exported by
 * `loom/rest`: a value named `Response` hides the Fetch API's.
 */
export const Response = RestResponse;

function expandLocation(location: string, args: readonly unknown[]): string {
  const named = args.length === 1 && typeof args[0] === 'object' && args[0] !== null ? (args[0] as Record<string, unknown>) : undefined;
  let next = 0;
  return location.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = named && name in named ? named[name] : named ? undefined : args[next++];
    if (value === undefined) throw new Error(`Location "${location}" has no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

const encoder = new TextEncoder();

function toWebStream(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>): ReadableStream<Uint8Array> {
  if (source instanceof ReadableStream) return source;
  // Node Readables are async iterables too; iterating them also encodes object-mode string chunks.
  const iterator = (source as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
  // Pull-based so a slow producer never blocks the event loop and a cancelled download stops it.
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else
        controller.enqueue(
          typeof value === 'string' ? encoder.encode(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
        );
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
