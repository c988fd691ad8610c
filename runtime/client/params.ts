/**
 * @module
 * Parameter serialization per OpenAPI `style`/`explode`: path segments
 * (`simple`, `label`, `matrix`), query pairs (`form`, `spaceDelimited`,
 * `pipeDelimited`, `deepObject`), headers and cookies.
 *
 * @see https://spec.openapis.org/oas/v3.1.0#style-values
 */

/** OpenAPI's serialization styles; the default is `simple` for path and header values, `form` for query ones. */
export type ParamStyle = 'form' | 'simple' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject' | 'matrix' | 'label';

/** How one parameter goes on the wire; generated clients hold one per operation parameter. */
export interface ParamSpec {
  /** Wire name: `priority_repo_id`, `X-Request-Id`. */
  readonly name: string;
  /** Property of the input object: `priorityRepoId`. */
  readonly key: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly style?: ParamStyle;
  readonly explode?: boolean;
  /** A JSON parameter (`content: application/json`): the value goes as one JSON text, whatever its style. */
  readonly json?: boolean;
}

/** A scalar as text: dates as ISO strings, everything else through `String`. */
export function scalarText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/** The text that replaces `{name}` in a path template (already percent-encoded). */
export function pathValue(spec: ParamSpec, value: unknown): string {
  const style = spec.style ?? 'simple';
  const explode = spec.explode ?? false;
  const enc = (v: unknown) => encodeURIComponent(scalarText(v));
  if (Array.isArray(value)) {
    switch (style) {
      case 'label':
        return `.${value.map(enc).join(explode ? '.' : ',')}`;
      case 'matrix':
        return explode ? value.map((v) => `;${spec.name}=${enc(v)}`).join('') : `;${spec.name}=${value.map(enc).join(',')}`;
      default:
        return value.map(enc).join(',');
    }
  }
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>);
    const pairs = explode ? entries.map(([k, v]) => `${enc(k)}=${enc(v)}`) : entries.flatMap(([k, v]) => [enc(k), enc(v)]);
    switch (style) {
      case 'label':
        return `.${pairs.join(explode ? '.' : ',')}`;
      case 'matrix':
        return explode ? entries.map(([k, v]) => `;${enc(k)}=${enc(v)}`).join('') : `;${spec.name}=${pairs.join(',')}`;
      default:
        return pairs.join(',');
    }
  }
  switch (style) {
    case 'label':
      return `.${enc(value)}`;
    case 'matrix':
      return `;${spec.name}=${enc(value)}`;
    default:
      return enc(value);
  }
}

/** Appends a query parameter to `query`; `undefined` values are left out. */
export function appendQuery(query: URLSearchParams, spec: ParamSpec, value: unknown): void {
  const style = spec.style ?? 'form';
  const explode = spec.explode ?? style === 'form';
  if (Array.isArray(value)) {
    if (style === 'form' && explode) for (const v of value) query.append(spec.name, scalarText(v));
    else query.append(spec.name, value.map(scalarText).join(style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ','));
    return;
  }
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (style === 'deepObject') for (const [k, v] of entries) query.append(`${spec.name}[${k}]`, scalarText(v));
    else if (explode) for (const [k, v] of entries) query.append(k, scalarText(v));
    else query.append(spec.name, entries.flatMap(([k, v]) => [k, scalarText(v)]).join(','));
    return;
  }
  query.append(spec.name, scalarText(value));
}

/** A header value (`simple` style). */
export function headerValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(scalarText).join(',');
  return scalarText(value);
}
