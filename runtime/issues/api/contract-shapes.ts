/**
 * @module
 * The server contract the handlers implement, from the generated
 * `generated/issues/openapi.server.ts` (contracts.md §3) and its types: one interface per
 * OpenAPI tag, one input object per operation, Gitea's schema types. Everything the two files
 * export is re-exported, so that an operation or a schema added to `schemas/issues/openapi.yaml`
 * is here after `npm run generate`, with no list to keep up to date.
 */
export type * from '../../../generated/issues/openapi.server.js';
export type * from '../../../generated/issues/openapi.types.js';
