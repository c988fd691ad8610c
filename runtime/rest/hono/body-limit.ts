/**
 * @module
 * The request body size limit of a route (the router's `maxBodyBytes`, or a parameter's `maxBytes`):
 * a body larger than the limit is answered 413 before the runtime reads it, so a client cannot make
 * the server buffer arbitrary amounts of memory. A declared `Content-Length` decides at once,
 * without reading; a body of no declared length (chunked, or sent through `app.fetch` or HTTP/2,
 * where the header need not be there) is read up to the limit and refused as soon as it passes it.
 * A stream parameter's body is counted as the method reads it.
 */
import { HttpError, RegistrationError } from '../errors.js';
import { readWithin } from '../io/bounded-read.js';
import type { Exchange } from './exchange.js';

/** The default of `RestRouterOptions.maxBodyBytes`: 1 MiB, as Fastify's. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Checks a limit given in options: a whole number of bytes, or `Infinity`. */
export function checkLimit(limit: number, what: string): number {
  if (limit !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(limit) || limit < 0))
    throw new RegistrationError(`${what} must be a whole number of bytes or Infinity, got ${String(limit)}`);
  return limit;
}

/**
 * The check a route runs before reading its body: `undefined` when there is no limit; otherwise a
 * function that throws 413 for a body over `limit`, and returns a promise only when it had to read
 * a body of no declared length (which it then puts back on the request, buffered).
 */
export function compileBodyAdmission(limit: number): ((x: Exchange) => Promise<void> | undefined) | undefined {
  if (limit === Number.POSITIVE_INFINITY) return undefined;
  return (x) => {
    // HTTP/1.1 servers refuse a request that declares both a length and a chunked encoding (Node
    // answers 400), so a declared length is the body's size: one header decides.
    const length = x.contentLength();
    if (length !== undefined) {
      if (Number(length) > limit) throw tooLarge(limit);
      return undefined;
    }
    return x.c.req.raw.body === null ? undefined : bufferWithin(x, limit);
  };
}

async function bufferWithin(x: Exchange, limit: number): Promise<void> {
  const raw = x.c.req.raw;
  if (raw.body === null) return;
  const body = await readWithin(raw.body, limit);
  if (body === undefined) throw tooLarge(limit);
  // The readers that come next read the request as usual, now from memory.
  x.c.req.raw = new Request(raw, { body });
}

/**
 * A request body as a stream that fails with a 413 `HttpError` once it passes `limit`: the method
 * reading it sees the error, which then answers as any error it throws does.
 */
export function limitStream(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  if (limit === Number.POSITIVE_INFINITY) return body;
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(tooLarge(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
}

/** The 413 of a body over `limit`. */
export function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Payload Too Large: the request body is larger than ${limit} bytes`);
}
