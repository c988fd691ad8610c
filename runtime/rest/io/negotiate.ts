/**
 * @module
 * Content negotiation on `Accept` (q-values, wildcards, specificity) and mime matching for `Consumes`.
 */

interface AcceptEntry {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
  readonly specificity: number;
  readonly position: number;
}

/** The bare mime of a header value: `application/json; charset=utf-8` → `application/json`. */
export function bareMime(value: string): string {
  const semi = value.indexOf(';');
  return (semi < 0 ? value : value.slice(0, semi)).trim().toLowerCase();
}

function parseAccept(header: string): AcceptEntry[] {
  const entries: AcceptEntry[] = [];
  header.split(',').forEach((part, position) => {
    const [mime = '', ...params] = part.split(';');
    const [type = '*', subtype = '*'] = mime.trim().toLowerCase().split('/');
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k?.trim() === 'q' && v !== undefined) q = Number(v.trim());
    }
    if (!Number.isFinite(q) || q <= 0) return;
    const specificity = (type === '*' ? 0 : 1) + (subtype === '*' ? 0 : 1) + (params.some((p) => !p.trim().startsWith('q=')) ? 1 : 0);
    entries.push({ type, subtype, q, specificity, position });
  });
  // Highest q first; among equals the more specific, then the earlier one.
  return entries.sort((a, b) => b.q - a.q || b.specificity - a.specificity || a.position - b.position);
}

/** Whether a mime (`text/plain`) matches a pattern that may hold wildcards (`text/*`, `*\/*`). */
export function mimeMatches(pattern: string, mime: string): boolean {
  const [pt, ps] = bareMime(pattern).split('/');
  const [mt, ms] = bareMime(mime).split('/');
  return (pt === '*' || mt === '*' || pt === mt) && (ps === '*' || ms === '*' || ps === ms);
}

/**
 * Picks the supported type the `Accept` header prefers, or `undefined` when none is acceptable.
 * A missing or empty header accepts the first supported type.
 *
 * @example
 * ```ts
 * negotiate('text/plain;q=0.5, application/json', ['text/plain', 'application/json']); // 'application/json'
 * ```
 */
export function negotiate(accept: string | undefined, supported: readonly string[]): string | undefined {
  if (supported.length === 0) return undefined;
  if (accept === undefined || accept.trim() === '') return supported[0];
  for (const entry of parseAccept(accept)) {
    for (const s of supported) {
      const [t, st] = bareMime(s).split('/');
      if ((entry.type === '*' || entry.type === t) && (entry.subtype === '*' || entry.subtype === st)) return s;
    }
  }
  return undefined;
}

/** A negotiator with a small cache: a service sees few distinct `Accept` values. */
export function createNegotiator(supported: readonly string[]): (accept: string | undefined) => string | undefined {
  const cache = new Map<string, string | undefined>();
  return (accept) => {
    if (accept === undefined) return supported[0];
    if (cache.has(accept)) return cache.get(accept);
    const chosen = negotiate(accept, supported);
    if (cache.size < 64) cache.set(accept, chosen);
    return chosen;
  };
}
