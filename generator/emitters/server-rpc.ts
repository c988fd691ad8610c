/**
 * @module
 * The RPC half of the `server` emitter: per proto service, the `SystemService`
 * interface a handler implements and two binders, one for Connect on Hono and
 * one for a grpc-js server, both over the descriptor in `X.codec.ts`.
 */
import type { EmitContext } from '../emit.js';
import type { Service } from '../model/model.js';
import { importSymbol } from '../printer/generated-file.js';
import type { GeneratedFile, Printable } from '../printer/generated-file.js';
import { codecFileSymbol, messageTypeSymbol, rpcGeneratedFrom, rpcOperations, serviceDescriptorName } from './rpc-names.js';
import { globalTypeName } from './types-render.js';

const RUNTIME = 'runtime:server';

/** `SystemService` */
export function rpcServiceInterfaceName(service: Service): string {
  return `${service.localName}Service`;
}

/** Prints the interface and binders of one RPC service. */
export function printRpcService(f: GeneratedFile, service: Service, ctx: EmitContext): void {
  const iface = f.declare(rpcServiceInterfaceName(service));
  const RpcContext = importSymbol('RpcContext', RUNTIME, { typeOnly: true });
  const descriptor = codecFileSymbol(serviceDescriptorName(service), service.parent, ctx);
  const lower = service.localName.charAt(0).toLowerCase() + service.localName.slice(1);
  // A message named `AsyncIterable` would shadow the global the streaming methods need.
  const asyncIterable = globalTypeName('AsyncIterable', service.parent);

  f.jsDoc(service.doc ?? `What a hand-written ${service.name} implementation provides; served over Connect and gRPC alike.`, {
    tags: [`@generated from service ${service.fullName}`],
  });
  f.print('export interface ', iface, ' {');
  for (const op of rpcOperations(service)) {
    const input: Printable = messageTypeSymbol(op.input, ctx);
    const output: Printable = messageTypeSymbol(op.output, ctx);
    const request: Printable = op.clientStreaming ? ['requests: ', asyncIterable, '<', input, '>'] : ['request: ', input];
    const result: Printable = op.serverStreaming ? [asyncIterable, '<', output, '>'] : ['Promise<', output, '>'];
    const tags = [rpcGeneratedFrom(op)];
    if (op.deprecated) tags.unshift('@deprecated');
    f.jsDoc(op.doc, { indent: '  ', tags });
    f.print('  ', op.localName, '(', request, ', ctx: ', RpcContext, '): ', result, ';');
  }
  f.print('}');
  f.print();

  // Connect is bound with `connectRoutes` rather than through the decorator runtime: the
  // protocol needs the raw body in two encodings, its own error shape and deadline header,
  // which a dedicated fetch handler does in one pass with nothing to look up per request.
  f.jsDoc([
    `Serves a ${iface} over the Connect protocol (\`POST /${service.fullName}/<Method>\`, JSON and binary).`,
    'Mount the returned app with `app.route(\'/\', …)`.',
  ].join('\n'), { tags: ['@example', `app.route('/', ${lower}ConnectRoutes(new ${service.localName}Handler()));`] });
  f.print('export function ', f.declare(`${lower}ConnectRoutes`), '(impl: ', iface, ', options?: ', importSymbol('ConnectRoutesOptions', RUNTIME, { typeOnly: true }), '): ', importSymbol('ConnectApp', RUNTIME, { typeOnly: true }), ' {');
  f.print('  return ', importSymbol('connectRoutes', RUNTIME), '(', descriptor, ', impl, options);');
  f.print('}');
  f.print();
  f.jsDoc(`Adds a ${iface} to a grpc-js server under \`/${service.fullName}/<Method>\`.`, {
    tags: ['@example', `add${service.localName}ServiceToGrpc(server, new ${service.localName}Handler(), { authorize });`],
  });
  f.print('export function ', f.declare(`add${service.localName}ServiceToGrpc`), '(server: ', importSymbol('GrpcServer', RUNTIME, { typeOnly: true }), ', impl: ', iface, ', options?: ', importSymbol('GrpcServiceOptions', RUNTIME, { typeOnly: true }), '): void {');
  f.print('  ', importSymbol('addGrpcService', RUNTIME), '(server, ', descriptor, ', impl, options);');
  f.print('}');
  f.print();
}
