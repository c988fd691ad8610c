/**
 * @module
 * Bearer-token access for the System service (`SYSTEM_TOKEN`): StartService and StopService
 * change node state, so a deployment can demand `Authorization: Bearer <token>` on both
 * transports (gRPC metadata `authorization` is the same header). Plug the returned function into
 * the RPC runtime's `authorize` hook of `connectRoutes` and `addGrpcService`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { type RpcContext, RpcError } from '../rpc/index.js';
import { bearerTokenProblem } from './token-syntax.js';

/**
 * Returns an authorize hook that refuses calls without the token with UNAUTHENTICATED.
 * The comparison runs in constant time over SHA-256 digests, so neither content nor length of the
 * token leaks through timing.
 *
 * @example
 * ```ts
 * const authorize = requireBearerToken(process.env.SYSTEM_TOKEN!);
 * app.route('/', connectRoutes(SystemServiceDescriptor, handler, { authorize }));
 * ```
 */
export function requireBearerToken(token: string): (ctx: Pick<RpcContext, 'headers'>) => void {
  // A token no header can carry would refuse every caller; say so now rather than at each call.
  const problem = bearerTokenProblem(token);
  if (problem !== undefined) throw new Error(`requireBearerToken: the token ${problem}`);
  const expected = digest(token);
  return function authorizeBearerToken(ctx) {
    const header = ctx.headers.get('authorization');
    if (header === null) throw new RpcError('unauthenticated', 'this service requires "authorization: Bearer <token>"');
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match || !timingSafeEqual(digest(match[1]!), expected)) {
      throw new RpcError('unauthenticated', 'invalid bearer token');
    }
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
