/**
 * @module
 * The `grpc` emitter: `X.grpc.ts` per proto file with services, holding everything of a service
 * that speaks gRPC through `@grpc/grpc-js`: the binder that adds a `SystemService` to a grpc-js
 * server and the factory of a gRPC client implementing `SystemClient`. Kept apart from
 * `X.server.ts` and `X.client.ts` so that importing those never loads grpc-js, a peer dependency
 * only gRPC users install, and a Connect client stays fit for browsers.
 */
import type { EmitContext, Emitter } from '../../emit.js';
import type { Service } from '../../model/model.js';
import type { GeneratedFile } from '../../printer/generated-file.js';
import { importSymbol } from '../../printer/generated-file.js';
import {
  grpcBinderName,
  grpcClientFactoryName,
  methodsTypeName,
  rpcClientInterfaceName,
  rpcServiceInterfaceName,
  serviceDescriptorName,
} from '../names.js';
import { GRPC } from '../runtime-symbols.js';
import { codecFileSymbol, rpcServices, withArticle } from './service-view.js';

export const grpcEmitter: Emitter = {
  name: 'grpc',
  emit(file, ctx) {
    const services = rpcServices(file);
    if (services.length === 0) return;
    const f = ctx.newFile(ctx.outputPath(file, 'grpc.ts'), file);
    for (const service of services) printGrpcService(f, service, ctx);
  },
};

function printGrpcService(f: GeneratedFile, service: Service, ctx: EmitContext): void {
  const name = service.localName;
  const lower = name.charAt(0).toLowerCase() + name.slice(1);
  const descriptor = codecFileSymbol(serviceDescriptorName(service), service.parent, ctx);
  const iface = importSymbol(rpcServiceInterfaceName(service), `/${ctx.outputPath(service.parent, 'server.ts')}`, { typeOnly: true });
  const client = importSymbol(rpcClientInterfaceName(service), `/${ctx.outputPath(service.parent, 'client.ts')}`, { typeOnly: true });

  f.jsDoc(`Adds ${withArticle(rpcServiceInterfaceName(service))} to a grpc-js server under \`/${service.fullName}/<Method>\`.`, {
    tags: ['@example', `${grpcBinderName(service)}(server, new ${name}Handler(), { authorize });`],
  });
  f.print(
    'export function ',
    f.declare(grpcBinderName(service)),
    '(server: ',
    GRPC.GrpcServer,
    ', impl: ',
    iface,
    ', options?: ',
    GRPC.GrpcServiceOptions,
    '): void {',
  );
  f.print('  ', GRPC.addGrpcService, '(server, ', descriptor, ', impl, options);');
  f.print('}');
  f.print();
  f.jsDoc(
    `${withArticle(service.name, true)} client over gRPC; \`address\` is a grpc-js target such as \`127.0.0.1:50051\`` +
      ' or `unix:/run/loom.sock`.',
    { tags: ['@example', `const ${lower} = ${grpcClientFactoryName(service)}('unix:/run/loom/${lower}.sock');`] },
  );
  f.print(
    'export function ',
    f.declare(grpcClientFactoryName(service)),
    '(address: string, options?: ',
    GRPC.GrpcClientOptions,
    '): ',
    client,
    ' & { close(): void } {',
  );
  f.print(
    '  return ',
    GRPC.createGrpcClient,
    '<',
    codecFileSymbol(methodsTypeName(service), service.parent, ctx, true),
    '>(',
    descriptor,
    ', address, options);',
  );
  f.print('}');
  f.print();
}
