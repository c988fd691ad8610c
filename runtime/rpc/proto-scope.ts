/**
 * @module
 * Type names resolved as protobufjs resolves them (`Namespace#lookup`), for `proto-schema.ts`: an
 * absolute name (`.pkg.Type`) from the root; a relative one from its scope and below, then as a
 * full name, then from each enclosing scope outwards, where "below" tries every nested namespace
 * when the first segment names nothing (so `Timestamp` finds `google.protobuf.Timestamp`).
 * Descriptors the generator writes use absolute names only; hand-written ones may not.
 */

/** What a name in a scope names: members (fields, oneofs) are names too, that no type lookup accepts. */
export type ScopeKind = 'namespace' | 'message' | 'enum' | 'member';

/** What a lookup accepts: a message, or a message or an enum. */
export type Wanted = 'message' | 'type';

/** One named object in the tree, carrying `T` (the message or enum type) when it is one. */
export class Scope<T> {
  readonly nested = new Map<string, Scope<T>>();
  readonly #lookupCache = new Map<string, Scope<T> | null>();
  value: T | undefined;

  constructor(
    readonly kind: ScopeKind,
    readonly name: string,
    readonly parent: Scope<T> | undefined,
  ) {}

  /** `.pkg.Type.Nested`, with a leading dot, as protobufjs spells it; `''` for the root. */
  get fullName(): string {
    return this.parent === undefined ? '' : `${this.parent.fullName}.${this.name}`;
  }

  /** Here and below (protobufjs' `Namespace#_lookupImpl`). */
  lookupHere(path: readonly string[], flat: string): Scope<T> | null {
    const cached = this.#lookupCache.get(flat);
    if (cached !== undefined) return cached;
    const found = this.nested.get(path[0]!);
    let exact: Scope<T> | null = null;
    if (found) {
      if (path.length === 1) exact = found;
      else if (isNamespace(found)) exact = found.lookupHere(path.slice(1), path.slice(1).join('.'));
    } else {
      for (const child of this.nested.values()) {
        const deep = isNamespace(child) ? child.lookupHere(path, flat) : null;
        if (deep) {
          exact = deep;
          break;
        }
      }
    }
    this.#lookupCache.set(flat, exact);
    return exact;
  }
}

/** Namespaces hold names: packages, and messages (their nested types). */
function isNamespace<T>(scope: Scope<T>): boolean {
  return scope.kind === 'namespace' || scope.kind === 'message';
}

function accepts<T>(scope: Scope<T> | null | undefined, wanted: Wanted): scope is Scope<T> {
  if (!scope) return false;
  return scope.kind === 'message' || (wanted === 'type' && scope.kind === 'enum');
}

/** The names of one descriptor. Complete before the first lookup: lookups are cached. */
export class ScopeTree<T> {
  readonly root = new Scope<T>('namespace', '', undefined);
  /** protobufjs' `Root#_fullyQualifiedObjects`: the fallback when a relative name is not found in scope. */
  readonly #byFullName = new Map<string, Scope<T>>();

  /** A new name in `parent`. */
  add(kind: ScopeKind, name: string, parent: Scope<T>, value?: T): Scope<T> {
    const scope = new Scope<T>(kind, name, parent);
    scope.value = value;
    parent.nested.set(name, scope);
    if (kind === 'message' || kind === 'enum') this.#byFullName.set(scope.fullName, scope);
    return scope;
  }

  /** What `name` names from `scope` (protobufjs' `Namespace#lookup`), or null. */
  lookup(scope: Scope<T>, name: string, wanted: Wanted): Scope<T> | null {
    if (name === '') return null;
    const path = name.split('.');
    if (path[0] === '') return this.lookup(this.root, path.slice(1).join('.'), wanted);
    const flat = path.join('.');
    const here = scope.lookupHere(path, flat);
    if (accepts(here, wanted)) return here;
    const qualified = this.#byFullName.get(`.${flat}`);
    if (accepts(qualified, wanted)) return qualified;
    for (let current = scope; current.parent; current = current.parent) {
      const found = current.parent.lookupHere(path, flat);
      if (accepts(found, wanted)) return found;
    }
    return null;
  }
}
