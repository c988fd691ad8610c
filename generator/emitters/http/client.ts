/**
 * @module
 * The HTTP half of the `client` emitter: per OpenAPI service, an `OperationSpec`
 * constant per operation (how it goes on the wire) and a client class with one
 * method per operation taking the same input object as the handler interface,
 * plus a `…WithResponse` twin that also returns the `Response` (for headers
 * such as `X-Total-Count` and `Link`).
 */
import type { EmitContext } from '../../emit.js';
import { isFormMediaType, isJsonMediaType } from '../../model/media-types.js';
import type { HttpOperation, SchemaFile, Service } from '../../model/model.js';
import type { GeneratedFile } from '../../printer/generated-file.js';
import { importSymbol, jsDocText } from '../../printer/generated-file.js';
import { httpClientClassName, inputTypeName, operationSpecName } from '../names.js';
import { CLIENT } from '../runtime-symbols.js';
import type { TypeRenderContext } from '../types/render.js';
import { resultType, successBody, typeContext } from './bodies.js';
import { formDelimited, httpOperations, objectLiteralKey, operationDoc, successResponse, validatedBody } from './operation-view.js';

/** Prints the operation specs and client class of one HTTP service. */
export function printHttpClient(f: GeneratedFile, service: Service, ctx: EmitContext): void {
  const ops = httpOperations(service);
  const types = typeContext(f, service.parent, ctx);
  const OperationSpec = CLIENT.OperationSpec;
  const RequestOptions = CLIENT.RequestOptions;
  const basePath = service.parent.info.basePath.replace(/\/+$/, '');
  const specName = (op: HttpOperation) => f.declare(operationSpecName(op));

  const security = printSecurity(f, service.parent);
  for (const op of ops) {
    f.print('const ', specName(op), ': ', OperationSpec, ' = {');
    f.print('  name: ', f.string(op.localName), ',');
    f.print('  method: ', f.string(op.method.toUpperCase()), ',');
    f.print('  path: ', f.string(basePath + op.path), ',');
    if (op.parameters.length === 0) f.print('  params: [],');
    else {
      f.print('  params: [');
      for (const p of op.parameters) {
        const parts = [`name: ${f.string(p.name)}`, `key: ${f.string(p.localName)}`, `in: ${f.string(p.in)}`];
        // Only what differs from OpenAPI's defaults (form/explode for query and cookie, simple otherwise).
        const defaultStyle = p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple';
        const style = p.style ?? defaultStyle;
        if (style !== defaultStyle) parts.push(`style: ${f.string(style)}`);
        if (p.explode !== undefined && p.explode !== (style === 'form')) parts.push(`explode: ${p.explode}`);
        // `content: application/json`: the server reads the parameter as JSON text (`type: 'json'`).
        if (p.mediaType !== undefined && isJsonMediaType(p.mediaType)) parts.push('json: true');
        f.print('    { ', parts.join(', '), ' },');
      }
      f.print('  ],');
    }
    const body =
      op.requestBody && op.requestBody.contents.length > 0 ? (validatedBody(op) ?? op.requestBody.contents[0]!).mediaType : undefined;
    if (body !== undefined) f.print('  body: ', f.string(body), ',');
    const delimited = body !== undefined && isFormMediaType(body) ? formDelimited(op) : new Map<string, string>();
    if (delimited.size > 0) {
      const entries = [...delimited].map(([name, separator]) => `${objectLiteralKey(name, f)}: ${f.string(separator)}`);
      f.print('  delimited: { ', entries.join(', '), ' },');
    }
    const accept = [...new Set((successResponse(op)?.contents ?? []).map((c) => c.mediaType))];
    if (accept.length > 0) f.print('  accept: ', f.string(accept.join(', ')), ',');
    // The schemes each requirement needs; the client sends the credentials of the first it can satisfy.
    const requirements = (op.security ?? []).map((r) => Object.keys(r.schemes).filter((n) => security?.supported.has(n)));
    if (requirements.length > 0 && requirements.some((r) => r.length > 0))
      f.print('  security: [', requirements.map((r) => `[${r.map((n) => f.string(n)).join(', ')}]`).join(', '), '],');
    // Bytes whatever `Content-Type` the server answers with (`text/plain` for a raw file, say).
    if (successBody(op, types).binary) f.print('  binary: true,');
    f.print('};');
    f.print();
  }

  const cls = f.declare(httpClientClassName(service));
  const lower = service.localName.charAt(0).toLowerCase() + service.localName.slice(1);
  const view: HttpClientClassView = {
    jsDoc: jsDocText(`A typed fetch client for the ${service.name} operations. Non-2xx responses reject with \`ApiError\`.`, [
      '@example',
      `const ${lower} = new ${cls}({ baseUrl: 'http://localhost:3000', headers: { authorization: 'token …' } });`,
    ]),
    className: cls,
    httpClientType: f.text(CLIENT.HttpClient),
    optionsType: security
      ? f.text(CLIENT.HttpClientOptions, ' & { readonly credentials?: ', security.credentials, ' }')
      : f.text(CLIENT.HttpClientOptions),
    clientOptions: security
      ? `{ ...options, securitySchemes${security.schemes === 'securitySchemes' ? '' : `: ${security.schemes}`} }`
      : 'options',
    httpClient: f.text(CLIENT.HttpClient),
    requestOptions: f.text(RequestOptions),
    apiResponse: f.text(CLIENT.ApiResponse),
    methods: ops.map((op) => {
      const declared = f.text(importSymbol(inputTypeName(op), `/${ctx.outputPath(service.parent, 'server.ts')}`, { typeOnly: true }));
      // Members the server defaults are required in the handler's input, optional to send.
      const defaulted = op.parameters.filter((p) => p.default !== undefined).map((p) => f.string(p.localName));
      const input = defaulted.length === 0 ? declared : f.text(CLIENT.Defaulted, '<', declared, ', ', defaulted.join(' | '), '>');
      const optional = op.parameters.every((p) => !p.required) && !(op.requestBody?.required ?? false);
      const tags = [`@generated from operation ${op.name} (${op.method.toUpperCase()} ${op.path})`];
      if (op.deprecated) tags.unshift('@deprecated');
      return {
        name: op.localName,
        jsDoc: jsDocText(operationDoc(op), tags, '  '),
        inputParam: optional ? `input: ${input} = {}` : `input: ${input}`,
        result: clientResultType(op, types, '  '),
        resultInBody: clientResultType(op, types, '    '),
        spec: operationSpecName(op),
        withResponseDoc: jsDocText(
          `Like {@link ${cls}.${op.localName}}, resolving to \`{ data, response }\` for the status and headers.`,
          [],
          '  ',
        ),
      };
    }),
  };
  f.printBlock(ctx.options.templates.render('client/http-client-class', view));
  f.print();
}

/**
 * What the fetch client resolves to: the success body, or `T | undefined` when another 2xx
 * answer has no body (`200` with a product, `204` when nothing changed) — the client then
 * resolves to `undefined`, and the type must say so.
 */
function clientResultType(op: HttpOperation, types: TypeRenderContext, indent: string): string {
  const result = resultType(op, types, indent);
  const emptySuccess = op.responses.some(
    (r) => (r.status === '2XX' || (typeof r.status === 'number' && r.status >= 200 && r.status < 300)) && r.contents.length === 0,
  );
  return result === 'void' || !emptySuccess ? result : `${result} | undefined`;
}

/** View model of `templates/client/http-client-class.hbs`: every string final, the template only loops. */
export interface HttpClientClassView {
  readonly jsDoc: string;
  readonly className: string;
  readonly httpClientType: string;
  readonly optionsType: string;
  /** What the constructor hands `HttpClient`: `options`, with the description's security schemes when it has some. */
  readonly clientOptions: string;
  readonly httpClient: string;
  readonly requestOptions: string;
  readonly apiResponse: string;
  /**
   * Per operation: `result` is the success type as the method's signature spells it, and
   * `resultInBody` the same type indented for the method's body (they differ for inline objects).
   */
  readonly methods: readonly {
    name: string;
    jsDoc: string;
    inputParam: string;
    result: string;
    resultInBody: string;
    spec: string;
    withResponseDoc: string;
  }[];
}

/** What {@link printSecurity} declared in a file. */
interface SecurityDeclarations {
  /** The `securitySchemes` constant. */
  readonly schemes: string;
  /** The `Credentials` interface. */
  readonly credentials: string;
  /** The schemes a client can send credentials for (all but mutual TLS). */
  readonly supported: ReadonlySet<string>;
}

const securityByFile = new WeakMap<GeneratedFile, SecurityDeclarations | null>();

/**
 * Declares, once per client file, how each security scheme of the description authenticates a
 * request (`securitySchemes`, for `HttpClient`) and what credentials a client takes for them
 * (`Credentials`): a user and password for `basic`, a token or key otherwise (OAuth2 and OpenID
 * Connect access tokens go as bearer tokens). Undefined when the description declares none.
 */
function printSecurity(f: GeneratedFile, file: SchemaFile): SecurityDeclarations | undefined {
  const known = securityByFile.get(f);
  if (known !== undefined) return known ?? undefined;
  const schemes = (file.securitySchemes ?? []).filter((s) => s.kind !== 'mutualTLS');
  if (schemes.length === 0) {
    securityByFile.set(f, null);
    return undefined;
  }
  const constant = f.declare('securitySchemes');
  const credentials = f.declare('Credentials');
  f.jsDoc('How each security scheme of the description authenticates a request.');
  f.print('const ', constant, ': Readonly<Record<string, ', CLIENT.SecuritySchemeSpec, '>> = {');
  for (const s of schemes) {
    const spec =
      s.kind === 'apiKey'
        ? `{ type: 'apiKey', in: ${f.string(s.in)}, name: ${f.string(s.parameter)} }`
        : `{ type: 'http', scheme: ${f.string(s.kind === 'http' ? s.scheme : 'bearer')} }`;
    f.print('  ', objectLiteralKey(s.name, f), ': ', spec, ',');
  }
  f.print('};');
  f.print();
  f.jsDoc('The credentials a client is given, by security scheme: each request sends those its operation asks for.');
  f.print('export interface ', credentials, ' {');
  for (const s of schemes) {
    const what =
      s.kind === 'http' && s.scheme === 'basic'
        ? 'A user name and password (or their base64 text).'
        : s.kind === 'apiKey'
          ? `The key, sent in the ${s.in} \`${s.parameter}\`.`
          : s.kind === 'http'
            ? `The \`${s.scheme}\` credentials (a token), sent in \`Authorization\`.`
            : 'An access token, sent as a bearer token.';
    f.jsDoc(s.doc ? `${what}\n\n${s.doc}` : what, { indent: '  ' });
    const type = s.kind === 'http' && s.scheme === 'basic' ? f.text(CLIENT.BasicCredential, ' | string') : f.text(CLIENT.Credential);
    f.print('  ', objectLiteralKey(s.name, f), '?: ', type, ';');
  }
  f.print('}');
  f.print();
  const declared = { schemes: constant, credentials, supported: new Set(schemes.map((s) => s.name)) };
  securityByFile.set(f, declared);
  return declared;
}
