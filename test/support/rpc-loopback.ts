/**
 * @module Binds a grpc-js server on 127.0.0.1 at an ephemeral port, for tests that start one.
 */
import * as grpc from '@grpc/grpc-js';

/**
 * Binds `server` on loopback, without TLS, and resolves to the `host:port` clients dial.
 *
 * @example
 * const address = await bindLoopback(grpcServer); // '127.0.0.1:40123'
 */
export async function bindLoopback(server: grpc.Server): Promise<string> {
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, p) => (error ? reject(error) : resolve(p))),
  );
  return `127.0.0.1:${port}`;
}
