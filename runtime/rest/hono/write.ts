/**
 * @module
 * Turns a handler's result into a `Response`: writer lookup (method/class `@ResponseWriter`, writer for
 * the result's class, writer for the negotiated mime, then JSON or text), static headers, the
 * `Response` builder's status, headers and bodies, and streams.
 */
import type { RouterState } from '../config.js';
import { assertNever, HttpError } from '../errors.js';
import { JSON_WRITER, TEXT_WRITER } from '../io/registry.js';
import { bareMime } from '../io/negotiate.js';
import { RestResponse } from '../response.js';
import type { ResponseWriter, WriterOutput } from '../types.js';
import type { Exchange } from './exchange.js';

/** What a route decided at registration about writing. */
export interface WritePlan {
  readonly status: number;
  readonly staticHeaders: readonly (readonly [string, string])[];
  readonly writer?: ResponseWriter;
  readonly produces: readonly string[];
  readonly negotiate: (accept: string | undefined) => string | undefined;
  readonly state: RouterState;
}

const JSON_TYPE = 'application/json';
const UTF8 = new TextEncoder();

function isJsonMime(mime: string): boolean {
  const bare = bareMime(mime);
  return bare === JSON_TYPE || bare.endsWith('+json');
}

/** Chooses the writer and content type for an entity. Throws 406 when `Accept` fits nothing produced. */
function chooseWriter(plan: WritePlan, x: Exchange, value: unknown): [ResponseWriter, string | undefined] {
  if (plan.writer) return [plan.writer, plan.writer.produces ?? plan.produces[0]];
  const byType = plan.state.writers.forValue(value);
  if (byType) return [byType, byType.produces];
  if (plan.produces.length > 0) {
    const mime = x.accepted ?? plan.negotiate(x.c.req.header('accept'));
    if (mime === undefined) throw new HttpError(406, `Not Acceptable: this resource produces ${plan.produces.join(', ')}`);
    return [plan.state.writers.forMime(mime) ?? (isJsonMime(mime) ? JSON_WRITER : TEXT_WRITER), mime];
  }
  const accept = x.c.req.header('accept');
  if (accept !== undefined && plan.state.writers.hasMimes) {
    const mime = plan.negotiate(accept);
    const registered = mime === undefined ? undefined : plan.state.writers.forMime(mime);
    if (registered) return [registered, registered.produces ?? mime];
  }
  if (typeof value === 'string') return [TEXT_WRITER, TEXT_WRITER.produces];
  if (value instanceof Uint8Array) return [TEXT_WRITER, 'application/octet-stream'];
  return [JSON_WRITER, JSON_TYPE];
}

function addHeaders(target: Headers, plan: WritePlan, x: Exchange): void {
  for (const [n, v] of plan.staticHeaders) target.set(n, v);
  x.responseHeaders?.forEach((v, n) => target.set(n, v));
}

/** Writes an entity with a status, honouring a `type()` override and extra headers. */
async function writeEntity(plan: WritePlan, x: Exchange, value: unknown, status: number, extra: RestResponse | undefined): Promise<Response> {
  const headers = new Headers();
  addHeaders(headers, plan, x);
  let body: WriterOutput = null;
  if (value !== undefined && value !== null) {
    const [writer, mime] = chooseWriter(plan, x, value);
    body = await writer.write(value, x.c);
    if (body instanceof globalThis.Response) return body;
    if (writer.headers) for (const [n, v] of Object.entries(writer.headers)) headers.set(n, v);
    const type = writer.produces ?? mime;
    if (type) headers.set('content-type', type);
  }
  if (extra) {
    for (const [n, v] of extra.headers) headers.set(n, v);
    if (extra.contentType) headers.set('content-type', extra.contentType);
  }
  return new Response(body as BodyInit | null, { status, headers });
}

/**
 * Writes a handler's result.
 *
 * @example
 * ```ts
 * return writeResult(plan, x, Response.created('/users/7').entity(user)); // 201, Location, JSON body
 * ```
 */
export function writeResult(plan: WritePlan, x: Exchange, result: unknown): Response | Promise<Response> {
  if (result instanceof RestResponse) return writeBuilt(plan, x, result);
  if (result instanceof globalThis.Response) return result;
  // Not async: the JSON fast path below returns without a promise.
  if (isStreamable(result)) return writeBuilt(plan, x, RestResponse.status(plan.status).type(plan.produces[0] ?? 'application/octet-stream').stream(result as AsyncIterable<Uint8Array>));
  // The common case: a plain object, JSON produced, no extra headers. Built without a Headers object.
  if (
    plan.writer === undefined &&
    plan.staticHeaders.length === 0 &&
    x.responseHeaders === undefined &&
    typeof result === 'object' &&
    result !== null &&
    !(result instanceof Uint8Array) &&
    !plan.state.writers.hasTypes &&
    (plan.produces.length === 0 ? !plan.state.writers.hasMimes : plan.produces.length === 1 && plan.produces[0] === JSON_TYPE && (x.accepted ?? plan.negotiate(x.c.req.header('accept'))) !== undefined)
  ) {
    return new Response(JSON.stringify(result), { status: plan.status, headers: { 'content-type': JSON_TYPE } });
  }
  return writeEntity(plan, x, result, plan.status, undefined);
}

function isStreamable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (Symbol.asyncIterator in value || value instanceof ReadableStream);
}

async function writeBuilt(plan: WritePlan, x: Exchange, r: RestResponse): Promise<Response> {
  const content = r.content;
  switch (content.kind) {
    case 'entity':
      return writeEntity(plan, x, content.value, r.statusCode, r);
    case 'none':
    case 'next':
      return writeEntity(plan, x, undefined, r.statusCode || 200, r);
    case 'bytes':
    case 'stream': {
      const headers = new Headers();
      addHeaders(headers, plan, x);
      for (const [n, v] of r.headers) headers.set(n, v);
      headers.set('content-type', r.contentType ?? (content.kind === 'bytes' && typeof content.value === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream'));
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
