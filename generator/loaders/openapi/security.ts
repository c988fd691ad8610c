/**
 * @module
 * Security as the documents declare it: OpenAPI 3's `components/securitySchemes` and Swagger 2.0's
 * `securityDefinitions` into {@link SecurityScheme}s, and `security` requirements (the document's
 * and each operation's) into {@link SecurityRequirement}s, checked against the schemes declared.
 */
import type { JsonValue, SchemaFormat, SecurityRequirement, SecurityScheme } from '../../model/model.js';
import { type At, docOf, isObject, type Json } from './document.js';
import { childPointer } from './refs.js';
import type { Reporter } from './schema-keywords.js';

/** Swagger 2.0's OAuth2 `flow` names, as OpenAPI 3 spells them. */
const SWAGGER_FLOWS: Readonly<Record<string, string>> = {
  implicit: 'implicit',
  password: 'password',
  application: 'clientCredentials',
  accessCode: 'authorizationCode',
};

/**
 * The security schemes a document declares, in declaration order. A scheme Loom cannot read is left
 * out with a warning at its place.
 *
 * @example
 * securitySchemesOf(data, 'openapi-3.1', at, converter);
 * // [{ kind: 'http', name: 'BasicAuth', scheme: 'basic' }, { kind: 'apiKey', name: 'Token', in: 'query', parameter: 'token' }]
 */
export function securitySchemesOf(data: Json, format: SchemaFormat, at: At, report: Reporter): SecurityScheme[] {
  const swagger = format === 'swagger-2.0';
  const pointer = swagger ? '/securityDefinitions' : '/components/securitySchemes';
  const container = swagger
    ? data['securityDefinitions']
    : isObject(data['components'])
      ? data['components']['securitySchemes']
      : undefined;
  if (!isObject(container)) return [];
  const out: SecurityScheme[] = [];
  for (const [name, raw] of Object.entries(container)) {
    const schemeAt = { doc: at.doc, pointer: childPointer(pointer, name) };
    if (!isObject(raw)) {
      report.warn(schemeAt, `security scheme '${name}' is not an object; it is left out`);
      continue;
    }
    const scheme = swagger ? swaggerScheme(name, raw) : openapiScheme(name, raw);
    if (typeof scheme === 'string') report.warn(schemeAt, `security scheme '${name}' ${scheme}; it is left out`);
    else out.push(scheme);
  }
  return out;
}

function withDoc<T extends SecurityScheme>(scheme: T, raw: Json): T {
  const doc = docOf(raw);
  return doc ? { ...scheme, doc } : scheme;
}

function openapiScheme(name: string, raw: Json): SecurityScheme | string {
  switch (raw['type']) {
    case 'http': {
      if (typeof raw['scheme'] !== 'string') return "has type 'http' but no 'scheme' (basic, bearer, …)";
      const bearerFormat = typeof raw['bearerFormat'] === 'string' ? raw['bearerFormat'] : undefined;
      return withDoc({ kind: 'http', name, scheme: raw['scheme'].toLowerCase(), ...(bearerFormat ? { bearerFormat } : {}) }, raw);
    }
    case 'apiKey':
      return apiKeyScheme(name, raw);
    case 'oauth2':
      return withDoc({ kind: 'oauth2', name, flows: (isObject(raw['flows']) ? raw['flows'] : {}) as JsonValue }, raw);
    case 'openIdConnect':
      if (typeof raw['openIdConnectUrl'] !== 'string') return "has type 'openIdConnect' but no 'openIdConnectUrl'";
      return withDoc({ kind: 'openIdConnect', name, url: raw['openIdConnectUrl'] }, raw);
    case 'mutualTLS':
      return withDoc({ kind: 'mutualTLS', name }, raw);
    default:
      return `has an unknown type ${JSON.stringify(raw['type'])} (http, apiKey, oauth2, openIdConnect or mutualTLS)`;
  }
}

function swaggerScheme(name: string, raw: Json): SecurityScheme | string {
  switch (raw['type']) {
    case 'basic':
      return withDoc({ kind: 'http', name, scheme: 'basic' }, raw);
    case 'apiKey':
      return apiKeyScheme(name, raw);
    case 'oauth2': {
      const flow = SWAGGER_FLOWS[String(raw['flow'])];
      if (flow === undefined)
        return `has an unknown OAuth2 flow ${JSON.stringify(raw['flow'])} (implicit, password, application or accessCode)`;
      const spec: Record<string, JsonValue> = { scopes: (isObject(raw['scopes']) ? raw['scopes'] : {}) as JsonValue };
      if (typeof raw['authorizationUrl'] === 'string') spec['authorizationUrl'] = raw['authorizationUrl'];
      if (typeof raw['tokenUrl'] === 'string') spec['tokenUrl'] = raw['tokenUrl'];
      return withDoc({ kind: 'oauth2', name, flows: { [flow]: spec } }, raw);
    }
    default:
      return `has an unknown type ${JSON.stringify(raw['type'])} (basic, apiKey or oauth2)`;
  }
}

function apiKeyScheme(name: string, raw: Json): SecurityScheme | string {
  const where = raw['in'];
  if (where !== 'header' && where !== 'query' && where !== 'cookie')
    return `has 'in: ${String(where)}'; an API key goes in a header, query or cookie`;
  if (typeof raw['name'] !== 'string' || raw['name'] === '')
    return "has no 'name' (the header, query parameter or cookie carrying the key)";
  return withDoc({ kind: 'apiKey', name, in: where, parameter: raw['name'] }, raw);
}

/**
 * A `security` list as requirements, or undefined when there is none. Names that no scheme declares
 * are dropped from their requirement with a warning (a client could not satisfy them).
 *
 * @example
 * securityRequirementsOf([{ BasicAuth: [] }, { Token: [] }], schemes, at, converter);
 * // [{ schemes: { BasicAuth: [] } }, { schemes: { Token: [] } }]
 */
export function securityRequirementsOf(
  list: unknown,
  schemes: readonly SecurityScheme[],
  at: At,
  report: Reporter,
): SecurityRequirement[] | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) {
    report.warn(at, "'security' must be a list of requirements; it is ignored");
    return undefined;
  }
  const declared = new Set(schemes.map((s) => s.name));
  const out: SecurityRequirement[] = [];
  list.forEach((requirement, i) => {
    if (!isObject(requirement)) return;
    const entries: [string, readonly string[]][] = [];
    for (const [name, scopes] of Object.entries(requirement)) {
      if (!declared.has(name)) {
        report.warn(
          { doc: at.doc, pointer: childPointer(at.pointer, i, name) },
          `security requirement names '${name}', which no security scheme declares; it is left out ` +
            `(declare it under ${schemes.length === 0 ? 'securitySchemes' : `one of ${[...declared].join(', ')}`})`,
        );
        continue;
      }
      entries.push([name, Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : []]);
    }
    if (entries.length > 0 || Object.keys(requirement).length === 0) out.push({ schemes: Object.fromEntries(entries) });
  });
  return out;
}
