/**
 * @module
 * The two type helpers every part of the generator uses: {@link assertNever}, which ends a switch
 * over a `kind` so that a new kind in the model is a compile error there, and {@link Mutable},
 * the writable view a loader fills a read-only model node through while it builds it.
 */

/**
 * Compile-time exhaustiveness: call it in the `default` of a switch over a union; a member the
 * switch forgets is a type error here, and a value the types did not foresee throws.
 *
 * @example
 * switch (type.kind) {
 *   case 'message': return …;
 *   case 'enum': return …;
 *   case 'alias': return …;
 *   default: return assertNever(type);
 * }
 */
export function assertNever(value: never, what = 'model node'): never {
  throw new Error(`unexpected ${what}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
}

/**
 * `T` with its `readonly` modifiers removed: how a loader fills in a node of the read-only model
 * (`fields` of a message declared before its contents are read) before handing it to emitters.
 *
 * @example
 * (type as Mutable<EnumType>).values = values;
 */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
