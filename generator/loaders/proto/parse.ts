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
  if (!duplicate) return error(`cannot parse: ${message}`, { file: source.path, line });
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
