/**
 * @module
 * Finding implementing classes: every top-level class whose `implements` clause names a
 * generated contract, however the file reaches it (a direct import, a rename, a namespace
 * import of a file of re-exports), with the members it already has, its base classes' included.
 * Also which contracts a file refers to at all: a service implemented by a plain object
 * (`const impl: HealthService = { … }`) has an implementation, just not a class to extend.
 */
import type { ClassDeclaration } from 'ts-morph';
import type { Contract, ContractIndex } from './contracts.js';
import type { ParsedFile, Resolver } from './modules.js';
import { lineOfNode } from './modules.js';

export interface ImplementingClass {
  readonly file: ParsedFile;
  readonly node: ClassDeclaration;
  readonly name: string;
  readonly line: number;
  /** The contracts it implements, in `implements` order. */
  readonly contracts: readonly Contract[];
  /**
   * Names of its members and its base classes' members; `undefined` when a base class cannot be
   * read (from a package), so that nothing it may declare is added again.
   */
  readonly members: ReadonlySet<string> | undefined;
  /** The base class that could not be read, when {@link members} is `undefined`. */
  readonly unreadableBase: string | undefined;
}

/**
 * The classes of a file that implement contracts.
 *
 * @example
 * findClasses(files.get('/repo/runtime/system/system-handler.ts')!, resolver, contracts);
 * // [{ name: 'SystemHandler', contracts: [SystemService], members: Set { 'getService', … } }]
 */
export function findClasses(file: ParsedFile, resolver: Resolver, contracts: ContractIndex): ImplementingClass[] {
  const found: ImplementingClass[] = [];
  for (const node of file.source.getClasses()) {
    const implemented = node
      .getImplements()
      .map((clause) => contracts.get(resolver.entity(file.path, clause.getExpression().getText(), 'type')))
      .filter((c): c is Contract => c !== undefined);
    if (implemented.length === 0) continue;
    const members = new Set<string>();
    const unreadableBase = collectMembers(file, node, resolver, members, new Set());
    found.push({
      file,
      node,
      name: node.getName() ?? 'default',
      line: lineOfNode(node),
      contracts: [...new Map(implemented.map((c) => [c.key, c])).values()],
      members: unreadableBase === undefined ? members : undefined,
      unreadableBase,
    });
  }
  return found;
}

/** Adds a class's member names and its bases'; returns the name of a base it could not read. */
function collectMembers(
  file: ParsedFile,
  node: ClassDeclaration,
  resolver: Resolver,
  into: Set<string>,
  seen: Set<ClassDeclaration>,
): string | undefined {
  if (seen.has(node)) return undefined;
  seen.add(node);
  for (const member of node.getMembers()) {
    const name = (member as { getName?: () => string | undefined }).getName?.();
    if (name !== undefined) into.add(name);
  }
  for (const p of node.getConstructors().flatMap((c) => c.getParameters())) if (p.isParameterProperty()) into.add(p.getName());
  const base = node.getExtends();
  if (!base) return undefined;
  const text = base.getExpression().getText();
  const target = resolver.entity(file.path, text, 'value');
  const baseFile = target?.kind === 'symbol' ? resolver.files.get(target.module) : undefined;
  const baseClass = target?.kind === 'symbol' ? baseFile?.source.getClass(target.name) : undefined;
  if (!baseFile || !baseClass) return text;
  return collectMembers(baseFile, baseClass, resolver, into, seen);
}

/**
 * Keys of the contracts a file refers to through its imports (named, renamed, or as
 * `namespace.Name`), whatever it does with them.
 *
 * @example
 * referencedContracts(files.get('/repo/runtime/server/grpc-health.ts')!, resolver, contracts);
 * // Set { '/repo/generated/grpc/health/v1/health.server.ts#HealthService' }
 */
export function referencedContracts(file: ParsedFile, resolver: Resolver, contracts: ContractIndex): Set<string> {
  const keys = new Set<string>();
  for (const binding of file.module.imports.values()) {
    if (binding.kind === 'named') {
      const contract = contracts.get(resolver.local(file.path, binding.local, 'type'));
      if (contract) keys.add(contract.key);
      continue;
    }
    if (binding.kind !== 'namespace') continue;
    const module = resolver.resolveModule(file.path, binding.spec);
    const used = new Set(
      [...file.text.matchAll(new RegExp(`\\b${binding.local.replace(/\$/g, '\\$')}\\s*\\.\\s*([A-Za-z_$][\\w$]*)`, 'g'))].map((m) => m[1]!),
    );
    for (const name of used) {
      const contract = contracts.get(resolver.exported(module, name, 'type'));
      if (contract) keys.add(contract.key);
    }
  }
  return keys;
}
