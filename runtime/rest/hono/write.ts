/**
 * @module
 * Turns a handler's result into a `Response`: writer lookup (method/class `@ResponseWriter`, writer for
 * the result's class, writer for the negotiated mime, then JSON or text), the router's default
 * headers, static headers, what the method set on Hono's context, the `RestResponse` builder's status,
 * headers and bodies, and streams.
 */

import { assertNever } from '../../util/assert-never.js';
import type { RouterState } from '../config.js';
import { HttpError } from '../errors.js';
import { bareMime } from '../io/negotiate.js';
import { JSON_WRITER, TEXT_WRITER } from '../io/registry.js';
import { RestResponse } from '../response.js';
import type { ResponseWriter, WriterOutput } from '../types.js';
import type { Exchange } from './exchange.js';

/** What a route decides at registration about writing (see {@link compileWritePlan}). */
export interface WritePlanOptions {
  readonly status: number;
  readonly staticHeaders: readonly (readonly [string, string])[];
  readonly writer?: ResponseWriter;
  readonly produces: readonly string[];
  readonly negotiate: (accept: string | undefined) => string | undefined;
}

/** A route's writing, compiled. */
export interface WritePlan extends WritePlanOptions {
  readonly state: RouterState;
  /**
   * The `ResponseInit` of a plain JSON answer (the route's status, the default headers and the
   * JSON Content-Type), when a plain object or array needs no writer lookup at all: no writer of
   * the route's, none registered for a class or for JSON, no static headers. Shared by every such
   * answer of the route (a `Response` only reads its init); its headers are a plain object, which
   * `@hono/node-server` writes without building a `Headers` instance.
   */
  readonly fastJson: ResponseInit | undefined;
}

const JSON_TYPE = 'application/json';
const UTF8 = new TextEncoder();

/**
 * Compiles a route's write plan.
 *
 * @example
 * ```ts
 * const plan = compileWritePlan(state, { status: 200, staticHeaders: [], produces: [], negotiate });
 * ```
 */
export function compileWritePlan(state: RouterState, options: WritePlanOptions): WritePlan {
  const writers = state.writers;
  const jsonOnly =
    options.produces.length === 0
      ? !writers.hasMimes
      : options.produces.length === 1 && options.produces[0] === JSON_TYPE && !writers.forMime(JSON_TYPE);
  const plain = options.writer === undefined && options.staticHeaders.length === 0 && !writers.hasTypes && jsonOnly;
  let fastJson: ResponseInit | undefined;
  if (plain) {
    // The Content-Type first, as Hono's own `c.json()` writes it.
    const headers: Record<string, string> = { 'content-type': state.jsonType };
    for (const [n, v] of state.defaultHeaders) if (n !== 'content-type') headers[n] = v;
    fastJson = { status: options.status, headers };
  }
  return { ...options, state, fastJson };
}

function isJsonMime(mime: string): boolean {
  const bare = bareMime(mime);
  return bare === JSON_TYPE || bare.endsWith('+json');
}

/** `text/*` types name their charset: the built-in writers write UTF-8. */
function withCharset(mime: string): string {
  return bareMime(mime).startsWith('text/') && !/;\s*charset=/i.test(mime) ? `${mime}; charset=utf-8` : mime;
}

/**
 * A built-in writer for `mime` (the route's declared type), or for the value itself when the route
 * declares none: JSON for JSON types and structured values, the string form (or the bytes) otherwise.
 * The Content-Type is the route's, a bare `application/json` being the router's `jsonType`: a
 * built-in writer has no type of its own to impose.
 */
function builtInWriter(plan: WritePlan, value: unknown, mime: string | undefined): [ResponseWriter, string] {
  if (mime === JSON_TYPE) return [JSON_WRITER, plan.state.jsonType];
  if (mime !== undefined) return [isJsonMime(mime) ? JSON_WRITER : TEXT_WRITER, withCharset(mime)];
  if (typeof value === 'string') return [TEXT_WRITER, TEXT_WRITER.produces!];
  if (value instanceof Uint8Array) return [TEXT_WRITER, 'application/octet-stream'];
  return [JSON_WRITER, plan.state.jsonType];
}

/**
 * Chooses the writer and the Content-Type for an entity (rest.vertx's order: the method's writer,
 * the writer for the result's class, the writer for the negotiated mime, the general writer). A
 * registered writer's own `produces` wins over the route's. Throws 406 when `Accept` fits nothing
 * produced.
 */
function chooseWriter(plan: WritePlan, x: Exchange, value: unknown): [ResponseWriter, string | undefined] {
  if (plan.writer) return [plan.writer, plan.writer.produces ?? plan.produces[0]];
  const byType = plan.state.writers.forValue(value);
  if (byType) return [byType, byType.produces ?? plan.produces[0]];
  if (plan.produces.length > 0) {
    const mime = x.accepted ?? plan.negotiate(x.accept());
    if (mime === undefined) throw new HttpError(406, `Not Acceptable: this resource produces ${plan.produces.join(', ')}`);
    const registered = plan.state.writers.forMime(mime);
    return registered ? [registered, registered.produces ?? mime] : builtInWriter(plan, value, mime);
  }
  // Without @Produces a registered mime writer answers only when Accept prefers its type to JSON,
  // which comes first in this route's list: `*/*` (curl, fetch) keeps getting JSON.
  const accept = x.accept();
  if (accept !== undefined && plan.state.writers.hasMimes) {
    const mime = plan.negotiate(accept);
    const registered = mime === undefined ? undefined : plan.state.writers.forMime(mime);
    if (registered) return [registered, registered.produces ?? mime];
  }
  return builtInWriter(plan, value, undefined);
}

/**
 * The headers every answer of the route starts with, each replacing the one before: the router's
 * defaults, the route's static headers, then what the method set (`c.header()`, `@Context('headers')`).
 */
function addHeaders(target: Headers, plan: WritePlan, x: Exchange): void {
  for (const [n, v] of plan.state.defaultHeaders) target.set(n, v);
  for (const [n, v] of plan.staticHeaders) target.set(n, v);
  x.responseHeaders?.forEach((v, n) => {
    putHeader(target, n, v);
  });
}

/** A built response's headers: each replaces what came before, but every `Set-Cookie` is kept. */
function addBuiltHeaders(target: Headers, r: RestResponse): void {
  for (const [n, v] of r.headers) putHeader(target, n, v);
}

function putHeader(target: Headers, name: string, value: string): void {
  if (name.length === 10 && name.toLowerCase() === 'set-cookie') target.append(name, value);
  else target.set(name, value);
}

/**
 * Writes an entity with a status, honouring a `type()` override and extra headers. An error's
 * `{status, message}` is always JSON: the route's type (an image, a CSV) cannot carry it. A `null`
 * or `undefined` entity has no body, unless `toWriter` hands it to the route's own writer, which
 * then decides (rest.vertx: a `204`, a default body, …).
 */
async function writeEntity(
  plan: WritePlan,
  x: Exchange,
  value: unknown,
  status: number,
  extra: RestResponse | undefined,
  error = false,
  toWriter = false,
): Promise<Response> {
  const headers = new Headers();
  addHeaders(headers, plan, x);
  let body: WriterOutput = null;
  if ((value !== undefined && value !== null) || toWriter) {
    const [writer, type] = error ? [JSON_WRITER, plan.state.jsonType] : chooseWriter(plan, x, value);
    body = await writer.write(value, x.c);
    if (body instanceof globalThis.Response) return body;
    if (writer.headers) for (const [n, v] of Object.entries(writer.headers)) headers.set(n, v);
    if (type) headers.set('content-type', type);
  }
  if (extra) {
    addBuiltHeaders(headers, extra);
    if (extra.contentType) headers.set('content-type', extra.contentType);
  }
  return new Response(body as BodyInit | null, { status, headers });
}

/**
 * A `Map` is written as an object keyed by its keys, a `Set` or a generator as an array (xp-forge
 * writes maps and generators so); only at the top, where a handler returns one, to keep the common
 * path free of a JSON replacer.
 */
function plainResult(result: unknown): unknown {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return result;
  if (result instanceof Map) return Object.fromEntries(result);
  if (result instanceof Set) return [...result];
  if (typeof (result as Iterator<unknown>).next === 'function' && Symbol.iterator in result) return Array.from(result as Iterable<unknown>);
  return result;
}

/**
 * Writes a handler's result. A plain value goes out with the status the method set on Hono's
 * context (`c.status(201)`), else the route's `@Status`.
 *
 * @example
 * ```ts
 * return writeResult(plan, x, Response.created('/users/7').entity(user)); // 201, Location, JSON body
 * ```
 */
export function writeResult(plan: WritePlan, x: Exchange, result: unknown): Response | Promise<Response> {
  // The common case first: a plain object or array as JSON, built without a Headers object. Not
  // async, so that it returns without a promise.
  const fast = plan.fastJson;
  if (fast !== undefined && typeof result === 'object' && result !== null && x.responseHeaders === undefined && !x.contextUsed) {
    const proto = Object.getPrototypeOf(result) as unknown;
    if (proto === Object.prototype || proto === Array.prototype) {
      return new Response(JSON.stringify(result), fast);
    }
  }
  if (result instanceof RestResponse) return writeBuilt(plan, x, result);
  if (result instanceof globalThis.Response) return result;
  const status = x.status ?? plan.status;
  if (result === undefined || result === null) return writeEntity(plan, x, result, status, undefined, false, plan.writer !== undefined);
  if (isStreamable(result))
    return writeBuilt(
      plan,
      x,
      RestResponse.status(status)
        .type(plan.produces[0] ?? 'application/octet-stream')
        .stream(result as AsyncIterable<Uint8Array>),
    );
  return writeEntity(plan, x, plainResult(result), status, undefined);
}

function isStreamable(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (Symbol.asyncIterator in value || value instanceof ReadableStream)
  );
}

async function writeBuilt(plan: WritePlan, x: Exchange, r: RestResponse): Promise<Response> {
  const content = r.content;
  switch (content.kind) {
    case 'entity':
      return writeEntity(plan, x, plainResult(content.value), r.statusCode, r, content.error === true);
    case 'none':
    case 'next':
      return writeEntity(plan, x, undefined, r.statusCode || 200, r);
    case 'bytes':
    case 'stream': {
      const headers = new Headers();
      addHeaders(headers, plan, x);
      addBuiltHeaders(headers, r);
      headers.set(
        'content-type',
        r.contentType ??
          (content.kind === 'bytes' && typeof content.value === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream'),
      );
      if (content.kind === 'bytes') {
        const bytes = typeof content.value === 'string' ? UTF8.encode(content.value) : content.value;
        headers.set('content-length', String(bytes.byteLength));
        return new Response(bytes as BodyInit, { status: r.statusCode, headers });
      }
      if (content.size !== undefined) headers.set('content-length', String(content.size));
      return new Response(content.value, { status: r.statusCode, headers });
    }
    default:
      return assertNever(content, 'response body');
  }
}
