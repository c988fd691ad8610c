/**
 * @module
 * The `server` emitter: `X.server.ts` with, per service, what a hand-written
 * handler implements and the code that binds it to the wire — decorated routes
 * for HTTP services (contracts.md §3), Connect and gRPC binders for RPC services.
 */
import type { Emitter } from '../emit.js';
import type { HttpOperation, Service } from '../model/model.js';
import { assertNever } from '../model/type-utils.js';
import { printHttpService } from './http/server.js';
import { connectRoutesClassName, handlerInterfaceName, inputTypeName, routesClassName, rpcServiceInterfaceName } from './names.js';
import { printRpcService } from './rpc/server.js';

/**
 * Emits `X.server.ts` for every schema file with services.
 *
 * @example
 * ```ts
 * emit(files, [typesEmitter, validatorsEmitter, rpcCodecEmitter, serverEmitter], options);
 * // system/v1alpha1/system.server.ts: interface SystemService, systemConnectRoutes(), addSystemServiceToGrpc()
 * ```
 */
export const serverEmitter: Emitter = {
  name: 'server',
  emit(file, ctx) {
    if (file.services.length === 0) return;
    const f = ctx.newFile(ctx.outputPath(file, 'server.ts'), file);
    // Every name this file declares, before anything is imported (see client.ts).
    for (const service of file.services) for (const name of declaredNames(service)) f.declare(name);
    for (const service of file.services) {
      switch (service.protocol) {
        case 'rpc':
          printRpcService(f, service, ctx);
          break;
        case 'http':
          printHttpService(f, service, ctx);
          break;
        default:
          assertNever(service.protocol, 'service protocol');
      }
    }
  },
};

/** The names a service's part of `X.server.ts` declares. */
function declaredNames(service: Service): string[] {
  if (service.protocol === 'rpc') return [rpcServiceInterfaceName(service), connectRoutesClassName(service)];
  const ops = service.operations.filter((op): op is HttpOperation => op.kind === 'http');
  return [handlerInterfaceName(service), routesClassName(service), ...ops.map(inputTypeName)];
}
