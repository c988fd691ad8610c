/**
 * @module
 * Path templates: joins prefixes and turns `{name}`, `:name`, `{name:regex}` and `:name:regex`
 * into Hono's `:name` / `:name{regex}` syntax, listing the variables.
 */

/** A translated path template. */
export interface PathTemplate {
  /** As declared, joined (`/users/{id:[0-9]+}`). */
  readonly declared: string;
  /** Hono's syntax (`/users/:id{[0-9]+}`). */
  readonly hono: string;
  readonly variables: readonly string[];
  /**
   * Per segment: 3 literal, 2 variable with a regular expression, 1 plain variable. Routes that can
   * match the same request are tried most specific first (as JAX-RS does), so `/issues/pinned` wins
   * over `/issues/{index}` whatever the declaration order.
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

function segmentRanks(path: string): number[] {
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
  if (current !== '') segments.push(current);
  return segments.map((seg) => {
    if (seg.startsWith(':')) return seg.indexOf(':', 1) > 0 || seg.includes('{') ? 2 : 1;
    if (seg.includes('{')) return seg.includes(':') ? 2 : 1;
    return 3;
  });
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

/**
 * Translates a path template. Throws a plain `Error` with a reason for malformed templates.
 *
 * @example
 * ```ts
 * toHonoPath('/files/{name:.+}').hono; // '/files/:name{.+}'
 * ```
 */
export function toHonoPath(path: string): PathTemplate {
  let out = '';
  const variables: string[] = [];
  let i = 0;
  while (i < path.length) {
    const ch = path[i]!;
    if (ch === '{') {
      let depth = 1;
      let j = i + 1;
      while (j < path.length && depth > 0) {
        if (path[j] === '{') depth++;
        else if (path[j] === '}') depth--;
        j++;
      }
      if (depth !== 0) throw new Error(`unclosed "{" in path "${path}"`);
      const body = path.slice(i + 1, j - 1);
      const colon = body.indexOf(':');
      const name = colon < 0 ? body : body.slice(0, colon);
      const regex = colon < 0 ? undefined : body.slice(colon + 1);
      out += variable(name, regex, path, variables);
      i = j;
    } else if (ch === ':' && (i === 0 || path[i - 1] === '/')) {
      const m = /^:([A-Za-z_][A-Za-z0-9_]*)(?::([^/]+)|\{([^}]+)\})?/.exec(path.slice(i));
      if (!m) throw new Error(`bad variable at "${path.slice(i)}" in path "${path}"`);
      out += variable(m[1]!, m[2] ?? m[3], path, variables);
      i += m[0].length;
    } else {
      out += ch;
      i++;
    }
  }
  return { declared: path, hono: out, variables, ranks: segmentRanks(path) };
}

function variable(name: string, regex: string | undefined, path: string, variables: string[]): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`bad variable name "${name}" in path "${path}"`);
  if (variables.includes(name)) throw new Error(`variable "${name}" appears twice in path "${path}"`);
  if (regex !== undefined) {
    try {
      new RegExp(regex);
    } catch {
      throw new Error(`bad regular expression "${regex}" for variable "${name}" in path "${path}"`);
    }
  }
  variables.push(name);
  return regex === undefined ? `:${name}` : `:${name}{${regex}}`;
}
