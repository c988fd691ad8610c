/**
 * @module
 * Shrinks ajv's standalone code without changing what it does.
 *
 * With `allErrors`, ajv prints every failed check as an eight-line block that builds an error
 * object with its five key names spelled out and appends it to the list by hand. Those blocks
 * are most of a validators file (Gitea's API: ~2,300 of them, over half of 1 MB), and they
 * are the runs of identical lines a reader (or a duplicate finder) sees everywhere. Here each
 * becomes one call of a small helper printed once per file, with the same arguments in the
 * same order, so the error objects the validators report are the same, key for key.
 *
 * A block that does not have the expected shape (another ajv version, another option) is
 * left as ajv printed it: the result is then larger, never wrong.
 *
 * ajv also prints every compiled schema as a constant (`const schema31 = {…}`, descriptions
 * and all), though the code reads only a few of them (for `enum` lists); the others go.
 */

/** Name of the helper the compacted code calls. */
export const PUSH_ERROR_IDENTIFIER = 'pushError';

/** Source of the helper: the object ajv would have built, appended to the (lazily created) list. */
const PUSH_ERROR_SOURCE = `/** Appends one error (the object ajv builds) to the list, which is null until the first error. */
function ${PUSH_ERROR_IDENTIFIER}(list, instancePath, schemaPath, keyword, params, message) {
  const error = { instancePath, schemaPath, keyword, params, message };
  if (list === null) return [error];
  list.push(error);
  return list;
}`;

const STRING = String.raw`"(?:[^"\\]|\\.)*"`;

/**
 * One error block of ajv's output (`lines: true`): the error constant, then the append. The
 * instance path is `instancePath` alone (shorthand) or an expression after `instancePath:`.
 * Errors inside `propertyNames` carry one more member, `propertyName`, after the message.
 */
const ERROR_BLOCK = new RegExp(
  String.raw`^const (err\d+) = \{instancePath(?::(.*?))?,schemaPath:(${STRING}),keyword:(${STRING}),params:(\{.*?\}),message:(.*?)(,propertyName:[\w$]+)?\};\n` +
    String.raw`if\(vErrors === null\)\{\nvErrors = \[\1\];\n\}\nelse \{\nvErrors\.push\(\1\);\n\}$`,
  'gm',
);

/**
 * ajv standalone code with its error blocks folded into helper calls, and the helper (when
 * used) to print before it.
 *
 * @example
 * compactErrors(code);
 * // { code: '…vErrors = pushError(vErrors, instancePath+"/id", "#/properties/id/type", "type", {type: "integer"}, "must be integer");…',
 * //   helper: 'function pushError(list, …) { … }' }
 */
export function compactErrors(code: string): { code: string; helper?: string } {
  let folded = 0;
  const out = code.replace(
    ERROR_BLOCK,
    (
      block,
      _name: string,
      path: string | undefined,
      schemaPath: string,
      keyword: string,
      params: string,
      message: string,
      propertyName: string | undefined,
    ) => {
      // The helper builds the usual five members; an error with a `propertyName` stays as ajv wrote it.
      if (propertyName !== undefined) return block;
      folded++;
      return `vErrors = ${PUSH_ERROR_IDENTIFIER}(vErrors, ${path ?? 'instancePath'}, ${schemaPath}, ${keyword}, ${params}, ${message});`;
    },
  );
  return folded > 0 ? { code: out, helper: PUSH_ERROR_SOURCE } : { code };
}

/** A schema constant ajv prints, on one line (`JSON.stringify`). */
const SCHEMA_CONSTANT = /^const (schema\d+) = .*;\n/gm;

/**
 * ajv standalone code without the schema constants nothing reads. A constant counts as read
 * when its name appears anywhere else, even in a string: a spare constant costs bytes, a
 * missing one would break the file.
 *
 * @example
 * dropUnusedSchemas('const schema7 = {"type":"object"};\nfunction validate8(data) { … }');
 * // 'function validate8(data) { … }'
 */
export function dropUnusedSchemas(code: string): string {
  const uses = new Map<string, number>();
  for (const [name] of code.matchAll(/\bschema\d+\b/g)) uses.set(name, (uses.get(name) ?? 0) + 1);
  return code.replace(SCHEMA_CONSTANT, (line, name: string) => (uses.get(name) === 1 ? '' : line));
}

/** What the compaction depends on, for cache keys: a change here must not serve stale code. */
export const COMPACT_FINGERPRINT = `${ERROR_BLOCK.source}\0${PUSH_ERROR_SOURCE}\0${SCHEMA_CONSTANT.source}\0${dropUnusedSchemas.toString()}`;
