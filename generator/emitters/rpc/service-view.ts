/**
 * @module
 * Names and import symbols shared by the RPC parts of the `rpc-codec`, `server`,
 * `client` and `grpc` emitters, so the four files agree on what they export.
 */
import type { EmitContext } from '../../emit.js';
import type { MessageType, RpcOperation, SchemaFile, Service } from '../../model/model.js';
import type { ImportSymbol } from '../../printer/generated-file.js';
import { importSymbol } from '../../printer/generated-file.js';

/** The message's TypeScript type, from the types file of the schema file declaring it. */
export function messageTypeSymbol(message: MessageType, ctx: EmitContext): ImportSymbol {
  return importSymbol(message.localName, `/${ctx.outputPath(message.parent, 'types.ts')}`, { typeOnly: true });
}

/** A symbol exported by `file`'s generated `X.codec.ts`. */
export function codecFileSymbol(name: string, file: SchemaFile, ctx: EmitContext, typeOnly = false): ImportSymbol {
  return importSymbol(name, `/${ctx.outputPath(file, 'codec.ts')}`, { typeOnly });
}

/** RPC services of a file (proto services). */
export function rpcServices(file: SchemaFile): Service[] {
  return file.services.filter((s) => s.protocol === 'rpc');
}

/** The RPC operations of a service. */
export function rpcOperations(service: Service): RpcOperation[] {
  return service.operations.filter((op): op is RpcOperation => op.kind === 'rpc');
}

/** `/v1alpha1.System/GetService`: the Connect route and gRPC method path. */
export function rpcPath(op: RpcOperation): string {
  return `/${op.parent.fullName}/${op.name}`;
}

/** `@generated from rpc v1alpha1.System.GetService` */
export function rpcGeneratedFrom(op: RpcOperation): string {
  return `@generated from rpc ${op.parent.fullName}.${op.name}`;
}

/**
 * A name with its indefinite article, for generated prose: `a SystemService`, `an OrderService`,
 * `an HTTPProxy` (an initialism is read letter by letter), `a UserService`, `a URLService`.
 * A heuristic of English spelling, not a dictionary; `capital` starts a sentence.
 * @example withArticle('OrderService') // 'an OrderService'
 */
export function withArticle(name: string, capital = false): string {
  const article = startsWithVowelSound(name) ? 'an' : 'a';
  return `${capital ? article.charAt(0).toUpperCase() + article.slice(1) : article} ${name}`;
}

function startsWithVowelSound(name: string): boolean {
  // Initialisms: the letters whose names start with a vowel sound (eff, aitch, ell, em, …; not "you").
  if (/^[A-Z][A-Z0-9]/.test(name)) return /^[AEFHILMNORSX]/.test(name);
  // "a one…", "a euro…", "a user…", "a unit…": vowels read as consonants.
  if (/^(?:one|eu|u[bcdfgjklmnpqrstvwxz][aeiou])/i.test(name)) return false;
  return /^(?:[aeiou]|hour|honest|honou?r|heir)/i.test(name);
}
