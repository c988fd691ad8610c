/**
 * @module
 * Path templates: joins prefixes and turns `{name}`, `:name`, `{name:regex}` and `:name:regex`
 * into Hono's `:name` / `:name{regex}` syntax, listing the variables. A segment that mixes text and
 * variables (`{name}.{ext}`, `{name}:cancel`, `v{major}`) becomes one Hono parameter for the whole
 * segment, which the variables are cut from by a regular expression with named groups.
 */

/** A segment holding text and variables, routed as one Hono parameter. */
export interface CompoundSegment {
  /** The Hono parameter that holds the whole segment. */
  readonly param: string;
  /** Cuts the segment into its variables (named groups), anchored at both ends. */
  readonly pattern: RegExp;
  /** The group of `pattern` holding this variable (variable names need not be identifiers). */
  readonly group: string;
}

/** A translated path template. */
export interface PathTemplate {
  /** As declared, joined (`/users/{id:[0-9]+}`). */
  readonly declared: string;
  /** Hono's syntax (`/users/:id{[0-9]+}`). */
  readonly hono: string;
  readonly variables: readonly string[];
  /** Variables that share a segment with text or other variables, by name. */
  readonly compound: ReadonlyMap<string, CompoundSegment>;
  /**
   * For variables that are a whole segment: its position counted from the end of the path (1 is
   * the last), which finds the segment as sent also under a prefix the router does not know. Absent
   * when a variable whose expression may span segments (`{path:.+}`) comes later.
   */
  readonly fromEnd: ReadonlyMap<string, number>;
  /**
   * Per segment: 3 literal, 2 variable with a regular expression (or text beside it), 1 plain
   * variable. Routes that can match the same request are tried most specific first (as JAX-RS
   * does), so `/issues/pinned` wins over `/issues/{index}` whatever the declaration order.
   */
  readonly ranks: readonly number[];
}

/** Orders two templates: negative when `a` is more specific. */
export function compareSpecificity(a: PathTemplate, b: PathTemplate): number {
  const n = Math.max(a.ranks.length, b.ranks.length);
  for (let i = 0; i < n; i++) {
    const diff = (b.ranks[i] ?? 0) - (a.ranks[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** Joins path parts with single slashes; the result starts with `/` and has no trailing slash (except `/`). */
export function joinPaths(...parts: (string | undefined)[]): string {
  const joined = parts
    .filter((p): p is string => p !== undefined && p !== '')
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter((p) => p !== '')
    .join('/');
  return `/${joined}`;
}

type Token =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'var'; readonly name: string; readonly regex: string | undefined };

/** A variable's expression when none is given: one segment, as JAX-RS and Hono have it. */
const SEGMENT = '[^/]+';

/** Splits a path on the slashes outside `{…}`, keeping empty segments out. */
function splitSegments(path: string): string[] {
  const segments: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of path) {
    if (ch === '{') depth++;
    if (ch === '}') depth--;
    if (ch === '/' && depth === 0) {
      if (current !== '') segments.push(current);
      current = '';
    } else current += ch;
  }
  if (depth > 0) throw new Error(`unclosed "{" in path "${path}"`);
  if (current !== '') segments.push(current);
  return segments;
}

/** The text and variables of one segment. */
function tokenize(segment: string, path: string): Token[] {
  if (segment.startsWith(':')) {
    // `:name`, `:name:regex` or `:name{regex}`: the whole segment.
    const m = /^:([A-Za-z_][A-Za-z0-9_]*)(?::(.+)|\{(.+)\})?$/.exec(segment);
    if (!m) throw new Error(`bad variable at "${segment}" in path "${path}"`);
    return [{ kind: 'var', name: m[1]!, regex: m[2] ?? m[3] }];
  }
  const tokens: Token[] = [];
  let text = '';
  for (let i = 0; i < segment.length; ) {
    if (segment[i] !== '{') {
      text += segment[i++];
      continue;
    }
    let depth = 1;
    let j = i + 1;
    while (j < segment.length && depth > 0) {
      if (segment[j] === '{') depth++;
      else if (segment[j] === '}') depth--;
      j++;
    }
    if (depth !== 0) throw new Error(`unclosed "{" in path "${path}"`);
    if (text !== '') tokens.push({ kind: 'text', text });
    text = '';
    const body = segment.slice(i + 1, j - 1);
    const colon = body.indexOf(':');
    tokens.push({ kind: 'var', name: colon < 0 ? body : body.slice(0, colon), regex: colon < 0 ? undefined : body.slice(colon + 1) });
    i = j;
  }
  if (text !== '') tokens.push({ kind: 'text', text });
  return tokens;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Translates a path template. Throws a plain `Error` with a reason for malformed templates.
 *
 * @example
 * ```ts
 * toHonoPath('/files/{name:.+}').hono; // '/files/:name{.+}'
 * toHonoPath('/ops/{id}:cancel').hono; // '/ops/:__loom_s1{(?:[^/]+):cancel}'
 * ```
 */
export function toHonoPath(path: string): PathTemplate {
  const variables: string[] = [];
  const compound = new Map<string, CompoundSegment>();
  const wholeAt = new Map<string, number>();
  const ranks: number[] = [];
  const out: string[] = [];
  const segments = splitSegments(path);
  // Counting from the end is exact only while no later segment may swallow slashes.
  let spanningAfter = false;
  const fromEnd = new Map<string, number>();

  segments.forEach((segment, index) => {
    const tokens = tokenize(segment, path);
    for (const t of tokens) if (t.kind === 'var') declare(t.name, t.regex, path, variables);
    const vars = tokens.filter((t): t is Extract<Token, { kind: 'var' }> => t.kind === 'var');
    if (vars.length === 0) {
      out.push(segment);
      ranks.push(3);
      return;
    }
    if (tokens.length === 1) {
      const v = vars[0]!;
      out.push(v.regex === undefined ? `:${v.name}` : `:${v.name}{${v.regex}}`);
      ranks.push(v.regex === undefined ? 1 : 2);
      wholeAt.set(v.name, index);
      return;
    }
    // Text beside variables: one Hono parameter with the whole segment's expression (no capturing
    // groups, which Hono's RegExpRouter refuses), cut into the variables with named groups later.
    const param = `__loom_s${index}`;
    out.push(`:${param}{${tokens.map((t) => (t.kind === 'text' ? escapeRegex(t.text) : `(?:${t.regex ?? SEGMENT})`)).join('')}}`);
    const group = (name: string) => `v${vars.findIndex((v) => v.name === name)}`;
    const pattern = new RegExp(
      `^${tokens.map((t) => (t.kind === 'text' ? escapeRegex(t.text) : `(?<${group(t.name)}>${t.regex ?? SEGMENT})`)).join('')}$`,
    );
    for (const v of vars) compound.set(v.name, { param, pattern, group: group(v.name) });
    ranks.push(2);
  });

  for (let i = segments.length - 1; i >= 0; i--) {
    const spans = tokenize(segments[i]!, path).some((t) => t.kind === 'var' && t.regex !== undefined && maySpanSegments(t.regex));
    if (spanningAfter) break;
    for (const [name, at] of wholeAt) if (at === i && !spans) fromEnd.set(name, segments.length - i);
    spanningAfter = spans;
  }
  // A trailing slash is part of the path (FastAPI and Django publish such paths; Hono routes strictly).
  const trailing = path.length > 1 && path.endsWith('/') ? '/' : '';
  return { declared: path, hono: `/${out.join('/')}${trailing}`, variables, compound, fromEnd, ranks };
}

/** Whether a variable's expression can match across a `/` (`.+` can, `[0-9]+` cannot), probed. */
function maySpanSegments(regex: string): boolean {
  const whole = new RegExp(`^(?:${regex})$`);
  return ['a/b', '0/1', 'a/', '/'].some((probe) => whole.test(probe));
}

/**
 * Names a variable may have: OpenAPI allows any name (Gitea has `{user-id}`); these are the
 * characters a path segment carries unescaped, plus `$`.
 */
const VARIABLE_NAME = /^[A-Za-z0-9_$.~-]+$/;

function declare(name: string, regex: string | undefined, path: string, variables: string[]): void {
  if (!VARIABLE_NAME.test(name)) throw new Error(`bad variable name "${name}" in path "${path}"`);
  if (variables.includes(name)) throw new Error(`variable "${name}" appears twice in path "${path}"`);
  if (regex !== undefined) {
    try {
      new RegExp(regex);
    } catch {
      throw new Error(`bad regular expression "${regex}" for variable "${name}" in path "${path}"`);
    }
  }
  variables.push(name);
}
