/**
 * @module
 * `loom/rest/node`: the parts of the decorator runtime that need Node's modules, kept out of
 * `loom/rest` so that it runs on any runtime. Give a router the Node piece as its `node` option:
 * `@Blocking` methods run in its worker pools, `{ type: Readable }` bodies become Node streams and
 * `{ type: 'upload' }` form fields are written to its upload folder. `fileWriter` serves files,
 * `resourcesIn` finds the routes classes of a folder.
 *
 * @example
 * ```ts
 * import { createRestRouter } from 'loom/rest';
 * import { nodeRuntime, resourcesIn } from 'loom/rest/node';
 *
 * const router = createRestRouter({ node: nodeRuntime({ uploads: { folder: '/var/uploads' } }) })
 *   .register(...(await resourcesIn(new URL('./routes/', import.meta.url))));
 * ```
 */

export { Blocking } from '../../rest/decorators/lifecycle.js';
export type { BlockingOptions } from '../../rest/metadata/raw.js';
export type { NodeRuntimeOptions } from '../../rest/node/node-runtime.js';
export { nodeRuntime } from '../../rest/node/node-runtime.js';
export type { ResourcesInOptions } from '../../rest/node/resources-in.js';
export { resourcesIn } from '../../rest/node/resources-in.js';
export { fileWriter } from '../../rest/node/static-files.js';
export type { UploadFolderOptions } from '../../rest/node/upload-folder.js';
export type { WorkerPoolOptions } from '../../rest/worker/pool.js';
