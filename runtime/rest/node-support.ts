/**
 * @module
 * The seam between the runtime, which runs wherever Hono runs (Node, Deno, Bun, workers), and the
 * parts that need Node's modules: `@Blocking` worker pools, Node stream bodies and the upload
 * folder. `loom/rest/node` implements {@link NodeSupport}; a router gets it as its `node` option, so
 * nothing reachable from `loom/rest` imports a `node:` module. A route that needs a piece the
 * router was not given fails at registration with {@link needsNode}'s message.
 */
import { RegistrationError } from './errors.js';
import type { BlockingOptions } from './metadata/raw.js';
import type { UploadedFile } from './types.js';

/** Limits of the upload folder, checked while a multipart body streams in. */
export interface UploadLimits {
  /** The largest file, in bytes. */
  readonly maxFileBytes: number;
  /** How many files one request may carry. */
  readonly maxFiles: number;
  /** All text fields of one request together, in bytes. */
  readonly maxFieldsBytes: number;
}

/** Where one uploaded part is written while it streams in. */
export interface UploadSink {
  write(chunk: Uint8Array): Promise<void>;
  /** The part ended: the file is complete. */
  finish(): Promise<UploadedFile>;
  /** The request failed: remove what was written. */
  abort(): Promise<void>;
}

/** The upload folder (`nodeRuntime({ uploads })`). */
export interface UploadFolder {
  readonly limits: UploadLimits;
  /** Opens a new file for a part; its name on disk is the folder's choice, never the client's. */
  open(part: { readonly field: string; readonly filename: string; readonly type: string }): Promise<UploadSink>;
  /** Removes a request's files once its answer is produced (unless the folder keeps them). */
  release(files: readonly UploadedFile[]): Promise<void>;
}

/** What `loom/rest/node` gives a router (`createRestRouter({ node: nodeRuntime() })`). */
export interface NodeSupport {
  /**
   * Checks a `@Blocking` method's options at registration (a relative module path is refused)
   * and returns what runs it in a worker thread.
   */
  blocking(options: BlockingOptions, where: string): (args: readonly unknown[]) => Promise<unknown>;
  /** Whether a parameter `type` asks for a Node stream (Node's `Readable`). */
  isNodeStreamType(type: unknown): boolean;
  /** A Node `Readable` over a request body. */
  toNodeStream(body: ReadableStream<Uint8Array>): unknown;
  readonly uploads: UploadFolder;
  /** Stops the worker pools. */
  close(): Promise<void>;
}

/**
 * The registration error of a route that needs a Node piece the router was not given.
 *
 * @example
 * ```ts
 * if (!state.options.node) throw needsNode('Jobs.run', '@Blocking');
 * ```
 */
export function needsNode(where: string, what: string): RegistrationError {
  return new RegistrationError(
    `${where}: ${what} needs Node: import { nodeRuntime } from 'loom/rest/node' and pass createRestRouter({ node: nodeRuntime() })`,
  );
}

/**
 * Whether a parameter `type` looks like Node's `Readable` (its static `fromWeb` and `toWeb`):
 * lets a router without the Node piece name the import instead of treating it as a value class.
 */
export function looksLikeNodeStream(type: unknown): boolean {
  if (typeof type !== 'function') return false;
  const statics = type as { fromWeb?: unknown; toWeb?: unknown };
  return typeof statics.fromWeb === 'function' && typeof statics.toWeb === 'function';
}
