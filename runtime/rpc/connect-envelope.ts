/**
 * @module
 * The framing of Connect streams: every message, in either direction, is an envelope of one flags
 * byte, a four-byte big-endian length and that many bytes. A response stream ends with an
 * envelope flagged end-of-stream whose bytes are a JSON object carrying the call's error, if any.
 *
 * @see https://connectrpc.com/docs/protocol#streaming-request
 */
import { RpcError } from './errors.js';

/** The message bytes are compressed with the stream's `Connect-Content-Encoding`. */
export const FLAG_COMPRESSED = 0b01;
/** The last envelope of a response: its bytes are the end-of-stream JSON. */
export const FLAG_END_STREAM = 0b10;

const HEADER_BYTES = 5;

/** One envelope as read: its flags and its bytes. */
export interface Envelope {
  readonly flags: number;
  readonly data: Uint8Array;
}

/**
 * The envelope of `data`.
 *
 * @example
 * envelope(0, new Uint8Array([8, 1])); // Uint8Array [0, 0, 0, 0, 2, 8, 1]
 */
export function envelope(flags: number, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(HEADER_BYTES + data.byteLength);
  out[0] = flags;
  new DataView(out.buffer).setUint32(1, data.byteLength, false);
  out.set(data, HEADER_BYTES);
  return out;
}

/**
 * The envelopes of a byte stream, each yielded once it has fully arrived. A declared length over
 * `maxMessageBytes` is `resource_exhausted` before any of its bytes are buffered; a stream that
 * stops inside an envelope is `invalid_argument` (a client's request) or what `truncated` makes of it.
 *
 * @example
 * for await (const { flags, data } of readEnvelopes(request.body, 4 << 20)) …
 */
export async function* readEnvelopes(
  body: ReadableStream<Uint8Array> | null,
  maxMessageBytes: number,
  truncated: () => RpcError = () => new RpcError('invalid_argument', 'the stream ended inside a message'),
): AsyncGenerator<Envelope> {
  if (body === null) return;
  let buffered: Uint8Array = new Uint8Array(0);
  const reader = body.getReader();
  try {
    for (;;) {
      // Every complete envelope in the buffer first, then more bytes.
      while (buffered.byteLength >= HEADER_BYTES) {
        const length = new DataView(buffered.buffer, buffered.byteOffset, HEADER_BYTES).getUint32(1, false);
        if (length > maxMessageBytes)
          throw new RpcError('resource_exhausted', `message of ${length} bytes is larger than the limit of ${maxMessageBytes} bytes`);
        if (buffered.byteLength < HEADER_BYTES + length) break;
        const flags = buffered[0]!;
        const data = buffered.slice(HEADER_BYTES, HEADER_BYTES + length);
        buffered = buffered.subarray(HEADER_BYTES + length);
        yield { flags, data };
      }
      const { done, value } = await reader.read();
      if (done) break;
      buffered = buffered.byteLength === 0 ? value : concat(buffered, value);
    }
    if (buffered.byteLength > 0) throw truncated();
  } finally {
    // A consumer that stops early (an error, a cancelled call) releases the body.
    await reader.cancel().catch(() => {});
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}
