/**
 * @module
 * Every runtime symbol generated code imports, in one table: the entry of the `loom` package it
 * comes from (`loom/rest`, `loom/client`, `loom/connect`, `loom/connect/server`, `loom/grpc`) and
 * whether it is a type. Emitters take symbols from here and never spell a runtime name or entry as a
 * string, so the entries a generated file depends on are decided in one place: a fetch client
 * imports only `loom/client`, a Connect client only `loom/connect`, and only `X.grpc.ts` reaches
 * `loom/grpc` (the one entry that loads `@grpc/grpc-js`).
 */
import type { HttpMethod, Parameter } from '../model/model.js';
import type { ImportSymbol } from '../printer/generated-file.js';
import { importSymbol } from '../printer/generated-file.js';

/** The runtime entries generated code imports, as subpaths of the `loom` package. */
export type RuntimeEntry = 'rest' | 'client' | 'connect' | 'connect/server' | 'grpc';

function symbols<const V extends string, const T extends string>(
  entry: RuntimeEntry,
  values: readonly V[],
  types: readonly T[],
): Readonly<Record<V | T, ImportSymbol>> {
  const out: Record<string, ImportSymbol> = {};
  for (const name of values) out[name] = importSymbol(name, `runtime:${entry}`);
  for (const name of types) out[name] = importSymbol(name, `runtime:${entry}`, { typeOnly: true });
  return out as Record<V | T, ImportSymbol>;
}

/** `loom/rest`: the decorator runtime on Hono, for generated routes classes. */
export const REST = symbols(
  'rest',
  [
    'BodyParam',
    'CatchWith',
    'Consumes',
    'Context',
    'CookieParam',
    'DefaultValue',
    'DELETE',
    'formBody',
    'GET',
    'HEAD',
    'HeaderParam',
    'OPTIONS',
    'PATCH',
    'Path',
    'PathParam',
    'POST',
    'Produces',
    'PUT',
    'Security',
    'QueryParam',
    'Status',
    'TRACE',
  ],
  ['HandlerResult'],
);

/** The route decorator of each HTTP method. */
export const VERB_DECORATOR: Readonly<Record<HttpMethod, ImportSymbol>> = {
  get: REST.GET,
  put: REST.PUT,
  post: REST.POST,
  delete: REST.DELETE,
  options: REST.OPTIONS,
  head: REST.HEAD,
  patch: REST.PATCH,
  trace: REST.TRACE,
};

/** The parameter decorator of each parameter location. */
export const PARAM_DECORATOR: Readonly<Record<Parameter['in'], ImportSymbol>> = {
  path: REST.PathParam,
  query: REST.QueryParam,
  header: REST.HeaderParam,
  cookie: REST.CookieParam,
};

/** `loom/client`: what generated fetch clients build on. Runs wherever `fetch` does. */
export const CLIENT = symbols(
  'client',
  ['HttpClient'],
  [
    'ApiResponse',
    'BasicCredential',
    'Credential',
    'Defaulted',
    'HttpClientOptions',
    'OperationSpec',
    'RequestOptions',
    'SecuritySchemeSpec',
  ],
);

/** `loom/connect`: descriptors, JSON codecs and the Connect client. Runs wherever `fetch` does. */
export const CONNECT = symbols(
  'connect',
  ['createCodecRegistry', 'createConnectClient'],
  ['ConnectClientOptions', 'MessageCodec', 'MessageInit', 'RpcCallOptions', 'RpcMethodDescriptor', 'RpcServiceDescriptor'],
);

/** `loom/connect/server`: the Connect protocol served on Hono. */
export const CONNECT_SERVER = symbols(
  'connect/server',
  ['CONNECT_ERRORS', 'connectCall', 'connectRoutes', 'connectStream'],
  ['ConnectApp', 'ConnectRoutesOptions', 'RpcContext'],
);

/** `loom/grpc`: gRPC over `@grpc/grpc-js`, a peer dependency only gRPC users install. */
export const GRPC = symbols('grpc', ['addGrpcService', 'createGrpcClient'], ['GrpcClientOptions', 'GrpcServer', 'GrpcServiceOptions']);
