/**
 * @module
 * Lines for the `.proto` errors protobufjs reports without one (`duplicate id 1 in Type A`,
 * `id 3 is reserved in Type M`), and the field names it would drop without a word.
 * Lines come from the declaration lines `proto-scan.ts` records, and the source text.
 */
import type { Diagnostic } from '../../model/model.js';
import { error } from '../diagnostics.js';
import type { ProtoSource } from './model-builder.js';

/**
 * protobufjs reports `duplicate id 1 in Type A` with no line; the scanner knows where each
 * field of `A` is declared, so the later of the two fields using the number is the line.
 */
export function duplicateNumber(source: ProtoSource, id: number, kind: string, scope: string, fallback: number | undefined): Diagnostic {
  const uses = linesOfNumber(source, scope, id);
  const what =
    kind === 'enum'
      ? `value ${id} is used twice in enum '${scope}'`
      : `field number ${id} is used twice in ${kind === 'type' ? 'message' : kind} '${scope}'`;
  const also = uses.length >= 2 ? ` (also on line ${uses[0]})` : '';
  const fix =
    kind === 'enum'
      ? "give each value its own number, or add 'option allow_alias = true;' if the names are meant as aliases"
      : 'give each field its own number (numbers identify fields on the wire)';
  return error(`${what}${also}: ${fix}`, { file: source.path, line: uses[1] ?? uses[0] ?? fallback });
}

/**
 * Lines of the members (fields, enum values) of `scope` declared with number `id`, sorted.
 * protobufjs names the scope without its outer messages while parsing, so the last
 * segment is matched against the end of the scanner's dotted paths.
 */
function linesOfNumber(source: ProtoSource, scope: string, id: number): number[] {
  const owner = scope.split('.').pop() ?? scope;
  const text = source.text?.split('\n') ?? [];
  const number = new RegExp(`=\\s*${id}\\b`);
  return [...(source.scan?.lines ?? [])]
    .filter(([key, line]) => {
      const [path, member] = key.split('#');
      return member !== undefined && (path === owner || path!.endsWith(`.${owner}`)) && number.test(text[line - 1] ?? '');
    })
    .map(([, line]) => line)
    .sort((a, b) => a - b);
}

/** `id 3 is reserved in Type M` / `name 'x' is reserved in Type M`, with the line of the member that uses it. */
export function reservedUse(source: ProtoSource, what: string, kind: string, scope: string, fallback: number | undefined): Diagnostic {
  const owner = scope.split('.').pop() ?? scope;
  const id = /^id (\d+)$/.exec(what);
  const name = /^name '([^']+)'$/.exec(what);
  let line = fallback;
  if (id) line = linesOfNumber(source, scope, Number(id[1]))[0] ?? fallback;
  else if (name)
    line =
      [...(source.scan?.lines ?? [])].find(([key]) => key === `${owner}#${name[1]}` || key.endsWith(`.${owner}#${name[1]}`))?.[1] ??
      fallback;
  const container = kind === 'enum' ? 'enum' : 'message';
  const subject = id ? `number ${id[1]}` : `name '${name?.[1] ?? what}'`;
  return error(
    `${subject} is reserved in ${container} '${scope}' (by its 'reserved' statement): ` +
      `reserved ${id ? 'numbers' : 'names'} belong to removed ${container === 'enum' ? 'values' : 'fields'} and must not be ` +
      `reused; pick another ${id ? 'number' : 'name'}`,
    { file: source.path, line },
  );
}

/**
 * Fields protobufjs cannot keep. A field named `__proto__` is assigned to the prototype of
 * protobufjs's field table rather than stored, so it would vanish from the generated code
 * without a word; say so instead.
 */
export function reservedFieldNames(source: ProtoSource): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [key, line] of source.scan?.lines ?? []) {
    const [owner, member] = key.split('#');
    if (member !== '__proto__') continue;
    out.push(
      error(
        `field '__proto__' of '${owner}' cannot be generated: JavaScript treats that name as an object's prototype, ` +
          `so it would silently disappear; rename the field (only its number goes on the wire)`,
        { file: source.path, line },
      ),
    );
  }
  return out;
}
