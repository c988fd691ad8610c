/**
 * @module
 * protobufjs's parser, called the one way Loom calls it, and its errors turned into diagnostics.
 * The only module that touches protobufjs's global state: the parser's module-level `filename`
 * (which tags every parsed object with its file) and, around each parse, `Error.stackTraceLimit`.
 */
import protobuf from 'protobufjs';
import type { Diagnostic } from '../../model/model.js';
import { error } from '../diagnostics.js';
import { duplicateNumber, reservedUse } from './diagnostics.js';
import type { ProtoSource } from './model-builder.js';

/** protobufjs tags parsed objects with this module-level file name; its typings omit it. */
const parser = protobuf.parse as typeof protobuf.parse & { filename: string | null };

const PARSE_OPTIONS: protobuf.IParseOptions = { keepCase: true, alternateCommentMode: true };

/**
 * Parses one file's text into `root`, its types tagged with `key` (protobufjs's `filename`), and
 * restores the global state it changed, whatever happens.
 *
 * @example
 * const parsed = parseProto('syntax = "proto3"; package a; message M {}', '/schemas/a.proto', root);
 * parsed.package; // 'a'
 */
export function parseProto(text: string, key: string, root: protobuf.Root): protobuf.IParserResult {
  const previous = parser.filename;
  parser.filename = key;
  // protobufjs throws and catches errors while reading option values; without stack traces
  // those are cheap, which halves parse time on large trees. Messages are kept.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return protobuf.parse(text, root, PARSE_OPTIONS);
  } finally {
    parser.filename = previous;
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/** Splits protobufjs's `illegal token 'x' (file.proto, line 3)` into the sentence and the line. */
function parseErrorLocation(message: string): { message: string; line?: number } {
  const m = /^(.*?)\s*\((?:[^,()]*, )?line (\d+)\)$/.exec(message);
  return m ? { message: m[1]!, line: Number(m[2]) } : { message };
}

/**
 * The diagnostic for an error protobufjs threw while parsing `source`: a reserved number or name
 * used, a field number or a name declared twice (naming both lines when the scan found them), or
 * a syntax error with its line.
 *
 * @example
 * parseFailure(new Error("illegal token '}' (a.proto, line 5)"), source);
 * // { severity: 'error', message: "cannot parse: illegal token '}'", source: { file: 'a.proto', line: 5 } }
 */
export function parseFailure(e: unknown, source: ProtoSource): Diagnostic {
  const { message, line } = parseErrorLocation(e instanceof Error ? e.message : String(e));
  const reserved = /^(id \d+|name '[^']+') is reserved in (\w+) \.?(.*)$/.exec(message);
  if (reserved) return reservedUse(source, reserved[1]!, reserved[2]!.toLowerCase(), reserved[3]!, line);
  const duplicateId = /^duplicate id (\d+) in (\w+) \.?(.*)$/.exec(message);
  if (duplicateId) return duplicateNumber(source, Number(duplicateId[1]), duplicateId[2]!.toLowerCase(), duplicateId[3]!, line);
  const duplicate = /^duplicate name '([^']+)' in \w+ \.?(.*)$/.exec(message);
  if (!duplicate) {
    const syntax = syntaxError(message, line, source.text);
    return error(`cannot parse: ${syntax.message}`, { file: source.path, line: syntax.line });
  }
  const name = duplicate[1]!;
  const scope = duplicate[2]!;
  const matches = (k: string) => k === name || k.endsWith(`.${name}`) || k.endsWith(`#${name}`);
  const twice = [...(source.scan?.repeated ?? [])].find(([k]) => matches(k));
  if (twice) {
    const [first, ...later] = twice[1];
    return error(`'${name}' is declared twice in '${scope}' in this file (also on line ${first}): rename or remove one of them`, {
      file: source.path,
      line: later[0],
    });
  }
  const where = [...(source.scan?.lines ?? [])].find(([k]) => matches(k));
  return error(
    `'${name}' is declared twice in '${scope}': another loaded file already defines it; rename one of them or load the files separately`,
    { file: source.path, line: where?.[1] },
  );
}

/** Integer kinds, `bool` and `string`: what a map key may be. */
const MAP_KEY_TYPES = 'an integer type, bool or string';

/**
 * protobufjs's syntax error with what to do about it. A missing `;` is reported where the parser
 * noticed it, at the next statement's first token (often the next line, or a `}`): it is put back
 * on the line that lacks it, as the fix goes there.
 *
 * @example
 * syntaxError("illegal token '}', ';' expected", 5, 'message A {\n  string id = 1\n}');
 * // { message: "a ';' is missing at the end of this line (the next statement starts with '}')", line: 2 } — with the real line numbers
 */
function syntaxError(message: string, line: number | undefined, text: string | undefined): { message: string; line?: number } {
  const expected = /^illegal token '(.*)', '(.*)' expected$/.exec(message);
  if (expected) {
    const [, found, wanted] = expected as unknown as [string, string, string];
    if (wanted === ';') {
      const before = line === undefined ? undefined : statementLineBefore(text, line, found);
      if (before !== undefined) {
        return { message: `a ';' is missing at the end of this line (the next statement starts with '${found}')`, line: before };
      }
    }
    return { message: `'${wanted}' expected before '${found}': add it, or fix what comes before`, line };
  }
  const illegal = /^illegal (\w[\w ]*?) '(.*)'$/.exec(message);
  if (illegal) {
    const [, what, token] = illegal as unknown as [string, string, string];
    // protobufjs says "illegal type" of a map's key and of any type name it cannot read.
    if (what === 'type') {
      const mapKey = sourceLine(text, line)?.replace(/\s+/g, '').includes(`map<${token},`) === true;
      if (mapKey) return { message: `illegal type '${token}': a map key is ${MAP_KEY_TYPES}`, line };
      return { message: `'${token}' is not a type name: use a scalar type (int32, string, …) or a message or enum name`, line };
    }
    if (what === 'name' && token === '=') return { message: "a name is missing before '=': a field is `type name = number;`", line };
    // protobufjs names the last token it read, or `null` at the very end.
    if (what === 'end of input')
      return { message: `the file ends inside a declaration${token === 'null' ? '' : ` (at '${token}')`}: a '}' or ';' is missing`, line };
    return { message: `illegal ${what} '${token}': fix the syntax there, then run again`, line };
  }
  if (message === 'illegal string') return { message: 'a string is not closed: add the closing quote on this line', line };
  if (message === 'illegal comment') return { message: "a block comment is not closed: add '*/'", line };
  return { message: `${message}: fix the syntax there, then run again`, line };
}

/**
 * The line a missing `;` belongs on: when the token the parser stopped at starts its line, the
 * last line before it that holds code (not blank, not only a comment); otherwise its own line.
 */
function statementLineBefore(text: string | undefined, line: number, token: string): number | undefined {
  if (text === undefined) return undefined;
  const lines = sourceLines(text);
  const at = lines[line - 1];
  if (at === undefined || !at.trimStart().startsWith(token)) return line;
  for (let n = line - 1; n >= 1; n--) {
    const code = lines[n - 1]!.replace(/\/\/.*$/, '').trim();
    if (code !== '') return n;
  }
  return line;
}

function sourceLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/** Line `line` (1-based) of the file's text, when both are known. */
function sourceLine(text: string | undefined, line: number | undefined): string | undefined {
  return text === undefined || line === undefined ? undefined : sourceLines(text)[line - 1];
}
