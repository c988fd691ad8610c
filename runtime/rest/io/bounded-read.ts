/**
 * @module
 * Reading a request body to its end, but no further than a size limit: the one loop behind the
 * REST router's `maxBodyBytes` (for a chunked body) and the Connect server's.
 */

/**
 * All of `stream`, or `undefined` as soon as it passes `limit` bytes; a read error is thrown as it
 * came. The reader's lock is released, the stream never cancelled: under `@hono/node-server`
 * cancelling destroys the socket, and the answer refusing the body with it.
 */
export async function readWithin(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) return undefined;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
