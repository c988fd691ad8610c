/**
 * @module
 * How an RPC is described in OpenAPI: the Connect protocol's unary HTTP mapping
 * (`POST /{package}.{Service}/{Method}`, JSON or binary proto bodies, errors as
 * `{ code, message }` JSON). Streaming RPCs are documented with Connect's enveloped
 * media types and marked `x-streaming`.
 * @see https://connectrpc.com/docs/protocol
 */
import type { RpcOperation } from '../../model/model.js';
import type { JsonSchema } from '../json-schema/index.js';

/** `components/schemas` key of the Connect error body. */
export const CONNECT_ERROR_SCHEMA = 'connect.error';

/** Connect error codes, as the `code` of an error body. */
export const CONNECT_CODES = [
  'canceled',
  'unknown',
  'invalid_argument',
  'deadline_exceeded',
  'not_found',
  'already_exists',
  'permission_denied',
  'resource_exhausted',
  'failed_precondition',
  'aborted',
  'out_of_range',
  'unimplemented',
  'internal',
  'unavailable',
  'data_loss',
  'unauthenticated',
] as const;

/** The Connect error body schema. */
export function connectErrorSchema(): JsonSchema {
  return {
    type: 'object',
    description: 'A Connect error. The HTTP status follows from `code` (e.g. `not_found` → 404, `invalid_argument` → 400).',
    properties: {
      code: { type: 'string', enum: [...CONNECT_CODES] },
      message: { type: 'string', description: 'A developer-facing error message.' },
      details: {
        type: 'array',
        items: {
          type: 'object',
          properties: { type: { type: 'string' }, value: { type: 'string', description: 'base64 of the detail message' } },
        },
      },
    },
    required: ['code'],
  };
}

/** `/v1alpha1.System/GetService`: the route Connect serves an RPC on. */
export function connectPath(op: RpcOperation): string {
  return `/${op.parent.fullName}/${op.name}`;
}

/**
 * The OpenAPI operation object for one RPC.
 *
 * @example
 * rpcOperation(getService, (t) => `#/components/schemas/${t.fullName}`);
 * // { tags: ['v1alpha1.System'], operationId: 'v1alpha1.System.GetService', requestBody: …, responses: … }
 */
export function rpcOperation(op: RpcOperation, messageSchema: (which: 'input' | 'output') => JsonSchema): JsonSchema {
  const streaming = op.clientStreaming || op.serverStreaming;
  const json = streaming ? 'application/connect+json' : 'application/json';
  const proto = streaming ? 'application/connect+proto' : 'application/proto';
  const binary: JsonSchema = { type: 'string', format: 'binary' };
  const operation: JsonSchema = {
    tags: [op.parent.fullName],
    summary: op.name,
    operationId: `${op.parent.fullName}.${op.name}`,
  };
  if (op.doc) operation.description = op.doc;
  if (op.deprecated) operation.deprecated = true;
  operation.parameters = [
    {
      name: 'Connect-Protocol-Version',
      in: 'header',
      required: false,
      description: 'Connect protocol version; clients send `1`.',
      schema: { type: 'string', const: '1' },
    },
    {
      name: 'Connect-Timeout-Ms',
      in: 'header',
      required: false,
      description: 'Deadline for the call, in milliseconds.',
      schema: { type: 'string', pattern: '^[0-9]{1,10}$' },
    },
  ];
  operation.requestBody = {
    required: true,
    description: streaming ? 'A stream of enveloped request messages.' : undefined,
    content: { [json]: { schema: messageSchema('input') }, [proto]: { schema: binary } },
  };
  operation.responses = {
    '200': {
      description: streaming ? 'A stream of enveloped response messages.' : 'The response message.',
      content: { [json]: { schema: messageSchema('output') }, [proto]: { schema: binary } },
    },
    default: {
      description: 'A Connect error.',
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${CONNECT_ERROR_SCHEMA}` } } },
    },
  };
  if (streaming) operation['x-streaming'] = op.clientStreaming && op.serverStreaming ? 'bidi' : op.clientStreaming ? 'client' : 'server';
  return operation;
}
