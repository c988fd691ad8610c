/**
 * @module
 * Text helpers of the scaffolder: edits applied by position (so bytes nobody asked to change stay
 * identical), lines of offsets, and the layout a file already uses (line ends, indentation,
 * quotes, semicolons, import extensions) so that inserted code reads like its neighbours.
 */

/** Replaces `length` characters at `at` with `text` (an insertion when `length` is 0). */
export interface TextEdit {
  readonly at: number;
  readonly length: number;
  readonly text: string;
}

/**
 * Applies edits to a text. Edits must not overlap; two insertions at one offset keep their order.
 * Returns the new text and, for each edit (in the order given), where its text starts in it.
 *
 * @example
 * applyEdits('ab', [{ at: 1, length: 0, text: 'X' }]); // { text: 'aXb', starts: [1] }
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): { text: string; starts: number[] } {
  const order = edits.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i);
  const starts = new Array<number>(edits.length);
  let out = '';
  let from = 0;
  for (const { e, i } of order) {
    if (e.at < from) throw new Error(`overlapping edits at offset ${e.at}`);
    out += text.slice(from, e.at);
    starts[i] = out.length;
    out += e.text;
    from = e.at + e.length;
  }
  return { text: out + text.slice(from), starts };
}

/** 1-based line of an offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** How a file lays out code, read from the file itself (defaults: this project's style). */
export interface Layout {
  readonly eol: '\n' | '\r\n';
  /** One level of indentation: two spaces, four, or a tab. */
  readonly unit: string;
  readonly quote: "'" | '"';
  readonly semi: string;
  /** The extension relative imports end with: `.js` (NodeNext), `.ts` or none. */
  readonly importExt: '.js' | '.ts' | '';
}

export const DEFAULT_LAYOUT: Layout = { eol: '\n', unit: '  ', quote: "'", semi: ';', importExt: '.js' };

/**
 * Reads a file's layout from its text. Each property falls back to `fallback` when the file
 * does not show it (an empty file, a file without imports).
 */
export function detectLayout(text: string, fallback: Layout = DEFAULT_LAYOUT): Layout {
  const eol = text.includes('\r\n') ? '\r\n' : text.includes('\n') ? '\n' : fallback.eol;
  const indented = /^([ \t]+)(?!\*)\S/m.exec(text)?.[1];
  const unit = indented === undefined ? fallback.unit : indented.startsWith('\t') ? '\t' : (indentUnit(text) ?? fallback.unit);
  const fromClause = /^(?:import|export)\b[^;\n]*?\bfrom\s+(['"])([^'"\n]+)\1(;?)/m.exec(text);
  const quote = (fromClause?.[1] as "'" | '"' | undefined) ?? fallback.quote;
  const semi = fromClause === null ? fallback.semi : fromClause[3]!;
  const relative = [...text.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"\n]+)['"]/g)].map((m) => m[1]!);
  const importExt =
    relative.length === 0
      ? fallback.importExt
      : relative.some((s) => s.endsWith('.js'))
        ? '.js'
        : relative.some((s) => s.endsWith('.ts'))
          ? '.ts'
          : '';
  return { eol, unit, quote, semi, importExt };
}

/** The smallest indentation of space-indented lines: a file's indent step. */
function indentUnit(text: string): string | undefined {
  let smallest = Number.POSITIVE_INFINITY;
  // Lines inside JSDoc (` * …`) sit one space in: not an indent step.
  for (const m of text.matchAll(/^( +)(?![ *])\S/gm)) smallest = Math.min(smallest, m[1]!.length);
  return Number.isFinite(smallest) ? ' '.repeat(smallest) : undefined;
}

/** The whitespace a line starts with. */
export function indentationAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** A string literal in the file's quote style. */
export function quoted(value: string, quote: "'" | '"'): string {
  const escaped = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
  return quote + escaped.split(quote).join(`\\${quote}`) + quote;
}

/** `IssueApi` → `issue-api`; `HTTPServer` → `http-server`. */
export function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}
