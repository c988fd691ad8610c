/**
 * @module
 * The file writer: a handler returns a relative resource path and the file under the root folder is
 * served with its content type. Paths that leave the folder, and missing files, answer 404.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { HttpError } from '../errors.js';
import type { ResponseWriter } from '../types.js';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.xml': 'application/xml',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.csv': 'text/csv; charset=utf-8',
};

/** The content type of a file name (`application/octet-stream` when unknown). */
export function contentTypeOf(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * A writer that serves files below `root`.
 *
 * @example
 * ```ts
 * @GET @Path('/docs/{file:.+}') @ResponseWriter(fileWriter('./public'))
 * docs(@PathParam('file') file: string) { return file; }
 * ```
 */
export function fileWriter(root: string): ResponseWriter<string> {
  const base = resolve(root);
  // The root's own real path, once: a root that is itself a symlink is fine.
  const realBase = realpath(base).catch(() => base);
  const inside = (dir: string, path: string) => path === dir || path.startsWith(dir + sep);
  return {
    async write(relative, c) {
      // A handler that found nothing to serve returns null: the writer decides, and says 404.
      if (relative === null || relative === undefined) throw new HttpError(404, 'Not Found');
      const decoded = String(relative).replace(/^\/+/, '');
      const full = resolve(base, decoded);
      // resolve() collapses `..`; anything not strictly below the root is refused the same as a missing file.
      if (decoded.includes('\0') || !inside(base, full)) throw new HttpError(404, 'Not Found');
      // A symlink below the root may point outside it: check where the path really leads.
      const real = await realpath(full).catch(() => undefined);
      if (real === undefined || !inside(await realBase, real)) throw new HttpError(404, 'Not Found');
      const info = await stat(real).catch(() => undefined);
      if (!info?.isFile()) throw new HttpError(404, 'Not Found');
      const headers = { 'content-type': contentTypeOf(full), 'content-length': String(info.size) };
      if (c.req.method === 'HEAD') return new Response(null, { status: 200, headers });
      return new Response(Readable.toWeb(createReadStream(real)) as unknown as ReadableStream<Uint8Array>, { status: 200, headers });
    },
  };
}
