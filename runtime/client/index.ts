/**
 * @module
 * Support for generated fetch clients: `HttpClient` (request building and
 * sending), parameter serialization and `ApiError`.
 */
export { ApiError } from './api-error.js';
export type { ApiResponse, Defaulted, HttpClientOptions, OperationSpec, RequestOptions } from './http-client.js';
export { HttpClient } from './http-client.js';
export type { ParamSpec, ParamStyle } from './params.js';
export { appendQuery, headerValue, pathValue, scalarText } from './params.js';
