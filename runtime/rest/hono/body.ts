/**
 * @module
 * Reading request bodies and forms: the `@Consumes` check (415), the reader chosen by precedence,
 * and a stream body handed over unread.
 */
import type { RouterState } from '../config.js';
import { BadRequestError, errorMessage, HttpError } from '../errors.js';
import { FormBodyReader } from '../form-coercion.js';
import { bareMime, mimeMatches } from '../io/negotiate.js';
import type { ValueReader } from '../types.js';
import { limitStream } from './body-limit.js';
import type { Exchange } from './exchange.js';
import type { ParamPlan } from './extract.js';

/** Refuses (415) a Content-Type the route does not consume; returns the request's Content-Type. */
export function checkConsumes(x: Exchange, consumes: readonly string[]): string {
  const type = x.contentType() ?? '';
  // The usual request names a declared type exactly (`application/json`): no parsing needed.
  if (consumes.length > 0 && type !== '' && !consumes.includes(type) && !consumes.some((m) => mimeMatches(m, type))) {
    throw new HttpError(415, `Unsupported Media Type: this resource consumes ${consumes.join(', ')}`);
  }
  return type;
}

/**
 * Reads the body once with the reader chosen by precedence: parameter, method/class, type, mime, general.
 * A `formBody` reader takes only form requests; other Content-Types go on down the list.
 */
export function compileBodyReader(plan: ParamPlan, consumes: readonly string[], state: RouterState): (x: Exchange) => Promise<unknown> {
  const formReader = plan.bodyReader instanceof FormBodyReader ? plan.bodyReader : undefined;
  const fixed = formReader ? undefined : plan.bodyReader;
  const asText = plan.bodyAsText === true;
  const read = async (x: Exchange, reader: ValueReader): Promise<unknown> => {
    if (reader.readBytes) {
      try {
        return await reader.readBytes(new Uint8Array(await x.c.req.arrayBuffer()), x.c);
      } catch (e) {
        return unreadable(e);
      }
    }
    const text = await x.c.req.text();
    if (text === '') return undefined;
    try {
      return await reader.read(text, x.c);
    } catch (e) {
      return unreadable(e);
    }
  };
  const noMimeReaders = !state.readers.hasMimes;
  const general = async (x: Exchange, type: string): Promise<unknown> => {
    if (asText) {
      const text = await x.c.req.text();
      return text === '' ? undefined : text;
    }
    const mime = bareMime(type);
    const byMime = mime ? state.readers.forMime(mime) : undefined;
    if (byMime) return read(x, byMime);
    if (mime === '' || mime === 'application/json' || mime.endsWith('+json')) return readJson(x);
    if (isForm(mime)) return parseForm(x);
    if (mime.startsWith('text/')) {
      const text = await x.c.req.text();
      return text === '' ? undefined : text;
    }
    const bytes = new Uint8Array(await x.c.req.arrayBuffer());
    return bytes.byteLength === 0 ? undefined : bytes;
  };
  const readForm = async (x: Exchange, reader: FormBodyReader): Promise<unknown> => reader.readForm(await parseForm(x));
  // Not async: a JSON body is read with a single promise.
  return (x) => {
    const type = checkConsumes(x, consumes);
    if (formReader && isForm(bareMime(type))) return readForm(x, formReader);
    if (fixed) return read(x, fixed);
    if (!asText && noMimeReaders && (type === '' || type === 'application/json')) return readJson(x);
    return general(x, type);
  };
}

/**
 * Whether a body of `application/json` is read as plain JSON (see {@link readJson}) for this
 * parameter: no reader of its own or of its route, none registered for a mime type, the route
 * consumes JSON. The route may then read the usual request without choosing a reader.
 */
export function readsPlainJson(plan: ParamPlan, consumes: readonly string[], state: RouterState): boolean {
  return (
    plan.bodyReader === undefined &&
    plan.bodyAsText !== true &&
    !state.readers.hasMimes &&
    (consumes.length === 0 || consumes.includes(JSON_TYPE) || consumes.some((m) => mimeMatches(m, JSON_TYPE)))
  );
}

const JSON_TYPE = 'application/json';

/**
 * The usual request with a JSON body, which a route that {@link readsPlainJson} reads at once with
 * {@link readJson}: a declared length within `limit` and a Content-Type of `application/json`.
 */
export function isPlainJsonRequest(x: Exchange, limit: number): boolean {
  const length = x.contentLength();
  return length !== undefined && Number(length) <= limit && x.contentType() === JSON_TYPE;
}

/** The common case, JSON, is one promise: no reader indirection, no extra awaits. */
export function readJson(x: Exchange): Promise<unknown> {
  return x.c.req.text().then(parseJson);
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    return unreadable(e);
  }
}

function unreadable(e: unknown): never {
  throw new BadRequestError([{ location: 'body', name: 'body', message: `cannot be read: ${errorMessage(e)}` }]);
}

/** Reads a url-encoded or multipart form once for `@FormParam`s; any other Content-Type is a 415. */
export function compileFormReader(consumes: readonly string[]): (x: Exchange) => Promise<Exchange['form']> {
  return async (x) => {
    const type = bareMime(checkConsumes(x, consumes));
    if (!isForm(type)) {
      throw new HttpError(415, 'Unsupported Media Type: form parameters need application/x-www-form-urlencoded or multipart/form-data');
    }
    return (await parseForm(x)) as Exchange['form'];
  };
}

/**
 * The body as a stream, unread, counted against `limit` as the method reads it (a declared length
 * over it is refused by the admission check first); `undefined` for a request without a body.
 */
export function compileStreamReader(consumes: readonly string[], limit: number): (x: Exchange) => ReadableStream<Uint8Array> | undefined {
  return (x) => {
    checkConsumes(x, consumes);
    const body = x.contentLength() === '0' ? null : x.c.req.raw.body;
    return body === null ? undefined : limitStream(body, limit);
  };
}

/** Parses a url-encoded or multipart body; a malformed one (a broken multipart boundary) is a 400. */
async function parseForm(x: Exchange): Promise<Record<string, string | File | (string | File)[]>> {
  try {
    return await x.c.req.parseBody({ all: true });
  } catch (e) {
    throw new BadRequestError([{ location: 'body', name: 'body', message: `cannot be read as a form: ${errorMessage(e)}` }]);
  }
}

export function isForm(mime: string): boolean {
  return mime === 'application/x-www-form-urlencoded' || mime === 'multipart/form-data';
}
