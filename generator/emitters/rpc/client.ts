/**
 * @module
 * The RPC half of the `client` emitter: per proto service, a `SystemClient`
 * interface with one documented method per RPC, and the factory of a Connect client
 * that implements it (fetch; all four kinds, a bidirectional stream half-duplex). The
 * gRPC client implements the same interface from `X.grpc.ts` (`grpc.ts`).
 */
import type { EmitContext } from '../../emit.js';
import type { MessageType, Service } from '../../model/model.js';
import type { GeneratedFile, Printable } from '../../printer/generated-file.js';
import { connectClientFactoryName, rpcClientInterfaceName, serviceDescriptorName } from '../names.js';
import { CONNECT } from '../runtime-symbols.js';
import { globalTypeName, OBJECT_PROTOTYPE_MEMBERS } from '../types/render.js';
import { codecFileSymbol, messageTypeSymbol, rpcGeneratedFrom, rpcOperations, withArticle } from './service-view.js';

/**
 * `Partial`, or the runtime's `MessageInit` for a message with a field named like a member of
 * `Object` (`constructor`, `toString`…): with `Partial`, TypeScript would reject `{ id: 'a' }`
 * because the literal's inherited `constructor` is not the field's type.
 */
function requestInit(message: MessageType): Printable {
  return message.fields.some((f) => OBJECT_PROTOTYPE_MEMBERS.has(f.localName)) ? CONNECT.MessageInit : 'Partial';
}

/** Prints the client interface and factories of one RPC service. */
export function printRpcClient(f: GeneratedFile, service: Service, ctx: EmitContext): void {
  const name = service.localName;
  const iface = f.declare(rpcClientInterfaceName(service));
  const CallOptions = CONNECT.RpcCallOptions;
  const descriptor = codecFileSymbol(serviceDescriptorName(service), service.parent, ctx);
  const lower = name.charAt(0).toLowerCase() + name.slice(1);
  // A message named `AsyncIterable` would shadow the global the streaming methods need.
  const asyncIterable = globalTypeName('AsyncIterable', service.parent);

  f.jsDoc(`A typed ${service.name} client; the Connect and gRPC clients both implement it.`, {
    tags: [`@generated from service ${service.fullName}`],
  });
  f.print('export interface ', iface, ' {');
  for (const op of rpcOperations(service)) {
    const input: Printable = messageTypeSymbol(op.input, ctx);
    const output: Printable = messageTypeSymbol(op.output, ctx);
    const result: Printable = op.serverStreaming ? [asyncIterable, '<', output, '>'] : ['Promise<', output, '>'];
    const tags = [rpcGeneratedFrom(op)];
    if (op.deprecated) tags.unshift('@deprecated');
    f.jsDoc(op.doc, { indent: '  ', tags });
    const init = requestInit(op.input);
    const request: Printable = op.clientStreaming
      ? ['requests: ', asyncIterable, '<', init, '<', input, '>>']
      : ['request?: ', init, '<', input, '>'];
    f.print('  ', op.localName, '(', request, ', options?: ', CallOptions, '): ', result, ';');
  }
  f.print('}');
  f.print();

  f.jsDoc(
    `${withArticle(service.name, true)} client over the Connect protocol: JSON, ` +
      `or binary with \`binary: protobufBinary\` from \`loom/protobuf\`.`,
    {
      tags: ['@example', `const ${lower} = ${connectClientFactoryName(service)}({ baseUrl: 'http://localhost:3000' });`],
    },
  );
  f.print('export function ', f.declare(connectClientFactoryName(service)), '(options: ', CONNECT.ConnectClientOptions, '): ', iface, ' {');
  f.print('  return ', CONNECT.createConnectClient, '(', descriptor, ', options);');
  f.print('}');
  f.print();
}
