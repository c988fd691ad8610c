/**
 * @module
 * Finding contracts: the interfaces `loom generate` writes into `X.server.ts` for hand-written
 * code to implement, recognised by their JSDoc: `@generated from tag …` (an HTTP service,
 * methods `(input, ctx: Context): Promise<HandlerResult<T>>`) or `@generated from service …` (an
 * RPC service, methods `(request, ctx: RpcContext): Promise<R>`, or `AsyncIterable<R>` when
 * they stream). Each method's types are kept as text plus the names in it, resolved to their
 * declarations, so they can be written again in another file with that file's imports.
 */
import { dirname, join } from 'node:path';
import type { JSDocableNode, ts as Ts } from 'ts-morph';
import { isLoomFile } from './generated-files.js';
import type { ParsedFile, Resolved, Resolver } from './modules.js';
import { lineOfNode } from './modules.js';

/** Where a name in a contract can be imported from, as the contract file gets it. */
export type Origin =
  /** Declared in the file at `path` (a TypeScript source: the importer picks the extension). */
  | { readonly kind: 'file'; readonly path: string; readonly name: string }
  /** Imported by the contract through a relative specifier, here made absolute (extension kept). */
  | { readonly kind: 'path'; readonly path: string; readonly name: string }
  /** Imported from a package (`loom/rest`), as is. */
  | { readonly kind: 'package'; readonly spec: string; readonly name: string };

/** A name in a type's text (`IssueGetIssueInput`, `ns.X`) and what it stands for. */
export interface TypeRef {
  /** Offsets in {@link TypeText.text}. */
  readonly start: number;
  readonly end: number;
  readonly target: Extract<Resolved, { kind: 'symbol' }>;
  readonly origin: Origin;
}

/** A type as written in the contract; names of globals (`Promise`) have no ref. */
export interface TypeText {
  readonly text: string;
  readonly refs: readonly TypeRef[];
}

export interface ContractMethod {
  readonly name: string;
  readonly line: number;
  readonly params: readonly { readonly name: string; readonly optional: boolean; readonly type: TypeText }[];
  readonly returns: TypeText;
  /** The schema's description of the operation or RPC, if any. */
  readonly doc: string | undefined;
  /** `operation issueGetIssue (GET /repos/…)` or `rpc v1alpha1.System.GetService`. */
  readonly from: string;
  /** What the failing stub names: the operation id, or `<Service>.<Method>` with the full service name. */
  readonly label: string;
  /** The result is a promise: the stub is an `async` method. */
  readonly promise: boolean;
  /** The types with every name resolved, for comparing methods of two contracts. */
  readonly signature: string;
}

export interface Contract {
  readonly kind: 'http' | 'rpc';
  readonly name: string;
  /** `file#name`, as {@link Resolver} identifies declarations. */
  readonly key: string;
  readonly file: string;
  readonly line: number;
  /** `tag issue` or `service v1alpha1.System`. */
  readonly from: string;
  readonly doc: string | undefined;
  readonly methods: readonly ContractMethod[];
  /**
   * Where the failing stubs' `HttpError` / `RpcError` comes from: the runtime module the contract
   * imports `HandlerResult` or `Context` (HTTP) or `RpcContext` (RPC) from.
   */
  readonly error: {
    readonly name: 'HttpError' | 'RpcError';
    readonly origin: Origin;
    readonly target: Extract<Resolved, { kind: 'symbol' }>;
  };
}

/** The tag `loom generate` puts on every contract interface. */
const CONTRACT_TAG = /^from (tag|service) (.+)$/;

/**
 * The contracts a generated `X.server.ts` declares, in file order.
 *
 * @example
 * readContracts(files.get('/repo/generated/issues/openapi.server.ts')!, resolver);
 * // [{ kind: 'http', name: 'AdminApi', methods: [{ name: 'adminCreateUser', … }], … }, …]
 */
export function readContracts(file: ParsedFile, resolver: Resolver): Contract[] {
  const contracts: Contract[] = [];
  for (const iface of file.source.getInterfaces()) {
    if (!iface.isExported()) continue;
    const tag = generatedTag(iface);
    const match = tag === undefined ? null : CONTRACT_TAG.exec(tag);
    if (!match) continue;
    const kind = match[1] === 'tag' ? 'http' : 'rpc';
    const methods = iface.getMethods().map((m): ContractMethod => {
      const from = (generatedTag(m) ?? '').replace(/^from /, '');
      const params = m.getParameters().map((p) => ({
        name: p.getName(),
        optional: p.hasQuestionToken(),
        type: typeText(file, p.getTypeNode()?.compilerNode, resolver),
      }));
      const returns = typeText(file, m.getReturnTypeNode()?.compilerNode, resolver);
      return {
        name: m.getName(),
        line: lineOfNode(m),
        params,
        returns,
        doc: description(m),
        from,
        label: kind === 'http' ? (/^operation (\S+)/.exec(from)?.[1] ?? m.getName()) : (/^rpc (\S+)/.exec(from)?.[1] ?? m.getName()),
        promise: /^Promise\s*</.test(returns.text),
        signature: `(${params.map((p) => resolvedText(p.type)).join(', ')}) => ${resolvedText(returns)}`,
      };
    });
    // The client interfaces carry the same tag; a contract is what a server implements: every
    // method takes the call's context last, from the runtime module the stubs' error comes from.
    const error = errorSource(file, kind, resolver);
    const context = kind === 'http' ? 'Context' : 'RpcContext';
    if (!error || !methods.every((m) => m.params.at(-1)?.type.text === context)) continue;
    contracts.push({
      kind,
      name: iface.getName(),
      key: `${file.path}#${iface.getName()}`,
      file: file.path,
      line: lineOfNode(iface),
      from: `${match[1]} ${match[2]}`,
      doc: description(iface),
      methods,
      error,
    });
  }
  return contracts;
}

/**
 * Contracts by key, read from their files on first use: the files of `--contracts`, and any
 * generated file a class reaches through its `implements` clause.
 */
export class ContractIndex {
  readonly #resolver: Resolver;
  readonly #byFile = new Map<string, Contract[]>();

  constructor(resolver: Resolver) {
    this.#resolver = resolver;
  }

  /** Every contract of a file (none for a file that is not Loom's or does not parse). */
  inFile(path: string): Contract[] {
    let contracts = this.#byFile.get(path);
    if (!contracts) {
      const text = this.#resolver.files.text(path);
      const parsed = text !== undefined && isLoomFile(text) ? this.#resolver.files.get(path) : undefined;
      contracts = parsed && parsed.syntaxErrors.length === 0 ? readContracts(parsed, this.#resolver) : [];
      this.#byFile.set(path, contracts);
    }
    return contracts;
  }

  /** The contract a resolved name stands for, if it is one. */
  get(target: Resolved | undefined): Contract | undefined {
    if (target?.kind !== 'symbol' || target.module.includes(':')) return undefined;
    return this.inFile(target.module).find((c) => c.key === target.key);
  }
}

function generatedTag(node: JSDocableNode): string | undefined {
  for (const doc of node.getJsDocs()) {
    for (const tag of doc.getTags()) if (tag.getTagName() === 'generated') return tag.getCommentText()?.trim();
  }
  return undefined;
}

function description(node: JSDocableNode): string | undefined {
  const text = node
    .getJsDocs()
    .map((d) => d.getDescription().trim())
    .filter((d) => d !== '')
    .join('\n\n');
  return text === '' ? undefined : text;
}

/** The text of a type node, with every name in it resolved. */
function typeText(file: ParsedFile, node: Ts.TypeNode | undefined, resolver: Resolver): TypeText {
  if (!node) return { text: 'unknown', refs: [] };
  const ts = resolver.files.ts;
  const sf = file.source.compilerNode;
  const start = node.getStart(sf);
  const refs: TypeRef[] = [];
  const visit = (n: Ts.Node): void => {
    const name = ts.isTypeReferenceNode(n) ? n.typeName : ts.isExpressionWithTypeArguments(n) ? n.expression : undefined;
    if (name) {
      const text = name.getText(sf);
      const target = resolver.entity(file.path, text, 'type');
      if (target?.kind === 'symbol') {
        refs.push({ start: name.getStart(sf) - start, end: name.getEnd() - start, target, origin: originOf(file, text) });
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return { text: node.getText(sf), refs };
}

/** Where the contract file gets a name from: its own declaration, or the import that binds it. */
function originOf(file: ParsedFile, text: string): Origin {
  const [first, member] = text.split('.');
  const binding = file.module.imports.get(first!);
  if (!binding) return { kind: 'file', path: file.path, name: first! };
  const name = binding.kind === 'namespace' ? (member ?? first!) : binding.imported;
  if (binding.spec.startsWith('.') || binding.spec.startsWith('/')) {
    return { kind: 'path', path: join(dirname(file.path), binding.spec), name };
  }
  return { kind: 'package', spec: binding.spec, name };
}

function errorSource(file: ParsedFile, kind: 'http' | 'rpc', resolver: Resolver): Contract['error'] | undefined {
  const names = kind === 'http' ? ['HandlerResult', 'Context'] : ['RpcContext'];
  const binding = names.map((n) => file.module.imports.get(n)).find((b) => b?.kind === 'named');
  if (!binding) return undefined;
  const name = kind === 'http' ? 'HttpError' : 'RpcError';
  const origin: Origin =
    binding.spec.startsWith('.') || binding.spec.startsWith('/')
      ? { kind: 'path', path: join(dirname(file.path), binding.spec), name }
      : { kind: 'package', spec: binding.spec, name };
  const found = resolver.exported(resolver.resolveModule(file.path, binding.spec), name, 'value');
  // A runtime module that does not say it exports the error class (or a namespace by that name)
  // still is where the contract points: the stub imports it from there.
  const target = found?.kind === 'symbol' ? found : { kind: 'symbol' as const, key: `${binding.spec}#${name}`, module: binding.spec, name };
  return { name, origin, target };
}

/** A type's text with each name replaced by its declaration's key, for comparisons. */
function resolvedText(type: TypeText): string {
  let out = '';
  let from = 0;
  for (const ref of type.refs) {
    out += `${type.text.slice(from, ref.start)}{${ref.target.key}}`;
    from = ref.end;
  }
  return (out + type.text.slice(from)).replace(/\s+/g, ' ');
}
