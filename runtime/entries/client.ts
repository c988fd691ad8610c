/**
 * @module
 * `loom/client`: what generated fetch clients (`X.client.ts` of an OpenAPI description) build on:
 * `HttpClient` (requests and parameter serialization) and `ApiError`. Web standards only, so a
 * client runs in browsers, Deno, Bun, edge workers and Node alike.
 */
export { ApiError } from '../client/api-error.js';
export type {
  ApiResponse,
  BasicCredential,
  Credential,
  Defaulted,
  HttpClientOptions,
  OperationSpec,
  RequestOptions,
  SecuritySchemeSpec,
} from '../client/http-client.js';
export { HttpClient } from '../client/http-client.js';
export type { ParamSpec, ParamStyle } from '../client/params.js';
