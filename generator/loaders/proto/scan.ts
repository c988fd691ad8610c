/**
 * @module
 * A light scanner over `.proto` text that finds the line of each declaration.
 *
 * protobufjs keeps comments but not positions, and diagnostics are only useful with
 * a line, so this walks the tokens once and records where messages, enums, enum
 * values, fields, services, rpcs and imports are declared. It does not validate:
 * protobufjs has already parsed the file when this runs.
 */

/** Lines by declaration key, plus the file header. */
export interface ProtoScan {
  /** `syntax = "…"` value, when present. */
  readonly syntax?: string;
  /** `edition = "…"` value, when present. */
  readonly edition?: string;
  /**
   * 1-based lines by key: `Outer.Inner` (message/enum), `Outer#field`, `Outer.E#VALUE`,
   * `S` (service), `S#Method` (rpc), `import:path/x.proto`. Names are relative to the package.
   */
  readonly lines: ReadonlyMap<string, number>;
  /** Messages, enums and services declared more than once in this file: every line, in order. */
  readonly repeated: ReadonlyMap<string, readonly number[]>;
  /** `extend X { … }` blocks, in order. */
  readonly extensions: readonly ExtendBlock[];
}

/** One `extend` block: what it extends, where it is, and the text range it spans. */
export interface ExtendBlock {
  /** The extended message as written (`google.protobuf.MethodOptions`). */
  readonly extendee: string;
  readonly line: number;
  /** Offsets of `extend` and one past its closing `}`. */
  readonly start: number;
  readonly end: number;
}

interface Token {
  readonly text: string;
  readonly line: number;
  readonly string: boolean;
  readonly start: number;
  readonly end: number;
}

/** `[A-Za-z0-9_.+-]`: identifiers, dotted names and numbers, by char code (this loop is hot). */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 43 || c === 45;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++;
    } else if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
    } else if (c === '/' && source[i + 1] === '*') {
      i += 2;
      while (i < n && !(source[i] === '*' && source[i + 1] === '/')) {
        if (source[i] === '\n') line++;
        i++;
      }
      i += 2;
    } else if (c === '"' || c === "'") {
      const start = line;
      const begin = i;
      let text = '';
      i++;
      while (i < n && source[i] !== c) {
        if (source[i] === '\\') {
          text += source[i + 1] ?? '';
          i += 2;
          continue;
        }
        if (source[i] === '\n') line++;
        text += source[i];
        i++;
      }
      i++;
      tokens.push({ text, line: start, string: true, start: begin, end: i });
    } else if (isWordChar(source.charCodeAt(i))) {
      let j = i + 1;
      while (j < n && isWordChar(source.charCodeAt(j))) j++;
      tokens.push({ text: source.slice(i, j), line, string: false, start: i, end: j });
      i = j;
    } else {
      tokens.push({ text: c, line, string: false, start: i, end: i + 1 });
      i++;
    }
  }
  return tokens;
}

type ScopeKind = 'message' | 'enum' | 'service' | 'oneof' | 'extend' | 'other';
interface Scope {
  readonly kind: ScopeKind;
  /** Dotted path of enclosing messages/enums/services (oneofs do not add to it). */
  readonly path: string;
}

const HEADERS: ReadonlySet<string> = new Set(['message', 'enum', 'service', 'oneof', 'extend']);
const NOT_FIELDS: ReadonlySet<string> = new Set(['option', 'reserved', 'extensions']);

/**
 * Scans `.proto` source for declaration lines.
 * @example scanProto('message A {\n  string b = 1;\n}').lines.get('A#b') // 2
 */
export function scanProto(source: string): ProtoScan {
  const tokens = tokenize(source);
  const lines = new Map<string, number>();
  const repeated = new Map<string, number[]>();
  // A type's line; the first declaration keeps its place, a second one is remembered as repeated.
  const declareType = (path: string, line: number) => {
    const first = lines.get(path);
    if (first === undefined) lines.set(path, line);
    else repeated.set(path, [...(repeated.get(path) ?? [first]), line]);
  };
  const extensions: ExtendBlock[] = [];
  const stack: Scope[] = [{ kind: 'other', path: '' }];
  let syntax: string | undefined;
  let edition: string | undefined;
  let statementStart = 0;
  let bracketDepth = 0;
  const join = (path: string, name: string) => (path === '' ? name : `${path}.${name}`);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const scope = stack[stack.length - 1]!;
    const top = stack.length === 1;
    if (t.string) continue;
    switch (t.text) {
      case '{': {
        const first = tokens[statementStart];
        let next: Scope = { kind: 'other', path: scope.path };
        // Only files and messages declare types; `{` elsewhere opens an rpc body or an option value.
        const declares = top || scope.kind === 'message';
        if (declares && first && !first.string && HEADERS.has(first.text) && i - statementStart === 2) {
          const name = tokens[statementStart + 1]!.text;
          const kind = first.text as 'message' | 'enum' | 'service' | 'oneof' | 'extend';
          if (kind === 'extend') {
            extensions.push({ extendee: name, line: first.line, start: first.start, end: -1 });
            next = { kind: 'extend', path: scope.path };
          } else if (kind === 'oneof') next = { kind: 'oneof', path: scope.path };
          else {
            const path = join(scope.path, name);
            declareType(path, tokens[statementStart + 1]!.line);
            next = { kind, path };
          }
        }
        // proto2 `optional group Name = 4 {`: a nested message declared inline.
        const group = tokens.slice(statementStart, statementStart + 2).findIndex((x) => x.text === 'group');
        if (declares && group !== -1 && next.kind === 'other') {
          const nameToken = tokens[statementStart + group + 1];
          if (nameToken) {
            const path = join(scope.path, nameToken.text);
            declareType(path, nameToken.line);
            next = { kind: 'message', path };
          }
        }
        stack.push(next);
        statementStart = i + 1;
        break;
      }
      case '}':
        if (stack.length > 1 && stack.pop()!.kind === 'extend') {
          const open = extensions[extensions.length - 1]!;
          extensions[extensions.length - 1] = { ...open, end: t.end };
        }
        statementStart = i + 1;
        break;
      case ';':
        statementStart = i + 1;
        break;
      case '[':
        bracketDepth++;
        break;
      case ']':
        bracketDepth = Math.max(0, bracketDepth - 1);
        break;
      case '=': {
        if (bracketDepth > 0) break;
        const first = tokens[statementStart];
        const prev = tokens[i - 1];
        if (!first || !prev || prev.string) break;
        if (top && first.text === 'syntax') syntax = tokens[i + 1]?.text;
        else if (top && first.text === 'edition') edition = tokens[i + 1]?.text;
        else if (NOT_FIELDS.has(first.text)) break;
        else if (scope.kind === 'message' || scope.kind === 'oneof') lines.set(`${scope.path}#${prev.text}`, prev.line);
        else if (scope.kind === 'enum') lines.set(`${scope.path}#${prev.text}`, prev.line);
        break;
      }
      case 'rpc':
        if (scope.kind === 'service' && i === statementStart && tokens[i + 1]) {
          lines.set(`${scope.path}#${tokens[i + 1]!.text}`, tokens[i + 1]!.line);
        }
        break;
      case 'import':
        if (top && i === statementStart) {
          const target = tokens.slice(i + 1, i + 3).find((x) => x.string);
          if (target) lines.set(`import:${target.text}`, target.line);
        }
        break;
      default:
        break;
    }
  }
  return { syntax, edition, lines, repeated, extensions: extensions.filter((e) => e.end > e.start) };
}

/**
 * The source with `extend` blocks blanked out (newlines kept, so lines do not move).
 *
 * Loom ignores extensions, and protobufjs resolves each one as it is added by searching
 * the whole tree with its caches just cleared, which is quadratic over thousands of files.
 * Custom options (`option (google.api.http) = …`) still parse without their declarations.
 * @example withoutExtensions(text, scanProto(text)) // same text, `extend … { … }` replaced by spaces
 */
export function withoutExtensions(source: string, scan: ProtoScan): string {
  if (scan.extensions.length === 0) return source;
  let out = '';
  let at = 0;
  for (const block of scan.extensions) {
    if (block.start < at) continue; // nested in a block already removed
    out += source.slice(at, block.start) + source.slice(block.start, block.end).replace(/[^\n]/g, ' ');
    at = block.end;
  }
  return out + source.slice(at);
}
