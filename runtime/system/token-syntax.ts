/**
 * @module
 * What a `SYSTEM_TOKEN` may be made of. Clients send it as `authorization: Bearer <token>`, an
 * HTTP header on Connect and ASCII metadata on gRPC, and the check reads it back as one run of
 * non-space characters (`bearer-token.ts`). A token with a space or a control character could
 * never match, and one with non-ASCII characters cannot travel as gRPC metadata: either would
 * lock every caller out. Without imports, so that configuration parsing can use it before the
 * RPC runtime is loaded.
 */

/**
 * Why `token` cannot serve as a bearer token, or undefined when it can: it must be printable
 * ASCII (`!` to `~`), without spaces or control characters. The answer never quotes the token.
 *
 * @example
 * ```ts
 * bearerTokenProblem('s3cret');  // undefined
 * bearerTokenProblem('two words'); // 'contains a space at position 4; …'
 * ```
 */
export function bearerTokenProblem(token: string): string | undefined {
  if (token === '') return 'must not be empty';
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i);
    if (code >= 0x21 && code <= 0x7e) continue;
    const what =
      code === 0x20
        ? 'a space'
        : code < 0x20 || code === 0x7f
          ? 'a control character'
          : code > 0x7f && /\s/.test(token[i]!)
            ? 'a space'
            : 'a non-ASCII character';
    return `contains ${what} at position ${i + 1}; use printable ASCII without spaces (it is sent as "authorization: Bearer <token>")`;
  }
  return undefined;
}
