/**
 * @module
 * Syntax errors become `file:line`, a column and one sentence, whatever shape the parser gave.
 */
import { describe, expect, it } from 'vitest';
import { jsonParseError, type SourceParseError, yamlParseError } from './source-parse-error.js';

/** What `JSON.parse` says about `text`. */
function jsonMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected invalid JSON');
}

const at = (e: SourceParseError) => [e.line, e.column, e.reason];

describe('jsonParseError', () => {
  it('turns a character offset into a line and a column', () => {
    const text = '{\n  "a": 1\n  "b": 2\n}';
    expect(at(jsonParseError('x.json', text, jsonMessage(text)))).toEqual([3, 3, "expected ',' or '}' after property value"]);
  });

  it('finds an unexpected character from the excerpt V8 gives instead of a position', () => {
    const text = '{\n  "list": [1, 2, 3, 4, 5, 6, 7],\n  "name": \'x\'\n}';
    expect(at(jsonParseError('x.json', text, jsonMessage(text)))).toEqual([3, 11, "unexpected character '''"]);
  });

  it('puts an error at the end of the text on the last character written', () => {
    const text = '{\n  "a": 1,\n\n\n';
    expect(at(jsonParseError('x.json', text, jsonMessage(text)))).toEqual([2, 10, 'expected double-quoted property name']);
    expect(at(jsonParseError('x.json', '', jsonMessage('')))).toEqual([1, 1, 'unexpected end of JSON input']);
  });

  it('names the file in its message and leaves it out of the diagnostic sentence', () => {
    const e = jsonParseError('x.json', '{,}', jsonMessage('{,}'));
    expect(e.message).toBe("x.json:1 is not valid JSON: expected property name or '}' (column 2)");
    expect(e.sentence).toBe("not valid JSON: expected property name or '}' (column 2); fix the syntax at this line or just before it");
  });
});

describe('yamlParseError', () => {
  it("keeps the parser's first sentence, without the position and the quoted source", () => {
    const e = yamlParseError('x.yaml', {
      message: 'Map keys must be unique at line 4, column 3:\n\n  a: 1\n  ^\n',
      linePos: [{ line: 4, col: 3 }],
    });
    expect([e.message, e.line]).toEqual(['x.yaml:4 is not valid YAML: map keys must be unique (column 3)', 4]);
  });
});
