/**
 * @module
 * A fake RPC service for tests, built from the generated descriptor: every method the service
 * has answers `unimplemented` unless the test gives it a body. A test that fakes two methods
 * keeps compiling, and keeps its meaning, when the schema gains a third.
 */
import { RpcError } from '../../runtime/rpc/errors.js';
import type { RpcServiceDescriptor } from '../../runtime/rpc/types.js';

/**
 * The service `S` with the given methods, and every other method of `descriptor` failing with
 * `unimplemented` (as a rejected promise, or for a streaming method a stream that fails).
 *
 * @example
 * const system = fakeService<SystemService>(SystemServiceDescriptor, {
 *   getService: async (request) => ({ displayName: request.name, startType: 2, status: 4 }),
 * });
 */
export function fakeService<S extends object>(descriptor: RpcServiceDescriptor, methods: Partial<S>): S {
  const fake: Record<string, unknown> = {};
  for (const method of Object.values(descriptor.methods)) {
    const refuse = () => new RpcError('unimplemented', `${method.path} is not faked in this test`);
    fake[method.localName] = method.serverStreaming
      ? () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(refuse()) }) })
      : () => Promise.reject(refuse());
  }
  return Object.assign(fake, methods) as S;
}
