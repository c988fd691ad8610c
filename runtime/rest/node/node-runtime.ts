/**
 * @module
 * `nodeRuntime()`: the router's Node piece (its `node` option). It brings what needs Node's
 * modules — `@Blocking` worker pools, Node stream bodies, the upload folder — so that `loom/rest`
 * itself runs on any runtime Hono runs on.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import type { NodeSupport } from '../node-support.js';
import type { WorkerPoolOptions } from '../worker/pool.js';
import { BlockingPools } from './blocking.js';
import type { UploadFolderOptions } from './upload-folder.js';
import { createUploadFolder } from './upload-folder.js';

/** Options of {@link nodeRuntime}. */
export interface NodeRuntimeOptions {
  /** Pools for `@Blocking` methods, by name (`default` unless the decorator names one). */
  readonly workerPools?: Readonly<Record<string, WorkerPoolOptions>>;
  /** The upload folder of `{ type: 'upload' }` form fields. */
  readonly uploads?: UploadFolderOptions;
}

/**
 * The Node piece of a router. `router.close()` stops its worker pools.
 *
 * @example
 * ```ts
 * import { createRestRouter } from 'loom/rest';
 * import { nodeRuntime } from 'loom/rest/node';
 *
 * const router = createRestRouter({
 *   node: nodeRuntime({ workerPools: { cpu: { size: 2 } }, uploads: { folder: '/var/uploads', maxFileBytes: 50 * 1024 * 1024 } }),
 * });
 * ```
 */
export function nodeRuntime(options: NodeRuntimeOptions = {}): NodeSupport {
  const pools = new BlockingPools(options.workerPools);
  return {
    blocking: (blocking, where) => pools.runner(blocking, where),
    isNodeStreamType: (type) => type === Readable,
    toNodeStream: (body) => Readable.fromWeb(body as NodeWebStream<Uint8Array>),
    uploads: createUploadFolder(options.uploads),
    close: () => pools.close(),
  };
}
