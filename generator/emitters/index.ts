/**
 * @module
 * Every built-in emitter, in the order they run. Emitters are independent (each
 * reads the model and writes its own files), so the order only decides the order
 * warnings are reported in. Plugins (`loom generate --plugin`) run after these.
 */
import type { Emitter } from '../emit.js';
import { clientEmitter } from './client.js';
import { openapiDocEmitter } from './openapi-doc/document.js';
import { rpcCodecEmitter } from './rpc/codec.js';
import { grpcEmitter } from './rpc/grpc.js';
import { serverEmitter } from './server.js';
import { typesEmitter } from './types/types.js';
import { validatorsEmitter } from './validators/validators.js';

/**
 * The built-in emitters.
 *
 * @example
 * emit(files, BUILTIN_EMITTERS, { runtimeImport: 'loom', templates: loadTemplates() });
 */
export const BUILTIN_EMITTERS: readonly Emitter[] = [
  typesEmitter,
  validatorsEmitter,
  serverEmitter,
  clientEmitter,
  rpcCodecEmitter,
  grpcEmitter,
  openapiDocEmitter,
];

export { clientEmitter, grpcEmitter, openapiDocEmitter, rpcCodecEmitter, serverEmitter, typesEmitter, validatorsEmitter };
