/**
 * The one exhaustiveness check of the runtime: called in the `default` branch of a switch over a
 * union's `kind`, it fails to compile when a member is left out, and throws if a value the types
 * ruled out arrives at run time anyway (data from outside, a cast).
 */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
