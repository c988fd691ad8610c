/**
 * @module
 * The request body size limit of a router (`maxBodyBytes`): a body larger than the limit is
 * answered 413 before the runtime reads it, so a client cannot make the server buffer arbitrary
 * amounts of memory. A declared `Content-Length` decides at once, without reading; a body of no
 * declared length (chunked, or sent through `app.fetch` or HTTP/2, where neither header need be
 * there) is read up to the limit and refused as soon as it passes it.
 */
import { HttpError, RegistrationError } from '../errors.js';
import { readWithin } from '../io/bounded-read.js';
import type { Exchange } from './exchange.js';

/** The default of `RestRouterOptions.maxBodyBytes`: 1 MiB, as Fastify's. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The check a route runs before reading its body: `undefined` when there is no limit; otherwise a
 * function that throws 413 for a body over `limit`, and returns a promise only when it had to read
 * a body of no declared length (which it then puts back on the request, buffered).
 */
export function compileBodyAdmission(limit: number): ((x: Exchange) => Promise<void> | undefined) | undefined {
  if (limit === Number.POSITIVE_INFINITY) return undefined;
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new RegistrationError(`maxBodyBytes must be a whole number of bytes or Infinity, got ${String(limit)}`);
  return (x) => {
    const chunked = x.c.req.header('transfer-encoding') !== undefined;
    const length = x.c.req.header('content-length');
    // Node's parser delivers exactly Content-Length bytes, so the header is the body's size.
    if (!chunked && length !== undefined) {
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

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Payload Too Large: the request body is larger than ${limit} bytes`);
}
