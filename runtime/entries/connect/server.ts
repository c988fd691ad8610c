/**
 * @module
 * `loom/connect/server`: the Connect protocol served on Hono.
 */

export { CONNECT_ERRORS, connectCall, connectStream } from '../../rpc/connect-decorated.js';
export type { ConnectApp, ConnectRoutesOptions } from '../../rpc/connect-server.js';
export { connectRoutes } from '../../rpc/connect-server.js';
export type { RpcCode } from '../../rpc/errors.js';
export { RpcError } from '../../rpc/errors.js';
export type { MessageCodec, RpcContext, RpcMethodDescriptor, RpcServiceDescriptor, RpcServiceImpl } from '../../rpc/types.js';
