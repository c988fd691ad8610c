/**
 * @module
 * `@Header('Name: value')` read as rest.vertx reads it: `Accept` counts as `@Consumes`,
 * `Content-Type` as `@Produces`, every other header is sent as it is.
 */
import { RegistrationError } from '../errors.js';

/** What a list of `@Header` entries says. */
export interface HeaderRules {
  readonly statics: readonly (readonly [string, string])[];
  readonly accept: readonly string[];
  readonly contentType?: string;
}

/**
 * Splits `@Header` entries; one not written `Name: value` fails at registration, naming `where`.
 *
 * @example
 * ```ts
 * headerRules(['Cache-Control: max-age=60', 'Accept: text/csv'], 'Reports.get');
 * // { statics: [['Cache-Control', 'max-age=60']], accept: ['text/csv'] }
 * ```
 */
export function headerRules(headers: readonly string[] | undefined, where: string): HeaderRules {
  const statics: [string, string][] = [];
  const accept: string[] = [];
  let contentType: string | undefined;
  for (const h of headers ?? []) {
    const colon = h.indexOf(':');
    if (colon <= 0) throw new RegistrationError(`${where}: @Header('${h}') must be written 'Name: value'`);
    const name = h.slice(0, colon).trim();
    const value = h.slice(colon + 1).trim();
    if (name.toLowerCase() === 'accept') for (const mime of value.split(',')) accept.push(mime.trim());
    else if (name.toLowerCase() === 'content-type') contentType = value;
    else statics.push([name, value]);
  }
  return { statics, accept, ...(contentType ? { contentType } : {}) };
}
