/**
 * @module
 * A streaming `multipart/form-data` parser over a Web `ReadableStream`: each part's bytes go to a
 * sink as they arrive, so an upload is never held in memory whole. Only a part's headers and the
 * tail that may hold the next boundary are buffered. Runs wherever Web streams do.
 */
import { BadRequestError } from '../errors.js';

/** A part's headers. */
export interface MultipartPart {
  /** The form field (`name` of Content-Disposition). */
  readonly name: string;
  /** Present for file parts (`filename`, or `filename*` decoded); may be `''` for an empty file input. */
  readonly filename?: string;
  /** Its Content-Type; text parts without one are `text/plain`. */
  readonly type: string;
}

/** Where a part's bytes go. */
export interface PartSink {
  write(chunk: Uint8Array): void | Promise<void>;
  /** The part is complete. */
  end(): void | Promise<void>;
  /** The request failed before the part ended. */
  abort?(): void | Promise<void>;
}

/** The largest header block of one part; anything longer is not a form. */
const MAX_PART_HEADERS = 16 * 1024;
const DOUBLE_CRLF = new Uint8Array([13, 10, 13, 10]);
const DECODER = new TextDecoder();

/**
 * The boundary of a `multipart/form-data` Content-Type, or `undefined` when it names none.
 *
 * @example
 * ```ts
 * multipartBoundary('multipart/form-data; boundary="----x1"'); // '----x1'
 * ```
 */
export function multipartBoundary(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  return boundary !== undefined && boundary.length <= 70 ? boundary : undefined;
}

/**
 * Reads a multipart body, calling `onPart` for each part and writing its bytes to the sink it
 * returns. A malformed body is a 400; an error from a sink (a size limit) aborts the current part
 * and is thrown as it is.
 *
 * @example
 * ```ts
 * await parseMultipart(request.body!, boundary, (part) => ({ write: (b) => chunks.push(b), end: () => done(part) }));
 * ```
 */
export async function parseMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  onPart: (part: MultipartPart) => PartSink | Promise<PartSink>,
): Promise<void> {
  const encoder = new TextEncoder();
  const opening = encoder.encode(`--${boundary}`);
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  const reader = body.getReader();
  let buffer: Uint8Array = new Uint8Array(0);
  let state: 'preamble' | 'afterBoundary' | 'headers' | 'body' | 'done' = 'preamble';
  let sink: PartSink | undefined;
  const malformed = (why: string): never => {
    throw new BadRequestError([{ location: 'body', name: 'body', message: `cannot be read as a form: ${why}` }]);
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffer = concat(buffer, value);
      // Consume as much of the buffer as the state machine can.
      for (let progress = true; progress && state !== 'done'; ) {
        progress = false;
        if (state === 'preamble') {
          const at = indexOf(buffer, opening, 0);
          if (at >= 0) {
            buffer = buffer.subarray(at + opening.length);
            state = 'afterBoundary';
            progress = true;
          } else if (buffer.length > opening.length) buffer = buffer.subarray(buffer.length - opening.length);
        } else if (state === 'afterBoundary') {
          if (buffer.length < 2) break;
          if (buffer[0] === 45 && buffer[1] === 45) state = 'done';
          else if (buffer[0] === 13 && buffer[1] === 10) {
            buffer = buffer.subarray(2);
            state = 'headers';
            progress = true;
          } else malformed('a boundary must end its line');
        } else if (state === 'headers') {
          const end = indexOf(buffer, DOUBLE_CRLF, 0);
          if (end < 0) {
            if (buffer.length > MAX_PART_HEADERS) malformed('part headers too long');
            break;
          }
          const part = parsePartHeaders(DECODER.decode(buffer.subarray(0, end)));
          if (!part) malformed('a part without a Content-Disposition name');
          buffer = buffer.subarray(end + DOUBLE_CRLF.length);
          sink = await onPart(part!);
          state = 'body';
          progress = true;
        } else {
          const at = indexOf(buffer, delimiter, 0);
          if (at >= 0) {
            if (at > 0) await sink!.write(buffer.slice(0, at));
            const ended = sink!;
            sink = undefined;
            await ended.end();
            buffer = buffer.subarray(at + delimiter.length);
            state = 'afterBoundary';
            progress = true;
          } else if (buffer.length > delimiter.length) {
            // Keep what may be the start of the next delimiter; the rest is the part's.
            const keep = buffer.length - delimiter.length;
            await sink!.write(buffer.slice(0, keep));
            buffer = buffer.subarray(keep);
          }
        }
      }
      if (state === 'done') break;
      if (done) malformed('the body ended before the closing boundary');
    }
    // Whatever follows the closing boundary (the epilogue) is ignored, as RFC 2046 says.
    await reader.cancel().catch(() => undefined);
  } catch (error) {
    await sink?.abort?.();
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
}

/** Parses `Content-Disposition: form-data; name="f"; filename="a.txt"` and `Content-Type`. */
function parsePartHeaders(text: string): MultipartPart | undefined {
  let disposition: string | undefined;
  let type: string | undefined;
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    else if (name === 'content-type') type = value;
  }
  if (disposition === undefined) return undefined;
  const params = dispositionParams(disposition);
  const name = params.get('name');
  if (name === undefined) return undefined;
  const encoded = params.get('filename*');
  const filename = encoded !== undefined ? decodeExtended(encoded) : params.get('filename');
  return {
    name,
    ...(filename !== undefined ? { filename } : {}),
    type: type ?? (filename !== undefined ? 'application/octet-stream' : 'text/plain'),
  };
}

/** The `;`-separated parameters of a Content-Disposition value, quoted strings unescaped. */
function dispositionParams(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const re = /;\s*([^=\s;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (let m = re.exec(value); m !== null; m = re.exec(value)) {
    const key = m[1]!.toLowerCase();
    params.set(key, m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]!.trim());
  }
  return params;
}

/** RFC 5987's `UTF-8''name%20here`; an unknown charset or a bad escape keeps the text as sent. */
function decodeExtended(value: string): string {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (!match || match[1]!.toLowerCase() !== 'utf-8') return value;
  try {
    return decodeURIComponent(match[2]!);
  } catch {
    return value;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** The first position of `needle` in `haystack` at or after `from`, or -1. */
function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  const last = haystack.length - needle.length;
  for (let i = haystack.indexOf(first, from); i >= 0 && i <= last; i = haystack.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}
