import { describe, expect, it } from 'vitest';
import { serviceBase } from './naming.js';
import { applyEdits, detectLayout, kebabCase, lineOf, quoted } from './text.js';

describe('scaffolder text helpers', () => {
  it('applies insertions and replacements by position, keeping the order of insertions at one offset', () => {
    expect(
      applyEdits('class A {}', [
        { at: 9, length: 0, text: 'x' },
        { at: 9, length: 0, text: 'y' },
        { at: 0, length: 5, text: 'interface' },
      ]),
    ).toEqual({ text: 'interface A {xy}', starts: [13, 14, 0] });
    expect(() =>
      applyEdits('abc', [
        { at: 0, length: 2, text: '' },
        { at: 1, length: 0, text: '' },
      ]),
    ).toThrow('overlapping');
  });

  it('reads a file’s layout: line ends, indent, quotes, semicolons, import extensions', () => {
    expect(detectLayout('import x from "./a";\r\nclass A {\r\n    m() {}\r\n}\r\n')).toEqual({
      eol: '\r\n',
      unit: '    ',
      quote: '"',
      semi: ';',
      importExt: '',
    });
    expect(detectLayout("import type { A } from '../a.js'\n/**\n * doc\n */\nclass B {\n\tm() {}\n}\n")).toEqual({
      eol: '\n',
      unit: '\t',
      quote: "'",
      semi: '',
      importExt: '.js',
    });
    expect(detectLayout('')).toEqual({ eol: '\n', unit: '  ', quote: "'", semi: ';', importExt: '.js' });
  });

  it('names things', () => {
    expect([kebabCase('IssueApi'), kebabCase('HTTPServer'), kebabCase('v1Alpha')]).toEqual(['issue-api', 'http-server', 'v1-alpha']);
    expect([serviceBase('IssueApi'), serviceBase('SystemService'), serviceBase('Api')]).toEqual(['Issue', 'System', 'Api']);
    expect(quoted("it's", "'")).toBe("'it\\'s'");
    expect(lineOf('a\nb\nc', 4)).toBe(3);
  });
});
