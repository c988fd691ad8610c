/**
 * @module
 * The `client` emitter: `X.client.ts` with a typed client per service — a fetch
 * client class for HTTP services, Connect and gRPC clients for RPC services.
 */
import type { Emitter } from '../emit.js';
import { assertNever } from '../model/type-utils.js';
import { printHttpClient } from './http/client.js';
import { httpClientClassName, rpcClientInterfaceName } from './names.js';
import { printRpcClient } from './rpc/client.js';

/**
 * Emits `X.client.ts` for every schema file with services.
 *
 * @example
 * ```ts
 * emit(files, [clientEmitter], options);
 * // issues.client.ts: class IssueClient { issueGetIssue(input, options?): Promise<Issue> … }
 * // system.client.ts: createSystemConnectClient(options), createSystemGrpcClient(address, options?)
 * ```
 */
export const clientEmitter: Emitter = {
  name: 'client',
  emit(file, ctx) {
    if (file.services.length === 0) return;
    const f = ctx.newFile(ctx.outputPath(file, 'client.ts'), file);
    // Every class this file declares, before anything is imported: an imported type of the same
    // name (a schema called `LongviewClient`) is then aliased rather than clashing.
    for (const service of file.services)
      f.declare(service.protocol === 'http' ? httpClientClassName(service) : rpcClientInterfaceName(service));
    for (const service of file.services) {
      switch (service.protocol) {
        case 'rpc':
          printRpcClient(f, service, ctx);
          break;
        case 'http':
          printHttpClient(f, service, ctx);
          break;
        default:
          assertNever(service.protocol, 'service protocol');
      }
    }
  },
};
