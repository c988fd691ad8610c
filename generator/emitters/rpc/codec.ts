/**
 * @module
 * The `rpc-codec` emitter: `X.codec.ts` for proto files. It embeds the protobufjs
 * JSON descriptor of the types the file needs, exports a `MessageCodec` per
 * message it declares, and an `RpcServiceDescriptor` per service whose method
 * table is typed with the request and response messages.
 */
import type { Emitter } from '../../emit.js';
import type { MessageType, SchemaFile } from '../../model/model.js';
import { codecName, methodsTypeName, serviceDescriptorName } from '../names.js';
import { CONNECT } from '../runtime-symbols.js';
import { printLiteral, protoDescriptor } from './descriptor.js';
import { messageTypeSymbol, rpcGeneratedFrom, rpcOperations, rpcPath, rpcServices } from './service-view.js';

function isProto(file: SchemaFile): boolean {
  return file.format === 'proto3' || file.format === 'proto2';
}

/**
 * Emits `X.codec.ts` for every proto file with messages or services.
 *
 * @example
 * ```ts
 * emit(files, [rpcCodecEmitter], options);
 * // system/v1alpha1/system.codec.ts:
 * // export const GetServiceRequestCodec: MessageCodec<GetServiceRequest> = registry.codec('v1alpha1.GetServiceRequest');
 * ```
 */
export const rpcCodecEmitter: Emitter = {
  name: 'rpc-codec',
  emit(file, ctx) {
    if (!isProto(file)) return;
    // Well-known types (google/protobuf/*.proto) are embedded in the descriptors of the files
    // that use them; a codec file of their own would only duplicate them.
    if (file.services.length === 0 && file.types.every((t) => t.kind !== 'message' || t.wellKnown !== undefined)) return;
    const descriptor = protoDescriptor(file);
    if (descriptor === undefined) return;
    const f = ctx.newFile(ctx.outputPath(file, 'codec.ts'), file);
    const messages = file.types.filter((t): t is MessageType => t.kind === 'message');
    // Messages of other files that this file's services use get a local, unexported codec.
    const foreign = new Map<string, MessageType>();
    for (const service of rpcServices(file)) {
      for (const op of rpcOperations(service)) {
        for (const m of [op.input, op.output]) if (m.parent !== file) foreign.set(m.fullName, m);
      }
    }
    const MessageCodec = CONNECT.MessageCodec;
    for (const m of messages) f.declare(codecName(m));

    f.jsDoc('The protobufjs descriptor of the types this file uses (messages, enums, and those they reach).');
    f.print('const descriptor = ', printLiteral(descriptor), ';');
    f.print();
    f.print('const registry = ', CONNECT.createCodecRegistry, '(descriptor);');
    f.print();
    for (const m of messages) {
      f.jsDoc(m.doc, { tags: [`@generated from message ${m.fullName}`] });
      f.print(
        'export const ',
        codecName(m),
        ': ',
        MessageCodec,
        '<',
        messageTypeSymbol(m, ctx),
        '> = registry.codec(',
        f.string(m.fullName),
        ');',
      );
      f.print();
    }
    for (const m of [...foreign.values()].sort((a, b) => (a.fullName < b.fullName ? -1 : 1))) {
      f.print(
        'const ',
        f.declare(codecName(m)),
        ': ',
        MessageCodec,
        '<',
        messageTypeSymbol(m, ctx),
        '> = registry.codec(',
        f.string(m.fullName),
        ');',
      );
      f.print();
    }
    for (const service of rpcServices(file)) {
      const ops = rpcOperations(service);
      const Method = CONNECT.RpcMethodDescriptor;
      f.jsDoc(`The methods of service ${service.fullName}, keyed by local name.`);
      f.print('export type ', methodsTypeName(service), ' = {');
      for (const op of ops) {
        const streaming = [op.clientStreaming ? 'clientStreaming: true' : '', op.serverStreaming ? 'serverStreaming: true' : ''].filter(
          Boolean,
        );
        // Literal `true` flags let `RpcServiceImpl` and `RpcClient` pick the streaming signatures.
        const flags = streaming.length > 0 ? [' & { readonly ', streaming.join('; readonly '), ' }'] : [];
        f.print(
          '  readonly ',
          op.localName,
          ': ',
          Method,
          '<',
          messageTypeSymbol(op.input, ctx),
          ', ',
          messageTypeSymbol(op.output, ctx),
          '>',
          flags,
          ';',
        );
      }
      f.print('};');
      f.print();
      f.jsDoc(service.doc, { tags: [`@generated from service ${service.fullName}`] });
      f.print('export const ', serviceDescriptorName(service), ': ', CONNECT.RpcServiceDescriptor, '<', methodsTypeName(service), '> = {');
      f.print('  typeName: ', f.string(service.fullName), ',');
      f.print('  methods: {');
      for (const op of ops) {
        f.jsDoc(op.doc, { indent: '    ', tags: [rpcGeneratedFrom(op)] });
        f.print('    ', op.localName, ': {');
        f.print('      name: ', f.string(op.name), ',');
        f.print('      localName: ', f.string(op.localName), ',');
        f.print('      path: ', f.string(rpcPath(op)), ',');
        f.print('      clientStreaming: ', op.clientStreaming, ',');
        f.print('      serverStreaming: ', op.serverStreaming, ',');
        f.print('      input: ', codecName(op.input), ',');
        f.print('      output: ', codecName(op.output), ',');
        f.print('    },');
      }
      f.print('  },');
      f.print('};');
      f.print();
    }
  },
};
