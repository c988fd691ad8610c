/**
 * @module
 * Syntax errors in JSON and YAML documents, turned into a line, a column and one sentence.
 *
 * `JSON.parse` gives a character offset or an excerpt of the text, the `yaml` package a line
 * and a paragraph that quotes the source; diagnostics want `file:line` and a short reason.
 */

/**
 * A file that is not valid JSON or YAML, with the line the parser stopped at, so the
 * CLI can print `api.yaml:3: error: …` like every other diagnostic. `message` names the
 * file too, for when the file was reached through a `$ref` from another document.
 * @example new SourceParseError('api.json', 'JSON', "expected ',' or '}' after property value", 4, 3).message
 * // "api.json:4 is not valid JSON: expected ',' or '}' after property value (column 3)"
 */
export class SourceParseError extends Error {
  constructor(
    readonly file: string,
    readonly format: 'JSON' | 'YAML',
    /** The parser's complaint, one sentence, starting lower-case, without the file. */
    readonly reason: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${file}${line ? `:${line}` : ''} is not valid ${format}: ${reason}${column ? ` (column ${column})` : ''}`);
    this.name = 'SourceParseError';
  }

  /** The sentence for a diagnostic that already carries the file and line. */
  get sentence(): string {
    return (
      `not valid ${this.format}: ${this.reason}${this.column ? ` (column ${this.column})` : ''}; ` +
      `fix the syntax at this line or just before it`
    );
  }
}

/**
 * The parser's first sentence, without the position it repeats (`at line 3, column 1:`)
 * and the code excerpt after it: the diagnostic carries the line already.
 * @example firstSentence('Flow map must end with a } at line 3, column 1:\n\n…') // 'flow map must end with a }'
 */
function firstSentence(message: string): string {
  const head = message
    .split('\n')[0]!
    .replace(/\s+at line \d+, column \d+:?\s*$/, '')
    .replace(/[.:]\s*$/, '');
  return head.charAt(0).toLowerCase() + head.slice(1);
}

/**
 * `JSON.parse` reports a character offset (`at position 152`); people need a line and a column.
 * A message without a position ("Unexpected end of JSON input") points at the last line.
 */
export function jsonParseError(path: string, text: string, message: string): SourceParseError {
  // An error at the very end ("expected a property name" after a trailing comma) is
  // clearer at the last character written than on the empty line after it.
  const end = text.trimEnd().length;
  let offset = end;
  let reason: string;
  const match = /\s*(?:in JSON )?at position (\d+)(?: \(line \d+ column \d+\))?\s*$/.exec(message);
  // V8 reports an unexpected token with the text around it instead of a position:
  // `Unexpected token ''', ..."{"title": 'T'}}" is not valid JSON`. The excerpt starts 10
  // characters before the token when it is cut ("..."), at the start of the text otherwise.
  const token = /^Unexpected token '([\s\S]+?)', (\.\.\.)?"([\s\S]*?)"(?:\.\.\.)? is not valid JSON$/.exec(message);
  if (match) {
    offset = Math.min(Number(match[1]), end);
    reason = firstSentence(message.slice(0, match.index)).replace(/ in JSON$/, '');
  } else if (token) {
    const at = text.indexOf(token[3]!);
    if (at !== -1) offset = Math.min(at + (token[2] ? 10 : Math.max(0, token[3]!.indexOf(token[1]!))), end);
    reason = `unexpected character '${token[1]}'`;
  } else {
    reason = firstSentence(message).replace(/ in JSON$/, '');
  }
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return new SourceParseError(path, 'JSON', reason, line, column);
}

/**
 * The first error of a YAML parse as a {@link SourceParseError}: the `yaml` package gives
 * the line and column, and a message that repeats them and quotes the source.
 */
export function yamlParseError(
  path: string,
  first: { readonly message: string; readonly linePos?: readonly { line: number; col: number }[] | undefined },
): SourceParseError {
  const at = first.linePos?.[0];
  return new SourceParseError(path, 'YAML', firstSentence(first.message), at?.line, at?.col);
}
