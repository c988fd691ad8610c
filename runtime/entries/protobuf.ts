/**
 * @module
 * `loom/protobuf`: protobuf binary for the codecs of `loom/connect`, over protobufjs, kept apart so
 * that only code that asks for binary loads it. Pass `protobufBinary` as a Connect client's
 * `binary` option (`application/proto`), or encode and decode a codec's messages directly. Runs
 * wherever protobufjs does (Node, browsers, Deno, Bun).
 *
 * @example
 * ```ts
 * import { createConnectClient } from 'loom/connect';
 * import { protobufBinary } from 'loom/protobuf';
 * const system = createConnectClient(SystemServiceDescriptor, { baseUrl, binary: protobufBinary });
 * const bytes = protobufBinary.encode(GetServiceRequestCodec, { name: 'sshd' });
 * ```
 */
export { protobufBinary } from '../rpc/protobuf-binary.js';
export type { BinaryFormat } from '../rpc/types.js';
