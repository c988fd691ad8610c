/**
 * @module
 * The upload folder (rest.vertx's `BodyHandler.create(folder)`): each file part of a multipart
 * request is written to a new file below the folder as it streams in, named by a random UUID (never
 * by the client's file name), and removed once the route has answered unless the folder keeps files.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UploadFolder } from '../node-support.js';

/** Options of the upload folder (`nodeRuntime({ uploads })`). */
export interface UploadFolderOptions {
  /** Where files are written; created when missing. @default `<os tmpdir>/loom-uploads` */
  readonly folder?: string | URL;
  /** The largest file, in bytes: a larger one is 413 and what was written is removed. @default 10 MiB */
  readonly maxFileBytes?: number;
  /** Files per request. @default 10 */
  readonly maxFiles?: number;
  /** The text fields of a request together, in bytes. @default 1 MiB */
  readonly maxFieldsBytes?: number;
  /** Keep the files once the route answered: removing them is then the application's business. @default false */
  readonly keep?: boolean;
}

/**
 * Creates an upload folder.
 *
 * @example
 * ```ts
 * const folder = createUploadFolder({ folder: '/var/uploads', maxFileBytes: 50 * 1024 * 1024 });
 * ```
 */
export function createUploadFolder(options: UploadFolderOptions = {}): UploadFolder {
  const dir = options.folder instanceof URL ? fileURLToPath(options.folder) : resolve(options.folder ?? join(tmpdir(), 'loom-uploads'));
  const limits = {
    maxFileBytes: options.maxFileBytes ?? 10 * 1024 * 1024,
    maxFiles: options.maxFiles ?? 10,
    maxFieldsBytes: options.maxFieldsBytes ?? 1024 * 1024,
  };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`uploads.${name} must be a whole number, got ${String(value)}`);
  }
  return {
    limits,
    async open(part) {
      await mkdir(dir, { recursive: true });
      const path = join(dir, randomUUID());
      // `wx`: never reuse a file; 0o600: uploads are the server's, not every local user's.
      const handle = await open(path, 'wx', 0o600);
      let size = 0;
      let closed = false;
      const close = async (): Promise<void> => {
        if (closed) return;
        closed = true;
        await handle.close();
      };
      return {
        async write(chunk) {
          for (let at = 0; at < chunk.byteLength; ) at += (await handle.write(chunk, at, chunk.byteLength - at)).bytesWritten;
          size += chunk.byteLength;
        },
        async finish() {
          await close();
          return { field: part.field, filename: part.filename, type: part.type, size, path };
        },
        async abort() {
          await close().catch(() => undefined);
          await rm(path, { force: true });
        },
      };
    },
    async release(files) {
      if (options.keep) return;
      await Promise.all(files.map((f) => rm(f.path, { force: true })));
    },
  };
}
